package io.queryapigate.dialect.sqlite;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The comments in a table's CREATE statement, which SQLite keeps verbatim in {@code sqlite_schema.sql}: SQLite has
 * no {@code COMMENT ON}, and commenting the DDL is how its users document tables. Which comment belongs to what:
 *
 * <ul>
 *   <li>before the first column (between the table's name and its first column, or on the line of the opening
 *       parenthesis): the table's;
 *   <li>after a column's definition on the same line as its comma (or before the closing parenthesis): that
 *       column's;
 *   <li>on lines of their own before a column's definition: that column's.
 * </ul>
 *
 * <p>Several comments of one column are joined with a space; a comment after a table constraint belongs to
 * nothing. Quoted names and string literals are skipped whole. Immutable.
 */
final class SqliteComments {
    static final SqliteComments NONE = new SqliteComments(Optional.empty(), Map.of());

    private final Optional<String> table;
    private final Map<String, String> columns;

    private SqliteComments(Optional<String> table, Map<String, String> columns) {
        this.table = table;
        this.columns = columns;
    }

    Optional<String> table() {
        return table;
    }

    Optional<String> column(String name) {
        return Optional.ofNullable(columns.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * Reads the comments of one CREATE statement.
     *
     * @param sql the statement as {@code sqlite_schema.sql} holds it
     * @return its comments; {@link #NONE} for a statement without any
     */
    static SqliteComments of(String sql) {
        if (sql.indexOf("--") < 0 && sql.indexOf("/*") < 0) {
            return NONE;
        }
        StringBuilder tableComment = new StringBuilder();
        Map<String, String> columnComments = new HashMap<>();
        int depth = 0;
        String segment = null; // the name of the column (or constraint keyword) being defined, null before its first token
        String previous = null; // the segment before the last top-level comma
        boolean newlineSinceBoundary = false;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                String text = sql.substring(i + 2, end).strip();
                attach(text, depth, segment, previous, newlineSinceBoundary, tableComment, columnComments);
                i = end;
                continue;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? n : end;
                String text = sql.substring(i + 2, end).strip();
                attach(text, depth, segment, previous, newlineSinceBoundary, tableComment, columnComments);
                i = Math.min(n, end + 2);
                continue;
            }
            if (c == '\n') {
                newlineSinceBoundary = true;
            } else if (c == '(') {
                depth++;
                if (depth == 1) {
                    newlineSinceBoundary = false;
                }
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 1) {
                previous = segment;
                segment = null;
                newlineSinceBoundary = false;
            } else if (depth == 1 && segment == null && !Character.isWhitespace(c)) {
                int end = tokenEnd(sql, i);
                segment = unquote(sql.substring(i, end));
                String pending = columnComments.remove(PENDING_KEY);
                if (pending != null && !CONSTRAINTS.contains(segment.toLowerCase(Locale.ROOT))) {
                    columnComments.merge(segment.toLowerCase(Locale.ROOT), pending, (a, b) -> a + " " + b);
                }
                i = end;
                continue;
            }
            if (c == '\'' || c == '"' || c == '`' || c == '[') {
                i = tokenEnd(sql, i);
                continue;
            }
            i++;
        }
        return new SqliteComments(tableComment.isEmpty() ? Optional.empty() : Optional.of(tableComment.toString()),
                Map.copyOf(columnComments));
    }

    private static void attach(String text, int depth, String segment, String previous, boolean newline,
            StringBuilder tableComment, Map<String, String> columnComments) {
        if (text.isEmpty() || depth > 1) {
            return;
        }
        String owner;
        if (depth == 0) {
            owner = null; // before the opening parenthesis (or after the closing one): the table's
        } else if (segment != null) {
            owner = segment;
        } else if (!newline) {
            owner = previous; // on the line of the comma (or of the opening parenthesis, previous == null)
        } else {
            owner = PENDING;
        }
        if (owner == null) {
            tableComment.append(tableComment.isEmpty() ? "" : " ").append(text);
        } else if (owner == PENDING) {
            columnComments.merge(PENDING_KEY, text, (a, b) -> a + " " + b);
        } else if (!CONSTRAINTS.contains(owner.toLowerCase(Locale.ROOT))) {
            String key = owner.toLowerCase(Locale.ROOT);
            String pending = columnComments.remove(PENDING_KEY);
            columnComments.merge(key, pending == null ? text : pending + " " + text, (a, b) -> a + " " + b);
        }
    }

    private static final String PENDING = new String("pending");
    private static final String PENDING_KEY = "\u0000pending";
    private static final java.util.Set<String> CONSTRAINTS =
            java.util.Set.of("constraint", "primary", "unique", "check", "foreign");

    /** The end of the name or quoted token starting at {@code start}. */
    private static int tokenEnd(String sql, int start) {
        char c = sql.charAt(start);
        char close = switch (c) {
            case '\'' -> '\'';
            case '"' -> '"';
            case '`' -> '`';
            case '[' -> ']';
            default -> 0;
        };
        int n = sql.length();
        if (close != 0) {
            int i = start + 1;
            while (i < n) {
                if (sql.charAt(i) == close) {
                    if (close != ']' && i + 1 < n && sql.charAt(i + 1) == close) {
                        i += 2; // a doubled quote
                        continue;
                    }
                    return i + 1;
                }
                i++;
            }
            return n;
        }
        int i = start;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
            i++;
        }
        return Math.max(i, start + 1);
    }

    private static String unquote(String token) {
        if (token.length() >= 2) {
            char first = token.charAt(0);
            if (first == '"' || first == '`' || first == '\'') {
                return token.substring(1, token.length() - 1).replace(String.valueOf(first) + first, String.valueOf(first));
            }
            if (first == '[') {
                return token.substring(1, token.length() - 1);
            }
        }
        return token;
    }
}
