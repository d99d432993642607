package io.queryapigate.store;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jdbi.v3.sqlobject.config.KeyColumn;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.config.ValueColumn;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Reading the run history and the event log, and deleting from them; {@link EventBatchWriter} writes both. Pages
 * are newest first: {@code before} is the cursor (an id), Long.MAX_VALUE for the first page.
 */
@RegisterConstructorMapper(RunRow.class)
public interface HistoryDao {
    /** What a page is filtered by; null fields do not filter. */
    record Filter(Long queryId, Integer version, String outcome, Integer status, Long keyId, String kind, long since,
            long until, long before, int limit) {}

    String OUTCOME = " AND (:outcome IS NULL OR (:outcome = 'success' AND status BETWEEN 200 AND 299)"
            + " OR (:outcome = 'error' AND (status < 200 OR status > 299)))";
    String COMMON = " AND (:version IS NULL OR version = :version)" + OUTCOME
            + " AND (:status IS NULL OR status = :status)"
            + " AND (:keyId IS NULL OR key_id = :keyId)"
            + " AND at_ms >= :since AND at_ms < :until AND id < :before";
    /** An event's workspace: its saved query's, else its connection's, else (a YAML connection) the default one. */
    String IN_WORKSPACE = " AND COALESCE((SELECT q.workspace FROM saved_queries q WHERE q.id = e.query_id),"
            + " (SELECT c.workspace FROM connections c WHERE c.name = e.connection), 'default') = :workspace";

    @SqlUpdate("DELETE FROM run_history WHERE query_id = :queryId")
    int deleteForQuery(@Bind("queryId") long queryId);

    @SqlUpdate("DELETE FROM run_history WHERE query_id = :queryId AND version = :version")
    int deleteForVersion(@Bind("queryId") long queryId, @Bind("version") int version);

    /** One saved query's runs. */
    @SqlQuery("SELECT id, query_id, version, at_ms, request_id, key_id, connection, status, rows_out, duration_us,"
            + " error_code, CAST(NULL AS BIGINT) AS sql_hash, CAST(NULL AS VARCHAR(100)) AS role, trace_id,"
            + " transport FROM run_history WHERE query_id = :queryId" + COMMON
            + " ORDER BY id DESC LIMIT :limit")
    List<RunRow> runs(@BindMethods Filter filter);

    /**
     * Every call of one workspace in the event log, saved-query runs and ad-hoc SQL: a call is its saved query's
     * workspace's, else (ad-hoc SQL, a query deleted since) its connection's; a connection not stored (the YAML's,
     * one deleted for good) is the default workspace's.
     */
    @SqlQuery("SELECT id, query_id, version, at_ms, request_id, key_id, connection, status, rows_out, duration_us,"
            + " error_code, sql_hash, role, trace_id, transport FROM events e"
            + " WHERE (:queryId IS NULL OR query_id = :queryId)" + COMMON
            + " AND (:kind IS NULL OR (:kind = 'saved' AND sql_hash IS NULL)"
            + " OR (:kind = 'adhoc' AND sql_hash IS NOT NULL))"
            + IN_WORKSPACE + " ORDER BY id DESC LIMIT :limit")
    List<RunRow> events(@BindMethods Filter filter, @Bind("workspace") String workspace);

    /**
     * The calls through the MCP server of one workspace (as {@link #events}) in {@code [since, until)}, newest first,
     * at most {@code limit}, handed to {@code each} one by one (a summary reads up to 100,001 of them).
     */
    @SqlQuery("SELECT id, query_id, version, at_ms, request_id, key_id, connection, status, rows_out, duration_us,"
            + " error_code, sql_hash, role, trace_id, transport FROM events e WHERE transport = 'mcp'"
            + " AND at_ms >= :since AND at_ms < :until" + IN_WORKSPACE + " ORDER BY at_ms DESC, id DESC LIMIT :limit")
    void mcpCalls(@Bind("since") long since, @Bind("until") long until, @Bind("workspace") String workspace,
            @Bind("limit") int limit, Consumer<RunRow> each);

    /** When each saved query last ran, by query id. */
    @SqlQuery("SELECT query_id, MAX(at_ms) AS last FROM run_history GROUP BY query_id")
    @KeyColumn("query_id")
    @ValueColumn("last")
    Map<Long, Long> lastRuns();

    /** When one saved query last ran, or null. */
    @SqlQuery("SELECT MAX(at_ms) FROM run_history WHERE query_id = :queryId")
    Long lastRun(@Bind("queryId") long queryId);

    /** How many runs of each version of one query are kept, by version. */
    @SqlQuery("SELECT version, COUNT(*) AS n FROM run_history WHERE query_id = :queryId GROUP BY version")
    @KeyColumn("version")
    @ValueColumn("n")
    Map<Integer, Long> runCounts(@Bind("queryId") long queryId);

    @SqlUpdate("DELETE FROM run_history WHERE key_id = :keyId")
    int deleteRunsOfKey(@Bind("keyId") long keyId);

    @SqlUpdate("DELETE FROM events WHERE key_id = :keyId")
    int deleteEventsOfKey(@Bind("keyId") long keyId);

    @SqlQuery("SELECT COUNT(*) FROM run_history WHERE key_id = :keyId")
    long countRunsOfKey(@Bind("keyId") long keyId);

    @SqlQuery("SELECT COUNT(*) FROM events WHERE key_id = :keyId")
    long countEventsOfKey(@Bind("keyId") long keyId);

    /** Every kept run of a query, oldest first (imports compare against them). */
    @SqlQuery("SELECT id, query_id, version, at_ms, request_id, key_id, connection, status, rows_out, duration_us,"
            + " error_code, CAST(NULL AS BIGINT) AS sql_hash, CAST(NULL AS VARCHAR(100)) AS role, trace_id,"
            + " transport FROM run_history WHERE query_id = :queryId ORDER BY id")
    List<RunRow> runsOf(@Bind("queryId") long queryId);

    /** One run written as it is (imports; calls are written by {@link EventBatchWriter}); its id is ignored. */
    @SqlUpdate("INSERT INTO run_history (query_id, version, at_ms, request_id, key_id, connection, status, rows_out,"
            + " duration_us, error_code) VALUES (:queryId, :version, :atMs, :requestId, :keyId, :connection, :status,"
            + " :rowsOut, :durationUs, :errorCode)")
    void insertRun(@BindMethods RunRow run);

    @SqlUpdate("DELETE FROM events WHERE at_ms < :before")
    int deleteEventsBefore(@Bind("before") long before);

    @SqlQuery("SELECT COUNT(*) FROM events")
    long countEvents();
}
