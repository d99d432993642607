package io.queryapigate.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A lexical pass over one SQL text: finds {@code :name} parameter markers outside literals, quoted identifiers,
 * comments and {@code ::} casts, rewrites them to JDBC {@code ?} markers, and records what a guard needs to know
 * (statement separators, executable comments, the code with literals and comments blanked out).
 *
 * <p>Quoting rules follow the standard (doubled quotes) plus what PostgreSQL/DuckDB add ({@code E'...'} backslash
 * escapes, dollar quotes, nested block comments). Dialects whose strings always honour backslashes (MySQL,
 * ClickHouse) pass {@code backslashEscapes}.
 */
public final class SqlText {
    /** What {@link #code()} shows in place of each character of a string literal. */
    public static final char LITERAL = '\u0001';
    /** What {@link #code()} shows in place of each character of a quoted identifier. */
    public static final char IDENTIFIER = '\u0002';

    private final String original;
    private final String jdbcSql;
    private final List<String> markers;
    private final String code;
    private final int separators;
    private final boolean trailingContent;
    private final boolean executableComment;
    private final boolean barePositional;
    private final boolean unterminated;

    private SqlText(String original, String jdbcSql, List<String> markers, String code, int separators,
            boolean trailingContent, boolean executableComment, boolean barePositional, boolean unterminated) {
        this.original = original;
        this.jdbcSql = jdbcSql;
        this.markers = markers;
        this.code = code;
        this.separators = separators;
        this.trailingContent = trailingContent;
        this.executableComment = executableComment;
        this.barePositional = barePositional;
        this.unterminated = unterminated;
    }

    public static SqlText parse(String sql, boolean backslashEscapes) {
        int n = sql.length();
        StringBuilder jdbc = new StringBuilder(n);
        StringBuilder code = new StringBuilder(n);
        List<String> markers = new ArrayList<>();
        int separators = 0;
        boolean afterSeparatorContent = false;
        boolean executable = false;
        boolean positional = false;
        boolean unterminated = false;
        int firstSeparator = -1;
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' ) {
                boolean escapes = backslashEscapes || isEscapePrefix(sql, i);
                int end = skipQuoted(sql, i, '\'', escapes);
                if (end < 0) {
                    unterminated = true;
                    end = n;
                }
                jdbc.append(sql, i, end);
                blank(code, end - i, LITERAL);
                if (separators > 0) {
                    afterSeparatorContent = true;
                }
                i = end;
            } else if (c == '"' || c == '`') {
                int end = skipQuoted(sql, i, c, false);
                if (end < 0) {
                    unterminated = true;
                    end = n;
                }
                jdbc.append(sql, i, end);
                blank(code, end - i, IDENTIFIER);
                if (separators > 0) {
                    afterSeparatorContent = true;
                }
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                jdbc.append(sql, i, end);
                blank(code, end - i, ' ');
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                if (i + 2 < n && sql.charAt(i + 2) == '!') {
                    executable = true;
                }
                int end = skipBlockComment(sql, i, !backslashEscapes);
                if (end < 0) {
                    unterminated = true;
                    end = n;
                }
                jdbc.append(sql, i, end);
                blank(code, end - i, ' ');
                i = end;
            } else if (c == '$' && !backslashEscapes && startsDollarQuote(sql, i)) {
                int tagEnd = sql.indexOf('$', i + 1);
                String tag = sql.substring(i, tagEnd + 1);
                int close = sql.indexOf(tag, tagEnd + 1);
                int end = close < 0 ? n : close + tag.length();
                if (close < 0) {
                    unterminated = true;
                }
                jdbc.append(sql, i, end);
                blank(code, end - i, LITERAL);
                if (separators > 0) {
                    afterSeparatorContent = true;
                }
                i = end;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                jdbc.append("::");
                code.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < n && isIdentStart(sql.charAt(i + 1))
                    && (i == 0 || !isIdentPart(sql.charAt(i - 1)))) {
                int end = i + 1;
                while (end < n && isIdentPart(sql.charAt(end))) {
                    end++;
                }
                markers.add(sql.substring(i + 1, end));
                jdbc.append('?');
                code.append('?');
                for (int k = i + 1; k < end; k++) {
                    code.append(' ');
                }
                if (separators > 0) {
                    afterSeparatorContent = true;
                }
                i = end;
            } else {
                if (c == '?') {
                    positional = true;
                } else if (c == ';') {
                    if (separators == 0) {
                        firstSeparator = jdbc.length();
                    }
                    separators++;
                } else if (separators > 0 && !Character.isWhitespace(c)) {
                    afterSeparatorContent = true;
                }
                jdbc.append(c);
                code.append(c);
                i++;
            }
        }
        String jdbcSql = jdbc.toString();
        if (firstSeparator >= 0 && !afterSeparatorContent) {
            jdbcSql = jdbcSql.substring(0, firstSeparator);
        }
        jdbcSql = jdbcSql.strip();
        return new SqlText(sql, jdbcSql, Collections.unmodifiableList(markers), code.toString(), separators,
                afterSeparatorContent, executable, positional, unterminated);
    }

    private static boolean isEscapePrefix(String sql, int quote) {
        if (quote == 0) {
            return false;
        }
        char p = sql.charAt(quote - 1);
        if (p != 'E' && p != 'e') {
            return false;
        }
        return quote < 2 || !isIdentPart(sql.charAt(quote - 2));
    }

    private static int skipQuoted(String sql, int start, char quote, boolean backslashEscapes) {
        int n = sql.length();
        int i = start + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return -1;
    }

    private static int skipBlockComment(String sql, int start, boolean nested) {
        int n = sql.length();
        int depth = 1;
        int i = start + 2;
        while (i < n) {
            if (nested && sql.charAt(i) == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else if (sql.charAt(i) == '*' && i + 1 < n && sql.charAt(i + 1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    private static boolean startsDollarQuote(String sql, int i) {
        if (i > 0 && isIdentPart(sql.charAt(i - 1))) {
            return false;
        }
        int j = i + 1;
        while (j < sql.length() && sql.charAt(j) != '$') {
            char c = sql.charAt(j);
            if (!(Character.isLetterOrDigit(c) || c == '_') || (j == i + 1 && Character.isDigit(c))) {
                return false;
            }
            j++;
        }
        return j < sql.length();
    }

    private static void blank(StringBuilder code, int count, char fill) {
        for (int k = 0; k < count; k++) {
            code.append(fill);
        }
    }

    static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isIdentPart(char c) {
        return isIdentStart(c) || (c >= '0' && c <= '9');
    }

    public String original() {
        return original;
    }

    /** The SQL with each {@code :name} replaced by {@code ?}, trimmed, without trailing semicolons. */
    public String jdbcSql() {
        return jdbcSql;
    }

    /** Marker names in order of appearance (a name used twice appears twice). */
    public List<String> markers() {
        return markers;
    }

    public Set<String> markerNames() {
        return new LinkedHashSet<>(markers);
    }

    /** The SQL with literals blanked to {@link #LITERAL}, quoted identifiers to {@link #IDENTIFIER}, comments to spaces. */
    public String code() {
        return code;
    }

    /** True when a {@code ;} outside literals and comments is followed by more code. */
    public boolean hasSeveralStatements() {
        return trailingContent;
    }

    public int separators() {
        return separators;
    }

    public boolean hasExecutableComment() {
        return executableComment;
    }

    public boolean hasBarePositionalMarker() {
        return barePositional;
    }

    public boolean hasUnterminatedToken() {
        return unterminated;
    }
}
