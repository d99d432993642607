package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonFormatsTest {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    @Test
    void jsonIsAnArrayOfObjectsWithExactValues() throws Exception {
        byte[] bytes = SampleRows.write(OutputFormat.JSON);
        JsonNode root = MAPPER.readTree(bytes);
        assertThat(root.isArray()).isTrue();
        assertThat(root).hasSize(4);
        checkRows(List.of(root.get(0), root.get(1), root.get(2), root.get(3)));
    }

    @Test
    void ndjsonIsOneObjectPerLfTerminatedLine() throws Exception {
        byte[] bytes = SampleRows.write(OutputFormat.NDJSON);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).endsWith("}\n");
        String[] lines = text.split("\n", -1);
        assertThat(lines).hasSize(5); // four rows and the empty rest after the last LF
        assertThat(lines[4]).isEmpty();
        List<JsonNode> rows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rows.add(MAPPER.readTree(lines[i]));
        }
        checkRows(rows);
    }

    static void checkRows(List<JsonNode> rows) {
        JsonNode r0 = rows.get(0);
        assertThat(fieldNames(r0)).containsExactlyElementsOf(SampleRows.NAMES);
        assertThat(r0.get("id").isLong()).isTrue();
        assertThat(r0.get("id").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(r0.get("i").intValue()).isEqualTo(Integer.MIN_VALUE);
        assertThat(r0.get("s").intValue()).isEqualTo(-32768);
        assertThat(r0.get("b").intValue()).isEqualTo(127);
        assertThat(r0.get("huge").isBigInteger()).isTrue();
        assertThat(r0.get("huge").bigIntegerValue()).isEqualTo(SampleRows.HUGE);
        assertThat(r0.get("dec").decimalValue()).isEqualTo(SampleRows.DEC);
        assertThat(r0.get("dbl").doubleValue()).isEqualTo(0.1);
        assertThat(r0.get("flt").doubleValue()).isEqualTo(1.5);
        assertThat(r0.get("flag").booleanValue()).isTrue();
        assertThat(r0.get("arr").isArray()).isTrue();
        assertThat(r0.get("arr").get(2).isNull()).isTrue();
        assertThat(r0.get("arr").get(3).get(1).longValue()).isEqualTo(4L);
        assertThat(r0.get("obj").get("inner").get("x").decimalValue()).isEqualTo(new BigDecimal("1.5"));
        assertThat(r0.get("obj").get("nil").isNull()).isTrue();
        JsonNode r1 = rows.get(1);
        assertThat(r1.get("id").longValue()).isEqualTo(Long.MIN_VALUE);
        assertThat(r1.get("dbl").isTextual()).isTrue();
        assertThat(r1.get("dbl").textValue()).isEqualTo("NaN");
        assertThat(r1.get("flt").textValue()).isEqualTo("-Infinity");
        assertThat(rows.get(3).get("dec").decimalValue().toPlainString()).isEqualTo("1000.0");
        for (int r = 0; r < 4; r++) {
            JsonNode row = rows.get(r);
            for (int c = 0; c < SampleRows.NAMES.size(); c++) {
                JsonNode v = row.get(SampleRows.NAMES.get(c));
                String expected = Expected.TEXT[r][c];
                if (expected == null) {
                    assertThat(v.isNull()).as("row %d %s", r, SampleRows.NAMES.get(c)).isTrue();
                } else if (v.isContainerNode()) {
                    assertThat(v.toString()).as("row %d %s", r, SampleRows.NAMES.get(c)).isEqualTo(expected);
                } else if (v.isBigDecimal()) {
                    assertThat(v.decimalValue().toPlainString()).isEqualTo(expected);
                } else if (v.isBoolean()) {
                    // JSON and YAML keep the type; the text formats write True/False
                    assertThat(v.asText()).as("row %d %s", r, SampleRows.NAMES.get(c))
                            .isEqualTo(expected.toLowerCase(java.util.Locale.ROOT));
                } else {
                    assertThat(v.asText()).as("row %d %s", r, SampleRows.NAMES.get(c)).isEqualTo(expected);
                }
            }
        }
    }

    static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    @Test
    void decimalsArePlainAndLongsAreNotFloats() {
        String text = new String(SampleRows.write(OutputFormat.JSON), StandardCharsets.UTF_8);
        assertThat(text).contains("\"id\":9223372036854775807")
                .contains("\"dec\":12345678901234567890.123456789")
                .contains("\"dec\":1000.0")
                .doesNotContain("E+");
    }

    @Test
    void emptyResultIsAnEmptyArrayOrNothing() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.JSON.newWriter(out);
        w.columns(SampleRows.COLUMNS);
        w.finish();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("[]");
        out.reset();
        w = OutputFormat.NDJSON.newWriter(out);
        w.columns(SampleRows.COLUMNS);
        w.finish();
        assertThat(out.size()).isZero();
    }
}
