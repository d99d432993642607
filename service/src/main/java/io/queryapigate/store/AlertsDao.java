package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/** What the alerts read from the event log: the newest calls, a bounded number of them. */
@RegisterConstructorMapper(AlertsDao.RecentCall.class)
public interface AlertsDao {
    /**
     * One call of the event log, with its saved query's name and workspace (null for ad-hoc SQL or a query deleted
     * since).
     */
    record RecentCall(Long queryId, String queryName, String workspace, long keyId, int status, String errorCode,
            long durationUs, long atMs) {}

    /**
     * The newest {@code limit} calls written (by id: the primary key's index) made since {@code since}, newest first by
     * time (instances write their batches in turn, so ids interleave).
     */
    @SqlQuery("SELECT e.query_id, q.name AS query_name, q.workspace, e.key_id, e.status, e.error_code,"
            + " e.duration_us, e.at_ms FROM (SELECT id, query_id, key_id, status, error_code, duration_us, at_ms"
            + " FROM events ORDER BY id DESC LIMIT :limit) e LEFT JOIN saved_queries q ON q.id = e.query_id"
            + " WHERE e.at_ms >= :since ORDER BY e.at_ms DESC, e.id DESC")
    List<RecentCall> recent(@Bind("since") long since, @Bind("limit") int limit);
}
