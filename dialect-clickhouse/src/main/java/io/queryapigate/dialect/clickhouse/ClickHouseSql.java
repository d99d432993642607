package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A lexical scan of one statement with ClickHouse's own rules, enough to place parameter literals safely and to see
 * what kind of statement it is. Not a parser.
 *
 * <p>The rules follow ClickHouse's lexer ({@code src/Parsers/Lexer.cpp}, the same in 18.16 and current releases
 * where it matters here):
 *
 * <ul>
 *   <li>{@code '...'} strings, {@code "..."} and {@code `...`} quoted identifiers: a backslash escapes the next
 *       character (whatever it is), and a doubled quote character stands for itself.
 *   <li>{@code --} and {@code //} comments run to the end of the line; so does {@code #}, which newer servers treat
 *       as a comment and 18.16 refuses (so treating it as one is safe on both).
 *   <li>{@code /* ... *}{@code /} comments end at the first {@code *}{@code /} on 18.16, but nest on newer servers;
 *       a statement with parameters and a {@code /*} inside a block comment is refused, because the two readings
 *       differ.
 *   <li>{@code $} outside quotes is refused in a statement with parameters: newer servers read {@code $$...$$} and
 *       {@code $tag$...$tag$} as strings (heredocs), 18.16 rejects them.
 *   <li>Every {@code ?} outside strings, quoted identifiers and comments is a parameter marker. (ClickHouse's
 *       ternary {@code c ? a : b} therefore cannot be used in a saved query; write {@code if(c, a, b)}.)
 * </ul>
 *
 * <p>An unterminated string, quoted identifier or block comment is refused: the server would refuse the statement
 * too, and the scan cannot say where a marker is.
 *
 * @param sql the statement as given
 * @param markers the offsets of the parameter markers, in order
 * @param end the offset just after the statement's last significant token, so that trailing semicolons,
 *     whitespace and comments can be cut off (the server refuses a semicolon before an appended {@code FORMAT})
 * @param firstKeyword the first word of the statement in upper case, after leading comments and parentheses, or
 *     empty when the statement starts with something else
 * @param withTotals whether the statement contains the words {@code WITH TOTALS} outside quotes and comments
 * @param problem why the statement cannot carry parameters, or null
 */
public record ClickHouseSql(
        String sql, List<Integer> markers, int end, String firstKeyword, boolean withTotals, String problem) {

    /** Statements whose first keyword means the server answers with rows. */
    public static final Set<String> ROW_RETURNING =
            Set.of("SELECT", "WITH", "SHOW", "DESC", "DESCRIBE", "EXISTS", "EXPLAIN", "CHECK", "KILL", "WATCH");

    /** Validates the fields. */
    public ClickHouseSql {
        requireNonNull(sql, "sql is null");
        markers = List.copyOf(markers);
        requireNonNull(firstKeyword, "firstKeyword is null");
    }

    /**
     * Scans {@code sql}.
     *
     * @param sql the statement
     * @return the scan; its {@link #problem()} says why parameters cannot be placed, if they cannot
     * @throws IllegalArgumentException when a string, quoted identifier or block comment is not terminated
     */
    public static ClickHouseSql scan(String sql) {
        requireNonNull(sql, "sql is null");
        List<Integer> markers = new ArrayList<>();
        String problem = null;
        String firstKeyword = null;
        String previousWord = null;
        boolean clauseWith = false; // the previous word is a WITH that opens a WITH clause, not GROUP BY ... WITH
        boolean atClauseStart = true; // at the start of the statement or right after '('
        boolean withTotals = false;
        int end = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c);
                firstKeyword = firstKeyword == null ? "" : firstKeyword;
                previousWord = null;
                atClauseStart = false;
                end = i;
                continue;
            }
            if ((c == '-' && next(sql, i) == '-') || (c == '/' && next(sql, i) == '/') || c == '#') {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? n : nl;
                continue;
            }
            if (c == '/' && next(sql, i) == '*') {
                int close = sql.indexOf("*/", i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("block comment starting at offset " + i + " is not closed");
                }
                if (sql.substring(i + 2, close).contains("/*") && problem == null) {
                    problem = "a block comment at offset " + i + " contains '/*': ClickHouse 18.16 ends it at the first"
                            + " '*/' while newer servers nest comments, so parameters cannot be placed safely";
                }
                i = close + 2;
                continue;
            }
            if (c == '?') {
                markers.add(i);
                i++;
                firstKeyword = firstKeyword == null ? "" : firstKeyword;
                previousWord = null;
                atClauseStart = false;
                end = i;
                continue;
            }
            if (c == '$') {
                if (problem == null) {
                    problem = "'$' at offset " + i + " outside quotes: newer ClickHouse servers read $$...$$ as a"
                            + " string, 18.16 does not, so parameters cannot be placed safely";
                }
                i++;
                end = i;
                continue;
            }
            if (c == ';') {
                i++;
                continue; // not significant for `end`: trailing semicolons are cut off
            }
            if (isWordStart(c)) {
                while (i < n && isWordPart(sql.charAt(i))) {
                    i++;
                }
                String word = sql.substring(start, i).toUpperCase(Locale.ROOT);
                if (firstKeyword == null) {
                    firstKeyword = word;
                }
                if ("TOTALS".equals(word) && "WITH".equals(previousWord) && !clauseWith) {
                    withTotals = true;
                }
                clauseWith = "WITH".equals(word) && atClauseStart;
                atClauseStart = false;
                previousWord = word;
                end = i;
                continue;
            }
            if (Character.isDigit(c)) {
                while (i < n && (isWordPart(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                firstKeyword = firstKeyword == null ? "" : firstKeyword;
                previousWord = null;
                atClauseStart = false;
                end = i;
                continue;
            }
            // punctuation and operators, one character at a time; leading parentheses do not decide the kind
            if (c != '(' && firstKeyword == null) {
                firstKeyword = "";
            }
            atClauseStart = c == '(';
            previousWord = null;
            i++;
            end = i;
        }
        return new ClickHouseSql(sql, markers, end, firstKeyword == null ? "" : firstKeyword, withTotals, problem);
    }

    /**
     * Whether the server answers this statement with rows (and so it gets a {@code FORMAT} clause).
     *
     * @return true for {@code SELECT}, {@code WITH}, {@code SHOW}, {@code DESCRIBE}, ...
     */
    public boolean returnsRows() {
        return ROW_RETURNING.contains(firstKeyword);
    }

    /**
     * The statement up to its last significant token: trailing semicolons, whitespace and comments cut off.
     *
     * @return the trimmed statement
     */
    public String trimmed() {
        return sql.substring(0, end);
    }

    private static int skipQuoted(String sql, int open, char quote) {
        int n = sql.length();
        int i = open + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\') {
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
        String what = quote == '\'' ? "string literal" : "quoted identifier";
        throw new IllegalArgumentException(what + " starting at offset " + open + " is not closed");
    }

    private static char next(String sql, int i) {
        return i + 1 < sql.length() ? sql.charAt(i + 1) : '\0';
    }

    private static boolean isWordStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c > 0x7F && Character.isLetter(c);
    }

    private static boolean isWordPart(char c) {
        return isWordStart(c) || (c >= '0' && c <= '9');
    }
}
