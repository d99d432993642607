package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One SQL text's parameter markers: finds {@code :name} markers outside literals, quoted identifiers, comments
 * and {@code ::} casts, rewrites them to JDBC {@code ?} markers, and records what the first checks need to know
 * (statement separators, unterminated tokens, executable comments, bare {@code ?} markers). Where literals, quoted
 * names and comments lie is the connection's {@link SqlLexer} reading ({@link LexicalRules}), the same the guard
 * reads the rewritten text with.
 */
public final class SqlText {
    private final String original;
    private final String jdbcSql;
    private final List<String> markers;
    private final int separators;
    private final boolean trailingContent;
    private final boolean executableComment;
    private final boolean barePositional;
    private final boolean unterminated;

    private SqlText(String original, String jdbcSql, List<String> markers, int separators, boolean trailingContent,
            boolean executableComment, boolean barePositional, boolean unterminated) {
        this.original = original;
        this.jdbcSql = jdbcSql;
        this.markers = markers;
        this.separators = separators;
        this.trailingContent = trailingContent;
        this.executableComment = executableComment;
        this.barePositional = barePositional;
        this.unterminated = unterminated;
    }

    /**
     * Reads a text's markers.
     *
     * @param sql the text as the caller sent it
     * @param rules the connection's lexical rules (the primary reading; alternatives are the guard's business)
     */
    public static SqlText parse(String sql, LexicalRules rules) {
        int n = sql.length();
        StringBuilder jdbc = new StringBuilder(n);
        List<String> markers = new ArrayList<>();
        int separators = 0;
        boolean afterSeparatorContent = false;
        boolean executable = false;
        boolean positional = false;
        boolean unterminated = false;
        int firstSeparator = -1;
        List<SqlLexer.Token> tokens = SqlLexer.tokens(sql, rules);
        int next = 0;
        int i = 0;
        while (i < n) {
            if (next < tokens.size() && tokens.get(next).start() == i) {
                SqlLexer.Token t = tokens.get(next++);
                jdbc.append(sql, t.start(), t.end());
                unterminated |= t.unterminated();
                executable |= SqlLexer.isExecutableComment(sql, t);
                if (t.kind() != SqlLexer.Kind.COMMENT && separators > 0) {
                    afterSeparatorContent = true;
                }
                i = t.end();
                continue;
            }
            int limit = next < tokens.size() ? tokens.get(next).start() : n;
            char c = sql.charAt(i);
            if (c == ':' && i + 1 < limit && sql.charAt(i + 1) == ':') {
                jdbc.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < limit && isIdentStart(sql.charAt(i + 1))
                    && (i == 0 || !isIdentPart(sql.charAt(i - 1)))) {
                int end = i + 1;
                while (end < limit && isIdentPart(sql.charAt(end))) {
                    end++;
                }
                markers.add(sql.substring(i + 1, end));
                jdbc.append('?');
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
                i++;
            }
        }
        String jdbcSql = jdbc.toString();
        if (firstSeparator >= 0 && !afterSeparatorContent) {
            jdbcSql = jdbcSql.substring(0, firstSeparator);
        }
        jdbcSql = jdbcSql.strip();
        return new SqlText(sql, jdbcSql, Collections.unmodifiableList(markers), separators, afterSeparatorContent,
                executable, positional, unterminated);
    }

    /**
     * A MongoDB query document's placeholders as markers: the document is its own "JDBC text" (the dialect binds its
     * {@code ":name"} string leaves by name), one statement, nothing for the SQL checks to find.
     *
     * @param document the query document (JSON)
     * @param placeholders its placeholder names in order of appearance
     */
    public static SqlText document(String document, List<String> placeholders) {
        return new SqlText(document, document, List.copyOf(placeholders), 0, false, false, false, false);
    }

    /** A marker's name: {@code [A-Za-z_][A-Za-z0-9_]*}. */
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
