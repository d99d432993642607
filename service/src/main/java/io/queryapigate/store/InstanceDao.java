package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The heartbeat rows of the gateway processes using this store (schema 15). */
@RegisterConstructorMapper(InstanceRow.class)
public interface InstanceDao {
    /** Refreshes a row's {@code last_seen}; 0 when the row is gone (then it is inserted again). */
    @SqlUpdate("UPDATE instances SET last_seen = :lastSeen WHERE id = :id")
    int beat(@Bind("id") String id, @Bind("lastSeen") long lastSeen);

    @SqlUpdate("INSERT INTO instances (id, host, pid, version, store_kind, shared_limits, started_at, last_seen)"
            + " VALUES (:id, :host, :pid, :version, :storeKind, :sharedLimits, :startedAt, :lastSeen)")
    void insert(@BindMethods InstanceRow row);

    @SqlUpdate("DELETE FROM instances WHERE id = :id")
    int remove(@Bind("id") String id);

    /** Removes the rows not refreshed since {@code before}. */
    @SqlUpdate("DELETE FROM instances WHERE last_seen < :before")
    int forget(@Bind("before") long before);

    /** The rows refreshed since {@code since}, newest start first (at most {@code limit}). */
    @SqlQuery("SELECT id, host, pid, version, store_kind, shared_limits, started_at, last_seen FROM instances"
            + " WHERE last_seen >= :since ORDER BY started_at DESC, id LIMIT :limit")
    List<InstanceRow> seenSince(@Bind("since") long since, @Bind("limit") int limit);
}
