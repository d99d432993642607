package io.queryapigate.dialect.spi;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One statement to run, with everything that limits it.
 *
 * <p>{@code sql} is a single statement whose parameters appear as JDBC {@code ?} markers, one per element of
 * {@code parameters}, in order. The service has already checked it (one statement; a read when {@code mode} is
 * {@link AccessMode#READ}); dialects must still not assume the check is perfect, which is why
 * {@link Capability#SERVER_ENFORCED_READ_ONLY} exists.
 *
 * @param sql the statement with {@code ?} markers
 * @param parameters the bound values, in marker order
 * @param mode read or write
 * @param timeout the time limit for the whole call; positive
 * @param maxRows the most rows to deliver to the sink; positive
 * @param streaming true for exports: the dialect uses its streaming path (server-side cursor, fetch size) and
 *     keeps memory constant whatever the row count
 * @param requestId the service's request id, for logs and for engines that can tag a query
 * @param schema the schema the statement's unqualified table names were checked against (a table allow-list
 *     applies), or null; dialects that can pin name resolution for one call (PostgreSQL's {@code search_path}) do,
 *     so that an unqualified name cannot resolve anywhere else
 * @param maxAffectedRows for a {@link AccessMode#WRITE} only: when positive, the most rows the statement may change;
 *     a dialect with {@link Capability#AFFECTED_ROWS_CEILING} runs it in a transaction that it commits only when the
 *     statement changed at most this many rows, and otherwise rolls back and throws {@link AffectedRowsExceeded}
 *     (rows a {@code RETURNING} clause already gave the sink are then void). {@code 0}: no ceiling, the write is
 *     committed as it always was. A dialect without the capability must not be given a positive one
 */
public record QueryRequest(
        String sql,
        List<Parameter> parameters,
        AccessMode mode,
        Duration timeout,
        long maxRows,
        boolean streaming,
        String requestId,
        String schema,
        long maxAffectedRows) {

    /** Validates the fields. */
    public QueryRequest {
        Objects.requireNonNull(sql, "sql is null");
        parameters = List.copyOf(Objects.requireNonNull(parameters, "parameters is null"));
        Objects.requireNonNull(mode, "mode is null");
        Objects.requireNonNull(timeout, "timeout is null");
        Objects.requireNonNull(requestId, "requestId is null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1");
        }
        if (maxAffectedRows < 0) {
            throw new IllegalArgumentException("maxAffectedRows must not be negative");
        }
        if (maxAffectedRows > 0 && (mode != AccessMode.WRITE || streaming)) {
            throw new IllegalArgumentException("maxAffectedRows is for an unstreamed write");
        }
    }

    /**
     * A request without a ceiling of affected rows.
     *
     * @param sql the statement with {@code ?} markers
     * @param parameters the bound values, in marker order
     * @param mode read or write
     * @param timeout the time limit
     * @param maxRows the row limit
     * @param streaming whether to use the streaming path
     * @param requestId the request id
     * @param schema the schema to pin, or null
     */
    public QueryRequest(String sql, List<Parameter> parameters, AccessMode mode, Duration timeout, long maxRows,
            boolean streaming, String requestId, String schema) {
        this(sql, parameters, mode, timeout, maxRows, streaming, requestId, schema, 0);
    }

    /**
     * A request without a schema to pin.
     *
     * @param sql the statement with {@code ?} markers
     * @param parameters the bound values, in marker order
     * @param mode read or write
     * @param timeout the time limit
     * @param maxRows the row limit
     * @param streaming whether to use the streaming path
     * @param requestId the request id
     */
    public QueryRequest(String sql, List<Parameter> parameters, AccessMode mode, Duration timeout, long maxRows,
            boolean streaming, String requestId) {
        this(sql, parameters, mode, timeout, maxRows, streaming, requestId, null);
    }

    /**
     * A read of {@code sql} with the given parameters, not streamed.
     *
     * @param sql the statement with {@code ?} markers
     * @param parameters the bound values
     * @param timeout the time limit
     * @param maxRows the row limit
     * @return the request, with an empty request id
     */
    public static QueryRequest read(String sql, List<Parameter> parameters, Duration timeout, long maxRows) {
        return new QueryRequest(sql, parameters, AccessMode.READ, timeout, maxRows, false, "");
    }

    /**
     * A copy with another access mode.
     *
     * @param newMode the mode
     * @return the copy
     */
    public QueryRequest withMode(AccessMode newMode) {
        return new QueryRequest(sql, parameters, newMode, timeout, maxRows, streaming, requestId, schema,
                newMode == AccessMode.WRITE ? maxAffectedRows : 0);
    }

    /**
     * A copy with another time limit.
     *
     * @param newTimeout the time limit
     * @return the copy
     */
    public QueryRequest withTimeout(Duration newTimeout) {
        return new QueryRequest(sql, parameters, mode, newTimeout, maxRows, streaming, requestId, schema,
                maxAffectedRows);
    }
}
