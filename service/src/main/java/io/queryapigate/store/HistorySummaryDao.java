package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * The event log's calls of one workspace in {@code [since, until)} added up in the store ({@code GET
 * /api/v1/history/summary}): counts by outcome, status class and a few codes, the duration at a rank (percentiles),
 * and the busiest saved queries. A call's workspace is decided as {@link HistoryDao#events} decides it.
 */
public interface HistorySummaryDao {
    String WINDOW = " FROM events e WHERE at_ms >= :since AND at_ms < :until" + HistoryDao.IN_WORKSPACE;
    String ERROR = "(status < 200 OR status > 299)";

    /** The window's counts; every sum is 0 (never null) for an empty window. */
    record Totals(long calls, long errors, long cacheHits, long adhoc, long status2xx, long status3xx,
            long status4xx, long status5xx, long overloaded, long databaseUnavailable, long rowsOut) {}

    /** One saved query's calls in the window. */
    record QueryCalls(long queryId, long calls, long errors, long durationUs) {}

    @SqlQuery("SELECT COUNT(*) AS calls,"
            + " COALESCE(SUM(CASE WHEN " + ERROR + " THEN 1 ELSE 0 END), 0) AS errors,"
            + " COALESCE(SUM(CASE WHEN cache_hit = 1 THEN 1 ELSE 0 END), 0) AS cache_hits,"
            + " COALESCE(SUM(CASE WHEN sql_hash IS NOT NULL THEN 1 ELSE 0 END), 0) AS adhoc,"
            + " COALESCE(SUM(CASE WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END), 0) AS status2xx,"
            + " COALESCE(SUM(CASE WHEN status BETWEEN 300 AND 399 THEN 1 ELSE 0 END), 0) AS status3xx,"
            + " COALESCE(SUM(CASE WHEN status BETWEEN 400 AND 499 THEN 1 ELSE 0 END), 0) AS status4xx,"
            + " COALESCE(SUM(CASE WHEN status >= 500 THEN 1 ELSE 0 END), 0) AS status5xx,"
            + " COALESCE(SUM(CASE WHEN error_code = 'overloaded' THEN 1 ELSE 0 END), 0) AS overloaded,"
            + " COALESCE(SUM(CASE WHEN error_code IN ('database_unavailable', 'stream_database_unavailable')"
            + " THEN 1 ELSE 0 END), 0) AS database_unavailable,"
            + " COALESCE(SUM(CASE WHEN status BETWEEN 200 AND 299 THEN rows_out ELSE 0 END), 0) AS rows_out" + WINDOW)
    @RegisterConstructorMapper(Totals.class)
    Totals totals(@Bind("since") long since, @Bind("until") long until, @Bind("workspace") String workspace);

    /** The duration of the call at {@code rank} (0 the fastest) in the window, or null past the last. */
    @SqlQuery("SELECT duration_us" + WINDOW + " ORDER BY duration_us LIMIT 1 OFFSET :rank")
    Long durationAt(@Bind("since") long since, @Bind("until") long until, @Bind("workspace") String workspace,
            @Bind("rank") long rank);

    /** The saved queries called most in the window, most first, at most {@code limit}; mean duration each. */
    @SqlQuery("SELECT query_id, COUNT(*) AS calls,"
            + " COALESCE(SUM(CASE WHEN " + ERROR + " THEN 1 ELSE 0 END), 0) AS errors,"
            + " CAST(AVG(duration_us) AS BIGINT) AS duration_us" + WINDOW + " AND query_id IS NOT NULL"
            + " GROUP BY query_id ORDER BY COUNT(*) DESC, query_id LIMIT :limit")
    @RegisterConstructorMapper(QueryCalls.class)
    List<QueryCalls> busiest(@Bind("since") long since, @Bind("until") long until,
            @Bind("workspace") String workspace, @Bind("limit") int limit);
}
