package com.example.qag.derby;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the Derby dialect does around each statement, as data (see {@link DerbyDialect#execute}).
 *
 * <p>Nothing is sent before or after the statement: read-only mode, the transaction and the time limit are JDBC
 * calls on the session, and a session that ran a write is replaced by a new one. The statement is sent as written,
 * with one fallback: Derby cannot type a bare {@code ?} marker in some places ({@code SELECT ? ...}, {@code coalesce(?,
 * ?)}, both operands of an operator) and refuses to compile the statement; it is then prepared once more with each
 * marker written as {@code CAST(? AS <type>)}, the type the service declared for that parameter ({@link
 * #typeMarkers}). The markers stay markers: values are always bound, never written into the text.
 */
public final class DerbySessionStrategy implements SessionStrategy {

    /** Derby's SQLSTATEs for a {@code ?} marker whose type it cannot infer. */
    static final java.util.Set<String> UNTYPED_MARKER = java.util.Set.of("42X34", "42X35", "42X36", "42X87", "42610");

    static final String READ = "pooled Derby connection, read-only (Connection.setReadOnly: Derby refuses data"
            + " changes, DDL and system procedures that write), auto-commit off, rolled back after the call; only a"
            + " statement Derby compiles as a query runs (CALL and SET are refused before they run); the time limit"
            + " interrupts the statement, which closes the session, and a new one replaces it";
    static final String WRITE = "pooled Derby connection made writable for the call, one transaction committed when"
            + " the statement succeeds (and, with a ceiling, changed no more rows than allowed), else rolled back; the"
            + " session is then closed and a new one replaces it, so no state a write leaves (schema, isolation,"
            + " temporary tables, statistics settings) outlives the call; the time limit interrupts the statement";

    private static final String FALLBACK = "; a statement Derby cannot compile for an untyped ? marker is prepared"
            + " again with each marker cast to its parameter's declared type";

    @Override
    public SessionPlan plan(QueryRequest request) {
        return new SessionPlan(List.of(), request.sql(), List.of(), Map.of(), 0,
                (request.mode() == AccessMode.READ ? READ : WRITE) + FALLBACK);
    }

    /**
     * Replaces each {@code ?} marker outside string literals, quoted names and comments (nested, as Derby reads them) by a {@code CAST} to the
     * declared type of the parameter in the same position, except after {@code OFFSET} and {@code FETCH
     * FIRST|NEXT}, where Derby accepts only a bare marker.
     *
     * @param sql the statement
     * @param parameters its parameters, in marker order
     * @return the statement with typed markers
     */
    static String typeMarkers(String sql, List<Parameter> parameters) {
        StringBuilder out = new StringBuilder(sql.length() + 24 * parameters.size());
        int marker = 0;
        String previousWord = "";
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = closing(sql, i, c);
            } else if (sql.startsWith("--", i)) {
                end = sql.indexOf('\n', i);
                end = end < 0 ? sql.length() : end + 1;
            } else if (sql.startsWith("/*", i)) {
                end = commentEnd(sql, i);
            } else if (Character.isLetter(c)) {
                end = i + 1;
                while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
                previousWord = sql.substring(i, end).toUpperCase(Locale.ROOT);
            } else if (c == '?') {
                boolean bare = previousWord.equals("OFFSET") || previousWord.equals("FIRST")
                        || previousWord.equals("NEXT") || marker >= parameters.size();
                out.append(bare ? "?" : "CAST(? AS " + derbyType(parameters.get(marker)) + ")");
                marker++;
                previousWord = "?";
                i++;
                continue;
            } else {
                end = i + 1;
                if (!Character.isWhitespace(c)) {
                    previousWord = String.valueOf(c);
                }
            }
            out.append(sql, i, end);
            i = end;
        }
        return out.toString();
    }

    /** The end of the comment starting at {@code start}: Derby's bracketed comments nest. */
    private static int commentEnd(String sql, int start) {
        int depth = 0;
        int i = start;
        while (i < sql.length()) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                i += 2;
                if (--depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /** The end of a quoted literal or name starting at {@code start}; a doubled quote is part of it. */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** The Derby type a parameter's declared JDBC type is cast to. */
    static String derbyType(Parameter parameter) {
        return switch (parameter.type()) {
            case TINYINT, SMALLINT, INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DECIMAL, NUMERIC -> "DECIMAL(31, " + scale(parameter.value()) + ")";
            case REAL, FLOAT, DOUBLE -> "DOUBLE";
            case BOOLEAN, BIT -> "BOOLEAN";
            case DATE -> "DATE";
            case TIME, TIME_WITH_TIMEZONE -> "TIME";
            case TIMESTAMP, TIMESTAMP_WITH_TIMEZONE -> "TIMESTAMP";
            case BINARY, VARBINARY, LONGVARBINARY, BLOB -> "VARCHAR(32672) FOR BIT DATA";
            default -> "VARCHAR(32672)";
        };
    }

    private static int scale(Object value) {
        return value instanceof BigDecimal decimal ? Math.min(31, Math.max(0, decimal.scale())) : 0;
    }
}
