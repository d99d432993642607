package io.queryapigate.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.TestingConfig;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/api.md's table of error codes and the codes the OpenAPI document declares are the same. */
class ErrorCodesTest {
    private static final Pattern ROW = Pattern.compile("^\\| ([0-9/]+) \\| (.*) \\|$");
    private static final Pattern CODE = Pattern.compile("`([a-z_]+)`");

    @Test
    void theDocsTableAndTheDocumentAgree() throws Exception {
        String api = Files.readString(TestingConfig.repo().resolve("docs/api.md"));
        String table = api.substring(api.indexOf("## Error codes"));
        Map<Integer, TreeSet<String>> documented = new TreeMap<>();
        for (String line : table.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            List<Integer> statuses = java.util.Arrays.stream(row.group(1).split("/")).map(Integer::parseInt).toList();
            Matcher code = CODE.matcher(row.group(2).replaceAll("\\([^)]*\\)", ""));
            while (code.find()) {
                // a row for two statuses (405/406) names one code for each, in order
                int status = statuses.size() == 1 ? statuses.get(0) : statuses.get(Math.min(statuses.size() - 1,
                        documented.getOrDefault(statuses.get(0), new TreeSet<>()).size()));
                documented.computeIfAbsent(status, s -> new TreeSet<>()).add(code.group(1));
            }
        }
        Map<Integer, TreeSet<String>> declared = new TreeMap<>();
        ErrorCodes.BY_STATUS.forEach((status, codes) -> declared.put(status, new TreeSet<>(codes)));
        assertThat(documented).isEqualTo(declared);
    }
}
