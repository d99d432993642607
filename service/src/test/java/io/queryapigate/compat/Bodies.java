package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.Row;
import org.dhatim.fastexcel.reader.Sheet;

/**
 * Bodies as JSON, so they are compared value by value: an XLSX workbook as its sheets' cell texts, a Parquet file as
 * its columns' types (as DuckDB reads them) and its rows' values as text, NDJSON as the array of its lines and YAML
 * as the data it holds (how the text is spaced or quoted means nothing to a reader of either).
 */
final class Bodies {
    private Bodies() {}

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true)).build();

    /**
     * The body decoded, when it is an XLSX workbook or a Parquet file (by their magic bytes), NDJSON or YAML (by
     * their content type); else null.
     */
    static JsonNode decode(String contentType, byte[] body) {
        if (startsWith(body, "PAR1")) {
            return parquet(body);
        }
        if (startsWith(body, "PK\u0003\u0004") && contentType.contains("spreadsheet")) {
            return xlsx(body);
        }
        String text = new String(body, StandardCharsets.UTF_8);
        try {
            if (contentType.contains("ndjson")) {
                ArrayNode lines = Normaliser.MAPPER.createArrayNode();
                for (String line : text.split("\n")) {
                    if (!line.isBlank()) {
                        lines.add(Normaliser.MAPPER.readTree(line));
                    }
                }
                return lines;
            }
            if (contentType.contains("yaml")) {
                return YAML.readTree(text);
            }
        } catch (IOException e) {
            return null; // compared as text
        }
        return null;
    }

    private static boolean startsWith(byte[] body, String magic) {
        if (body.length < magic.length()) {
            return false;
        }
        for (int i = 0; i < magic.length(); i++) {
            if (body[i] != (byte) magic.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode xlsx(byte[] body) {
        ObjectNode out = Normaliser.MAPPER.createObjectNode();
        ArrayNode sheets = out.putArray("sheets");
        try (ReadableWorkbook wb = new ReadableWorkbook(new ByteArrayInputStream(body))) {
            for (Sheet sheet : wb.getSheets().toList()) {
                ObjectNode s = sheets.addObject().put("name", sheet.getName());
                ArrayNode rows = s.putArray("rows");
                for (Row row : sheet.read()) {
                    ArrayNode cells = rows.addArray();
                    row.forEach(c -> cells.add(c == null ? null : c.getType() + ":" + c.getRawValue()));
                }
            }
        } catch (IOException e) {
            return Normaliser.MAPPER.createObjectNode().put("undecodable xlsx", e.toString());
        }
        return out;
    }

    private static JsonNode parquet(byte[] body) {
        ObjectNode out = Normaliser.MAPPER.createObjectNode();
        try {
            Path file = Files.createTempFile("compat-", ".parquet");
            try {
                Files.write(file, body);
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                        Statement st = c.createStatement()) {
                    st.execute("SET TimeZone = 'UTC'");
                    ObjectNode columns = out.putObject("columns");
                    List<String> names = new ArrayList<>();
                    try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
                        while (rs.next()) {
                            columns.put(rs.getString(1), rs.getString(2));
                            names.add(rs.getString(1));
                        }
                    }
                    StringBuilder select = new StringBuilder("SELECT ");
                    for (int i = 0; i < names.size(); i++) {
                        select.append(i == 0 ? "" : ", ").append('"').append(names.get(i).replace("\"", "\"\""))
                                .append("\"::VARCHAR");
                    }
                    ArrayNode rows = out.putArray("rows");
                    if (names.isEmpty()) {
                        return out;
                    }
                    try (ResultSet rs = st.executeQuery(select + " FROM read_parquet('" + file + "')")) {
                        while (rs.next()) {
                            ArrayNode row = rows.addArray();
                            for (int i = 1; i <= names.size(); i++) {
                                row.add(rs.getString(i));
                            }
                        }
                    }
                }
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (SQLException e) {
            return Normaliser.MAPPER.createObjectNode().put("undecodable parquet", e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
