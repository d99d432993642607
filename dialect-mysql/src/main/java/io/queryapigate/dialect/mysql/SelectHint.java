package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Places MySQL's {@code MAX_EXECUTION_TIME(ms)} optimizer hint on a statement, lexically.
 *
 * <p>MySQL reads optimizer hints only from a {@code /*+ ... *}{@code /} comment directly after a query block's
 * keyword, and applies {@code MAX_EXECUTION_TIME} to the whole statement only when it follows the statement's
 * first {@code SELECT} (which, for a statement that begins with {@code SELECT}, covers its unions and subqueries).
 * So the hint is placed only when the statement's first token, after whitespace and ordinary comments, is the
 * keyword {@code SELECT}:
 *
 * <ul>
 *   <li>{@code SELECT a FROM t} becomes {@code SELECT /*+ MAX_EXECUTION_TIME(300) *}{@code / a FROM t};
 *   <li>a hint comment already there is kept, with ours first: {@code SELECT /*+ BKA(t) *}{@code / ...} becomes
 *       {@code SELECT /*+ MAX_EXECUTION_TIME(300) BKA(t) *}{@code / ...} (MySQL allows one hint comment per
 *       query block; of two conflicting hints the first wins).
 * </ul>
 *
 * <p>Everything else is left alone and reported as not placeable, so that the caller falls back to a per-call
 * {@code SET SESSION max_execution_time}: statements starting with {@code WITH} (the first {@code SELECT} would be
 * the CTE's, where the hint is ignored), with a parenthesis, {@code TABLE}, {@code VALUES}, {@code SHOW}, {@code
 * EXPLAIN}; statements preceded by an executable comment ({@code /*!...*}{@code /}, {@code /*M!...*}{@code /});
 * an unterminated comment. Nothing past the keyword (strings, identifiers) needs to be read.
 */
public final class SelectHint {
    private SelectHint() {}

    /**
     * Places the hint, or says it cannot be placed.
     *
     * @param sql the statement
     * @param millis the limit in milliseconds; at least 1
     * @return the rewritten statement, or empty when the first token is not {@code SELECT}
     */
    public static Optional<String> placeMaxExecutionTime(String sql, long millis) {
        requireNonNull(sql, "sql is null");
        if (millis < 1) {
            throw new IllegalArgumentException("millis must be at least 1");
        }
        String hint = "MAX_EXECUTION_TIME(" + millis + ")";
        int start = skipSpaceAndComments(sql, 0);
        if (start < 0 || !sql.regionMatches(true, start, "SELECT", 0, 6)) {
            return Optional.empty();
        }
        int end = start + 6;
        if (end < sql.length() && isIdentifierPart(sql.charAt(end))) {
            return Optional.empty(); // SELECTED, SELECT_x: an identifier, not the keyword
        }
        int next = end;
        while (next < sql.length() && Character.isWhitespace(sql.charAt(next))) {
            next++;
        }
        if (sql.startsWith("/*+", next)) {
            int inside = next + 3;
            return Optional.of(sql.substring(0, inside) + " " + hint + " " + sql.substring(inside).stripLeading());
        }
        return Optional.of(sql.substring(0, end) + " /*+ " + hint + " */" + sql.substring(end));
    }

    /**
     * The index of the first character that is neither whitespace nor inside an ordinary comment.
     *
     * @return the index (possibly {@code sql.length()}), or -1 for an executable or unterminated comment
     */
    static int skipSpaceAndComments(String sql, int from) {
        int i = from;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                i = endOfLine(sql, i);
            } else if (c == '-' && sql.startsWith("--", i) && (i + 2 == n || isDashCommentSpace(sql.charAt(i + 2)))) {
                i = endOfLine(sql, i);
            } else if (sql.startsWith("/*", i)) {
                if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                    return -1; // executable comment: its content is SQL
                }
                int close = sql.indexOf("*/", i + 2);
                if (close < 0) {
                    return -1;
                }
                i = close + 2;
            } else {
                return i;
            }
        }
        return i;
    }

    private static boolean isDashCommentSpace(char c) {
        // MySQL: "-- " needs a space or control character after the second dash
        return c == ' ' || Character.isISOControl(c) || Character.isWhitespace(c);
    }

    private static int endOfLine(String sql, int i) {
        int nl = sql.indexOf('\n', i);
        return nl < 0 ? sql.length() : nl + 1;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 0x7f;
    }
}
