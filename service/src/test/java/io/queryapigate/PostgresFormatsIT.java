package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.CellType;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.ReadingOptions;
import org.dhatim.fastexcel.reader.Row;
import org.dhatim.fastexcel.reader.Sheet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every output format on the real PostgreSQL, for every common PostgreSQL type: each body is fetched through
 * {@code POST /execute_sql?format=...} (and {@code stream=true} where the format streams), parsed back with the library
 * the service writes it with, and checked value by value against the rules of docs/formats.md.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PostgresFormatsIT {
    private static final TestServers.Server PG = TestServers.postgres();
    private static final String SCHEMA = "qag_fmt_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final DropwizardAppExtension<GatewayConfiguration> APP;

    static final String TEXT = "He said \"hi\", then\nleft;\r\nüñïçødé 日本語 😀 \ttab";
    static final String NUM = "12345678901234567890123.123456789";
    static final byte[] BYTES = {0, 1, (byte) 0xff, (byte) 0x80, 'A'};
    static final String B64 = Base64.getEncoder().encodeToString(BYTES);
    static final String UUID_TEXT = "123e4567-e89b-12d3-a456-426614174000";
    static final Instant TSTZ = OffsetDateTime.parse("2024-01-02T03:04:05.654321+05:30").toInstant();
    static final String JSON_TEXT = "{\"k\":\"v\",\"n\":5,\"nested\":{\"a\":[1,2.5,null,\"x\"],\"t\":true}}";
    static final List<String> COLUMNS = List.of("id", "b", "i", "si", "num", "dbl", "flag", "txt", "vc", "d", "ts",
            "tstz", "tm", "bin", "uid", "js", "ia", "ta");

    static {
        setUp();
        String connections = "  postgres:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 2\n";
        APP = new DropwizardAppExtension<>(GatewayApplication.class, TestingConfig.write(connections, "").toString());
    }

    private static void setUp() {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("CREATE TABLE " + SCHEMA + ".t (id integer PRIMARY KEY, b bigint, i integer, si smallint,"
                    + " num numeric(38,9), dbl double precision, flag boolean, txt text, vc varchar(20), d date,"
                    + " ts timestamp, tstz timestamptz, tm time, bin bytea, uid uuid, js jsonb, ia int[], ta text[])");
            try (var ps = c.prepareStatement("INSERT INTO " + SCHEMA + ".t VALUES (1, 9223372036854775807,"
                    + " -2147483648, -32768, ?::numeric, 0.1, true, ?, 'plain', DATE '2024-02-29',"
                    + " TIMESTAMP '2024-01-02 03:04:05.123456', TIMESTAMPTZ '2024-01-02 03:04:05.654321+05:30',"
                    + " TIME '23:59:58.123456', ?, '" + UUID_TEXT + "', ?::jsonb, '{1,2,3}',"
                    + " ARRAY['a', 'b,c', 'd\"e', NULL])")) {
                ps.setString(1, NUM);
                ps.setString(2, TEXT);
                ps.setBytes(3, BYTES);
                ps.setString(4, JSON_TEXT);
                ps.executeUpdate();
            }
            s.execute("INSERT INTO " + SCHEMA + ".t (id, dbl, vc) VALUES (2, 'NaN', '')");
        } catch (SQLException e) {
            throw new AssertionError("cannot prepare PostgreSQL at " + PG.url(), e);
        }
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static String base;

    @BeforeAll
    static void client() {
        base = "http://127.0.0.1:" + APP.getLocalPort();
    }

    private static byte[] fetch(String query) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/execute_sql" + query))
                .header("X-API-Key", TestingConfig.ADMIN_KEY).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(Http.json(Map.of("sql",
                        "SELECT * FROM " + SCHEMA + ".t ORDER BY id", "connection_name", "postgres")))).build();
        HttpResponse<byte[]> r = CLIENT.send(req, HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(query + ": " + new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return r.body();
    }

    private static String text(String query) throws Exception {
        return new String(fetch(query), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- JSON, NDJSON, YAML

    /** The JSON-family rules: numbers exact, NaN a string, temporal values ISO strings, arrays/json nested. */
    static void assertJsonRows(List<JsonNode> rows, String label) throws Exception {
        assertThat(rows).as(label).hasSize(2);
        JsonNode r = rows.get(0);
        assertThat(names(r)).as(label).containsExactlyElementsOf(COLUMNS);
        assertThat(r.get("id").isIntegralNumber()).as(label).isTrue();
        assertThat(r.get("b").isIntegralNumber()).as(label).isTrue();
        assertThat(r.get("b").longValue()).as(label).isEqualTo(Long.MAX_VALUE);
        assertThat(r.get("i").longValue()).as(label).isEqualTo(-2147483648L);
        assertThat(r.get("si").longValue()).as(label).isEqualTo(-32768L);
        assertThat(r.get("num").isNumber()).as(label + " num is a number").isTrue();
        assertThat(r.get("num").decimalValue().toPlainString()).as(label).isEqualTo(NUM);
        assertThat(r.get("dbl").isNumber()).as(label).isTrue();
        assertThat(r.get("dbl").doubleValue()).as(label).isEqualTo(0.1);
        assertThat(r.get("flag").isBoolean()).as(label).isTrue();
        assertThat(r.get("flag").booleanValue()).as(label).isTrue();
        assertThat(r.get("txt").textValue()).as(label).isEqualTo(TEXT);
        assertThat(r.get("vc").textValue()).as(label).isEqualTo("plain");
        assertThat(r.get("d").textValue()).as(label).isEqualTo("2024-02-29");
        assertThat(r.get("ts").textValue()).as(label).isEqualTo("2024-01-02 03:04:05.123456");
        assertTstz(r.get("tstz").textValue(), label);
        assertThat(r.get("tm").textValue()).as(label).isEqualTo("23:59:58.123456");
        assertThat(r.get("bin").textValue()).as(label).isEqualTo(B64);
        assertThat(r.get("uid").textValue()).as(label).isEqualTo(UUID_TEXT);
        assertThat(r.get("js")).as(label + " jsonb nests").isEqualTo(JSON.readTree(JSON_TEXT));
        assertThat(r.get("ia")).as(label).isEqualTo(JSON.readTree("[1,2,3]"));
        assertThat(r.get("ta")).as(label).isEqualTo(JSON.readTree("[\"a\",\"b,c\",\"d\\\"e\",null]"));
        JsonNode n = rows.get(1);
        assertThat(names(n)).as(label).containsExactlyElementsOf(COLUMNS);
        assertThat(n.get("dbl").textValue()).as(label + " NaN").isEqualTo("NaN");
        assertThat(n.get("vc").textValue()).as(label + " empty string").isEqualTo("");
        for (String col : COLUMNS) {
            if (!List.of("id", "dbl", "vc").contains(col)) {
                assertThat(n.get(col).isNull()).as(label + " NULL " + col).isTrue();
            }
        }
    }

    static void assertTstz(String value, String label) {
        // the wall time in the gateway's zone, without an offset, as the Python original shows it
        assertThat(value).as(label + " tstz").isEqualTo(java.time.LocalDateTime.ofInstant(TSTZ,
                java.time.ZoneId.systemDefault()).format(java.time.format.DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                .replace('T', ' '));
    }

    static List<String> names(JsonNode row) {
        List<String> names = new ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void json() throws Exception {
        String body = text("?format=json");
        assertThat(body).contains("9223372036854775807").contains(NUM);
        List<JsonNode> rows = new ArrayList<>();
        JSON.readTree(body).forEach(rows::add);
        assertJsonRows(rows, "json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"?format=ndjson", "?format=ndjson&stream=true"})
    void ndjson(String query) throws Exception {
        String body = text(query);
        assertThat(body).endsWith("\n");
        List<JsonNode> rows = new ArrayList<>();
        for (String line : body.split("\n")) {
            rows.add(JSON.readTree(line));
        }
        assertJsonRows(rows, query);
    }

    @Test
    void yaml() throws Exception {
        YAMLMapper yaml = new YAMLMapper();
        yaml.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        String body = text("?format=yaml");
        List<JsonNode> rows = new ArrayList<>();
        yaml.readTree(body).forEach(rows::add);
        assertJsonRows(rows, "yaml");
    }

    // ---------------------------------------------------------------- CSV, TSV

    /** The text rules (CSV/TSV, XLSX text cells): plain digits, ISO text, base64, compact JSON text. */
    static void assertTextRow(Map<String, String> r, String label) throws Exception {
        assertThat(r.get("id")).as(label).isEqualTo("1");
        assertThat(r.get("b")).as(label).isEqualTo("9223372036854775807");
        assertThat(r.get("i")).as(label).isEqualTo("-2147483648");
        assertThat(r.get("si")).as(label).isEqualTo("-32768");
        assertThat(r.get("num")).as(label).isEqualTo(NUM);
        assertThat(r.get("dbl")).as(label).isEqualTo("0.1");
        assertThat(r.get("flag")).as(label).isEqualTo("True");
        assertThat(r.get("txt")).as(label).isEqualTo(TEXT);
        assertThat(r.get("vc")).as(label).isEqualTo("plain");
        assertThat(r.get("d")).as(label).isEqualTo("2024-02-29");
        assertThat(r.get("ts")).as(label).isEqualTo("2024-01-02 03:04:05.123456");
        assertTstz(r.get("tstz"), label);
        assertThat(r.get("tm")).as(label).isEqualTo("23:59:58.123456");
        assertThat(r.get("bin")).as(label).isEqualTo(B64);
        assertThat(r.get("uid")).as(label).isEqualTo(UUID_TEXT);
        assertCompactJson(r.get("js"), JSON.readTree(JSON_TEXT).toString(), label + " js");
        assertCompactJson(r.get("ia"), "[1,2,3]", label + " ia");
        assertCompactJson(r.get("ta"), "[\"a\",\"b,c\",\"d\\\"e\",null]", label + " ta");
    }

    /** A JSON value, nested or (for the jsonb bug) carried as JSON text. */
    static JsonNode jsonValue(JsonNode v) throws Exception {
        return v.isTextual() ? JSON.readTree(v.textValue()) : v;
    }

    static void assertCompactJson(String actual, String expected, String label) throws Exception {
        assertThat(actual).as(label).isNotNull();
        assertThat(JSON.readTree(actual)).as(label).isEqualTo(JSON.readTree(expected));
        assertThat(actual).as(label + " compact").isEqualTo(JSON.writeValueAsString(JSON.readTree(actual)));
    }

    static List<Map<String, String>> readDelimited(String body, char separator) throws Exception {
        CsvMapper csv = new CsvMapper();
        csv.enable(CsvParser.Feature.EMPTY_UNQUOTED_STRING_AS_NULL);
        CsvSchema schema = CsvSchema.emptySchema().withHeader().withColumnSeparator(separator).withQuoteChar('"');
        List<Map<String, String>> rows = new ArrayList<>();
        try (MappingIterator<Map<String, String>> it = csv.readerForMapOf(String.class).with(schema)
                .readValues(body)) {
            while (it.hasNext()) {
                rows.add(new LinkedHashMap<>(it.next()));
            }
        }
        return rows;
    }

    static void assertDelimited(String body, char separator, String lineEnd, String label) throws Exception {
        String header = String.join(String.valueOf(separator), COLUMNS) + lineEnd;
        assertThat(body).as(label).startsWith(header);
        assertThat(body).as(label).endsWith(lineEnd);
        List<Map<String, String>> rows = readDelimited(body, separator);
        assertThat(rows).as(label).hasSize(2);
        assertTextRow(rows.get(0), label);
        Map<String, String> n = rows.get(1);
        assertThat(n.get("id")).isEqualTo("2");
        assertThat(n.get("dbl")).as(label).isEqualTo("NaN");
        assertThat(n.get("vc")).as(label + " empty string").isEqualTo("");
        for (String col : COLUMNS) {
            if (!List.of("id", "dbl", "vc").contains(col)) {
                assertThat(n.get(col)).as(label + " NULL " + col).isNull();
            }
        }
        // the raw NULL row: empty unquoted fields, the empty string quoted
        String sep = String.valueOf(separator);
        assertThat(body).as(label).endsWith("2" + sep.repeat(5) + "NaN" + sep + sep + sep + "\"\""
                + sep.repeat(COLUMNS.size() - 9) + lineEnd);
    }

    @ParameterizedTest
    @ValueSource(strings = {"?format=csv", "?format=csv&stream=true"})
    void csv(String query) throws Exception {
        assertDelimited(text(query), ',', "\r\n", query);
    }

    @ParameterizedTest
    @ValueSource(strings = {"?format=tsv", "?format=tsv&stream=true"})
    void tsv(String query) throws Exception {
        assertDelimited(text(query), '\t', "\n", query);
    }

    // ---------------------------------------------------------------- XML

    @Test
    void xml() throws Exception {
        String body = text("?format=xml");
        assertThat(body).contains("<b>9223372036854775807</b>").contains("<num>" + NUM + "</num>")
                .contains("<vc/>").contains("<tstz xsi:nil=\"true\"/>").contains("&#xd;");
        JsonNode tree = new XmlMapper().readTree(body);
        JsonNode items = tree.get("item");
        assertThat(items.isArray()).as(body).isTrue();
        assertThat(items).hasSize(2);
        JsonNode r = items.get(0);
        assertThat(names(r)).containsExactlyElementsOf(COLUMNS);
        Map<String, String> flat = new HashMap<>();
        for (String col : COLUMNS) {
            JsonNode v = r.get(col);
            flat.put(col, v.isValueNode() ? v.asText() : null);
        }
        flat.put("js", null);
        flat.put("ia", null);
        flat.put("ta", null);
        // arrays and json nest as elements in XML, everything else is element text by the CSV rules
        Map<String, String> scalars = new HashMap<>(flat);
        scalars.put("js", JSON_TEXT);
        scalars.put("ia", "[1,2,3]");
        scalars.put("ta", "[\"a\",\"b,c\",\"d\\\"e\",null]");
        assertTextRow(scalars, "xml");
        JsonNode js = r.get("js");
        assertThat(js.isValueNode()).as("jsonb nests as elements").isFalse();
        {
            assertThat(js.get("k").asText()).isEqualTo("v");
            assertThat(js.get("n").asText()).isEqualTo("5");
            assertThat(js.get("nested").get("t").asText()).isEqualTo("True");
            assertThat(texts(js.get("nested").get("a").get("value"))).containsExactly("1", "2.5", null, "x");
        }
        assertThat(texts(r.get("ia").get("value"))).containsExactly("1", "2", "3");
        assertThat(texts(r.get("ta").get("value"))).containsExactly("a", "b,c", "d\"e", null);
        JsonNode n = items.get(1);
        assertThat(n.get("dbl").asText()).isEqualTo("NaN");
        assertThat(n.get("vc").asText()).isEqualTo("");
        for (String col : COLUMNS) {
            if (!List.of("id", "dbl", "vc").contains(col)) {
                assertThat(n.get(col).isNull()).as("xml NULL " + col + ": " + n).isTrue();
            }
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.isNull() ? null : v.asText()));
        return out;
    }

    // ---------------------------------------------------------------- XLSX

    @ParameterizedTest
    @ValueSource(strings = {"?format=xlsx", "?format=xlsx&stream=true"})
    void xlsx(String query) throws Exception {
        Map<Integer, Row> rows;
        try (ReadableWorkbook wb = new ReadableWorkbook(new ByteArrayInputStream(fetch(query)),
                new ReadingOptions(true, false))) {
            Sheet s = wb.getSheet(0).orElseThrow();
            assertThat(s.getName()).isEqualTo("Sheet");
            try (var stream = s.openStream()) {
                rows = stream.collect(Collectors.toMap(Row::getRowNum, r -> r, (a, b) -> a, TreeMap::new));
            }
        }
        assertThat(rows).hasSize(3);
        Row header = rows.get(1);
        List<String> names = new ArrayList<>();
        for (int c = 0; c < header.getCellCount(); c++) {
            names.add(header.getCell(c).getText());
        }
        assertThat(names).containsExactlyElementsOf(COLUMNS);
        Row r = rows.get(2);
        Map<String, Cell> cells = new HashMap<>();
        for (int c = 0; c < COLUMNS.size(); c++) {
            cells.put(COLUMNS.get(c), c < r.getCellCount() ? r.getCell(c) : null);
        }
        // typed only where Excel holds the value exactly
        assertNumber(cells.get("id"), "1");
        assertNumber(cells.get("i"), "-2147483648");
        assertNumber(cells.get("si"), "-32768");
        assertNumber(cells.get("dbl"), "0.1");
        assertThat(cells.get("flag").getType()).isEqualTo(CellType.BOOLEAN);
        assertThat(cells.get("flag").asBoolean()).isTrue();
        assertThat(cells.get("d").getType()).isEqualTo(CellType.NUMBER);
        assertThat(cells.get("d").getDataFormatString()).startsWith("yyyy-mm-dd");
        assertThat(cells.get("d").asDate()).isEqualTo(LocalDateTime.parse("2024-02-29T00:00"));
        Map<String, String> text = new HashMap<>();
        for (String col : List.of("b", "num", "txt", "vc", "ts", "tstz", "tm", "bin", "uid", "js", "ia", "ta")) {
            Cell c = cells.get(col);
            assertThat(c.getType()).as(query + " " + col + " is text").isEqualTo(CellType.STRING);
            text.put(col, c.getText());
        }
        text.put("id", "1");
        text.put("i", "-2147483648");
        text.put("si", "-32768");
        text.put("dbl", "0.1");
        text.put("flag", "True"); // a boolean cell, checked above
        text.put("d", "2024-02-29");
        // XLSX has no CR-free guarantee beyond XML; the text must survive exactly
        assertTextRow(text, query);
        Row n = rows.get(3);
        assertNumber(n.getCell(0), "2");
        assertThat(n.getCell(5).getType()).isEqualTo(CellType.STRING);
        assertThat(n.getCell(5).getText()).isEqualTo("NaN");
        Cell empty = n.getCell(8);
        assertThat(empty.getType()).as("empty string is a text cell").isEqualTo(CellType.STRING);
        assertThat(empty.getText()).isEqualTo("");
        for (int c = 0; c < COLUMNS.size(); c++) {
            if (c == 0 || c == 5 || c == 8) {
                continue;
            }
            Cell cell = c < n.getCellCount() ? n.getCell(c) : null;
            assertThat(cell == null || cell.getType() == CellType.EMPTY).as(query + " NULL " + COLUMNS.get(c))
                    .isTrue();
        }
    }

    static void assertNumber(Cell cell, String value) {
        assertThat(cell.getType()).isEqualTo(CellType.NUMBER);
        assertThat(cell.asNumber()).isEqualByComparingTo(new BigDecimal(value));
    }

    // ---------------------------------------------------------------- Parquet

    @ParameterizedTest
    @ValueSource(strings = {"?format=parquet", "?format=parquet&stream=true"})
    void parquet(String query, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("pg.parquet");
        Files.write(file, fetch(query));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = c.createStatement()) {
            Map<String, String> types = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
            assertThat(types.keySet()).containsExactlyElementsOf(COLUMNS);
            assertThat(types).containsEntry("id", "INTEGER").containsEntry("b", "BIGINT")
                    .containsEntry("i", "INTEGER").containsEntry("si", "INTEGER").containsEntry("dbl", "DOUBLE")
                    .containsEntry("flag", "BOOLEAN").containsEntry("txt", "VARCHAR").containsEntry("vc", "VARCHAR")
                    .containsEntry("d", "DATE").containsEntry("ts", "TIMESTAMP")
                    .containsEntry("tstz", "TIMESTAMP WITH TIME ZONE").containsEntry("tm", "TIME")
                    .containsEntry("bin", "BLOB").containsEntry("uid", "UUID").containsEntry("js", "JSON")
                    .containsEntry("ia", "VARCHAR").containsEntry("ta", "VARCHAR");
            // numeric(38,9): DECIMAL(38,9) when the precision reaches the writer, exact text otherwise
            assertThat(types.get("num")).isIn("DECIMAL(38,9)", "VARCHAR");
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery("SELECT id, b, i, si, num::VARCHAR, dbl, flag, txt, vc, d, ts, tstz,"
                    + " tm, bin, uid::VARCHAR, js::VARCHAR, ia, ta FROM read_parquet('" + file + "') ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getLong(2)).isEqualTo(Long.MAX_VALUE);
                assertThat(rs.getInt(3)).isEqualTo(-2147483648);
                assertThat(rs.getInt(4)).isEqualTo(-32768);
                assertThat(rs.getString(5)).isEqualTo(NUM);
                assertThat(rs.getDouble(6)).isEqualTo(0.1);
                assertThat(rs.getBoolean(7)).isTrue();
                assertThat(rs.getString(8)).isEqualTo(TEXT);
                assertThat(rs.getString(9)).isEqualTo("plain");
                assertThat(rs.getObject(10, LocalDate.class)).isEqualTo(LocalDate.parse("2024-02-29"));
                assertThat(rs.getObject(11, LocalDateTime.class))
                        .isEqualTo(LocalDateTime.parse("2024-01-02T03:04:05.123456"));
                assertThat(rs.getObject(12, OffsetDateTime.class).toInstant()).isEqualTo(TSTZ);
                assertThat(rs.getObject(13, LocalTime.class)).isEqualTo(LocalTime.parse("23:59:58.123456"));
                assertThat(rs.getBytes(14)).isEqualTo(BYTES);
                assertThat(rs.getString(15)).isEqualTo(UUID_TEXT);
                assertThat(JSON.readTree(rs.getString(16))).isEqualTo(JSON.readTree(JSON_TEXT));
                assertCompactJson(rs.getString(17), "[1,2,3]", "parquet ia");
                assertCompactJson(rs.getString(18), "[\"a\",\"b,c\",\"d\\\"e\",null]", "parquet ta");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
                assertThat(Double.isNaN(rs.getDouble(6))).as("NaN").isTrue();
                assertThat(rs.getString(9)).isEqualTo("");
                for (int col = 1; col <= COLUMNS.size(); col++) {
                    if (col != 1 && col != 6 && col != 9) {
                        assertThat(rs.getObject(col)).as("parquet NULL " + COLUMNS.get(col - 1)).isNull();
                    }
                }
                assertThat(rs.next()).isFalse();
            }
        }
    }
}
