package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Reading the run history and maintaining the event log; {@link EventBatchWriter} writes both. */
@RegisterConstructorMapper(RunRow.class)
public interface HistoryDao {
    String RUN_COLUMNS = "id, query_id, version, at_ms, request_id, key_id, status, rows_out, duration_us, error_code";

    @SqlUpdate("DELETE FROM run_history WHERE query_id = :queryId")
    int deleteForQuery(@Bind("queryId") long queryId);

    /** Newest first; {@code before} is the cursor (an id), Long.MAX_VALUE for the first page. */
    @SqlQuery("SELECT " + RUN_COLUMNS + " FROM run_history WHERE query_id = :queryId"
            + " AND (:version IS NULL OR version = :version)"
            + " AND (:status IS NULL OR status = :status)"
            + " AND (:keyId IS NULL OR key_id = :keyId)"
            + " AND at_ms >= :since AND at_ms < :until AND id < :before"
            + " ORDER BY id DESC LIMIT :limit")
    List<RunRow> page(@Bind("queryId") long queryId, @Bind("version") Integer version, @Bind("status") Integer status,
            @Bind("keyId") Long keyId, @Bind("since") long since, @Bind("until") long until,
            @Bind("before") long before, @Bind("limit") int limit);

    /** Every kept run of a query, oldest first (imports compare against them). */
    @SqlQuery("SELECT " + RUN_COLUMNS + " FROM run_history WHERE query_id = :queryId ORDER BY id")
    List<RunRow> runsOf(@Bind("queryId") long queryId);

    /** One run written as it is (imports; calls are written by {@link EventBatchWriter}); its id is ignored. */
    @SqlUpdate("INSERT INTO run_history (query_id, version, at_ms, request_id, key_id, status, rows_out, duration_us,"
            + " error_code) VALUES (:queryId, :version, :atMs, :requestId, :keyId, :status, :rowsOut, :durationUs,"
            + " :errorCode)")
    void insertRun(@BindMethods RunRow run);

    @SqlUpdate("DELETE FROM events WHERE at_ms < :before")
    int deleteEventsBefore(@Bind("before") long before);

    @SqlQuery("SELECT COUNT(*) FROM events")
    long countEvents();
}
