package io.queryapigate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextTableTest {
    private static Map<String, Object> row(Object id, Object name) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", id);
        r.put("name", name);
        return r;
    }

    @Test
    void alignsColumnsAndShortensValues() {
        String text = TextTable.render(List.of("id", "name"), List.of(row(1, "Ada"), row(1234, null),
                row(7, "x".repeat(100) + "\nsecond line")));
        List<String> lines = text.lines().toList();
        assertThat(lines.get(0)).isEqualTo("id   | name");
        assertThat(lines.get(1)).isEqualTo("-----+-" + "-".repeat(TextTable.WIDTH));
        assertThat(lines.get(2)).isEqualTo("1    | Ada");
        assertThat(lines.get(3)).isEqualTo("1234 | NULL");
        assertThat(lines.get(4)).isEqualTo("7    | " + "x".repeat(TextTable.WIDTH - 1) + "…");
        assertThat(lines.get(5)).isEqualTo("(3 rows)");
    }

    @Test
    void saysWhenThereAreNoRows() {
        assertThat(TextTable.render(List.of(), List.of())).isEqualTo("(no rows)");
        assertThat(TextTable.render(List.of("id"), List.of(row(1, "a")))).endsWith("(1 row)");
    }
}
