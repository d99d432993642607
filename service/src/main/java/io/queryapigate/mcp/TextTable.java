package io.queryapigate.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rows as a compact text table for a model to read: a header, a rule, one line per row, columns aligned, each value
 * on one line and shortened to {@value #WIDTH} characters, nulls as {@code NULL}.
 */
final class TextTable {
    static final int WIDTH = 40;

    private TextTable() {}

    static String render(List<String> columns, List<Map<String, Object>> rows) {
        if (columns.isEmpty()) {
            return rows.isEmpty() ? "(no rows)" : "(" + rows.size() + " rows without columns)";
        }
        List<String[]> cells = new ArrayList<>();
        int[] widths = new int[columns.size()];
        String[] header = columns.toArray(String[]::new);
        for (int i = 0; i < header.length; i++) {
            header[i] = shorten(header[i]);
            widths[i] = header[i].length();
        }
        for (Map<String, Object> row : rows) {
            String[] line = new String[columns.size()];
            for (int i = 0; i < line.length; i++) {
                Object v = row.get(columns.get(i));
                line[i] = shorten(v == null ? "NULL" : v.toString());
                widths[i] = Math.max(widths[i], line[i].length());
            }
            cells.add(line);
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        for (int i = 0; i < widths.length; i++) {
            out.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
        }
        out.append('\n');
        cells.forEach(c -> line(out, c, widths));
        out.append('(').append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)");
        return out.toString();
    }

    private static void line(StringBuilder out, String[] values, int[] widths) {
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : " | ").append(values[i]);
            if (i < values.length - 1) {
                out.append(" ".repeat(widths[i] - values[i].length()));
            }
        }
        out.append('\n');
    }

    private static String shorten(String text) {
        String one = text.replace('\r', ' ').replace('\n', ' ').replace('\t', ' ');
        return one.length() <= WIDTH ? one : one.substring(0, WIDTH - 1) + "…";
    }
}
