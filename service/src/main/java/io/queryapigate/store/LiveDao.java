package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * The event log as the live stream reads it: the events in an id range, oldest first, each with its workspace.
 * {@code upto} is a watermark below which every id is committed ({@link EventBatchWriter#LIVE_LOCK}).
 */
@RegisterConstructorMapper(LiveRow.class)
public interface LiveDao {
    String COLUMNS = "SELECT id, query_id, version, at_ms, request_id, key_id, connection, status, rows_out,"
            + " duration_us, error_code, sql_hash, role, trace_id, transport,"
            + " COALESCE((SELECT q.workspace FROM saved_queries q WHERE q.id = e.query_id),"
            + " (SELECT c.workspace FROM connections c WHERE c.name = e.connection), 'default') AS workspace"
            + " FROM events e WHERE id > :after AND id <= :upto";

    /** Every event in {@code (after, upto]}, at most {@code limit}. */
    @SqlQuery(COLUMNS + " ORDER BY id LIMIT :limit")
    List<LiveRow> between(@Bind("after") long after, @Bind("upto") long upto, @Bind("limit") int limit);

    /** One caller's events in {@code (after, upto]}, at most {@code limit} (a key resuming its stream). */
    @SqlQuery(COLUMNS + " AND key_id = :keyId ORDER BY id LIMIT :limit")
    List<LiveRow> ofKeyBetween(@Bind("keyId") long keyId, @Bind("after") long after, @Bind("upto") long upto,
            @Bind("limit") int limit);

    /** The highest event id (SQLite: ids are handed out and committed in one order, under the file's write lock). */
    @SqlQuery("SELECT COALESCE(MAX(id), 0) FROM events")
    long newest();
}
