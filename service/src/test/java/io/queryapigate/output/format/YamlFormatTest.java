package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlFormatTest {
    static final YAMLMapper MAPPER = YAMLMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .build();

    @Test
    void roundTripKeepsTypesAndValues() throws Exception {
        JsonNode root = MAPPER.readTree(SampleRows.write(OutputFormat.YAML));
        assertThat(root.isArray()).isTrue();
        List<JsonNode> rows = new ArrayList<>();
        root.forEach(rows::add);
        assertThat(rows).hasSize(4);
        JsonFormatsTest.checkRows(rows);
        // text that looks like another YAML type stays text
        assertThat(rows.get(3).get("txt").isTextual()).isTrue();
        assertThat(rows.get(3).get("txt_2").isTextual()).isTrue();
        assertThat(rows.get(3).get("a b").textValue()).isEqualTo("0123");
        assertThat(rows.get(3).get("x:y").isTextual()).isTrue();
        assertThat(rows.get(2).get("id").isNull()).isTrue();
        assertThat(rows.get(0).get("id").isIntegralNumber()).isTrue();
    }

    @Test
    void isABlockSequenceWithoutDocumentMarkerAndDecimalsPlain() {
        String text = new String(SampleRows.write(OutputFormat.YAML), StandardCharsets.UTF_8);
        assertThat(text).startsWith("- id: 9223372036854775807\n");
        assertThat(text).contains("dec: 12345678901234567890.123456789\n").contains("dec: 1000.0\n")
                .contains("txt: \"null\"").contains("flag: true").doesNotContain("---").doesNotContain("!!binary");
    }

    @Test
    void emptyResultIsAnEmptySequence() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.YAML.newWriter(out);
        w.columns(SampleRows.COLUMNS);
        w.finish();
        JsonNode root = MAPPER.readTree(out.toByteArray());
        assertThat(root.isArray()).isTrue();
        assertThat(root).isEmpty();
    }
}
