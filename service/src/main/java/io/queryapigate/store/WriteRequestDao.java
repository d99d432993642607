package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Agents' write requests (schema 20). Every lookup names the workspace. A status moves only by a conditional update
 * ({@code WHERE status = :from}), so two instances deciding or running the same request at once cannot both succeed.
 */
@RegisterConstructorMapper(WriteRequestRow.class)
public interface WriteRequestDao {
    String COLUMNS = "id, workspace, caller_key_id, caller, query_id, query_name, version, connection_name, mode,"
            + " sql_text, arguments, arguments_hash, max_affected_rows, status, created_at, expires_at, decided_at,"
            + " decided_by, decided_via, reason, finished_at, result, idempotency_hash";

    @SqlUpdate("INSERT INTO write_requests (" + COLUMNS + ") VALUES (:id, :workspace, :callerKeyId, :caller, :queryId,"
            + " :queryName, :version, :connectionName, :mode, :sqlText, :arguments, :argumentsHash, :maxAffectedRows,"
            + " :status, :createdAt, :expiresAt, :decidedAt, :decidedBy, :decidedVia, :reason, :finishedAt, :result,"
            + " :idempotencyHash)")
    void insert(@BindMethods WriteRequestRow row);

    @SqlQuery("SELECT " + COLUMNS + " FROM write_requests WHERE workspace = :workspace AND id = :id")
    Optional<WriteRequestRow> find(@Bind("workspace") String workspace, @Bind("id") String id);

    /** Newest first, at most {@code limit}. */
    @SqlQuery("SELECT " + COLUMNS + " FROM write_requests WHERE workspace = :workspace"
            + " ORDER BY created_at DESC, id DESC LIMIT :limit")
    List<WriteRequestRow> list(@Bind("workspace") String workspace, @Bind("limit") int limit);

    /** Who asked for each request made in {@code [from, to)}, its status and when it expires. */
    @SqlQuery("SELECT caller_key_id, status, expires_at FROM write_requests WHERE workspace = :workspace"
            + " AND created_at >= :from AND created_at < :to")
    @RegisterConstructorMapper(Outcome.class)
    List<Outcome> outcomes(@Bind("workspace") String workspace, @Bind("from") long from, @Bind("to") long to);

    /** A request's caller, status and expiry, for the agents' usage. */
    record Outcome(long callerKeyId, String status, long expiresAt) {
        /** The outcome as counted: running counts as pending, a pending or approved one past its time as expired. */
        public String shown(long now) {
            boolean open = status.equals("pending") || status.equals("approved");
            return open && expiresAt < now ? "expired" : status.equals("running") ? "pending" : status;
        }
    }

    /** The requests of a caller still waiting for a decision. */
    @SqlQuery("SELECT COUNT(*) FROM write_requests WHERE workspace = :workspace AND caller_key_id = :callerKeyId"
            + " AND status = 'pending' AND expires_at >= :now")
    int pending(@Bind("workspace") String workspace, @Bind("callerKeyId") long callerKeyId, @Bind("now") long now);

    /** The request an insert's idempotency key made, if any. */
    @SqlQuery("SELECT " + COLUMNS + " FROM write_requests WHERE workspace = :workspace"
            + " AND idempotency_hash = :hash")
    Optional<WriteRequestRow> byIdempotency(@Bind("workspace") String workspace, @Bind("hash") String hash);

    /** A pending request decided; 0 when it was no longer pending (or had expired). */
    @SqlUpdate("UPDATE write_requests SET status = :status, expires_at = :expiresAt, decided_at = :at,"
            + " decided_by = :by, decided_via = :via, reason = :reason WHERE workspace = :workspace AND id = :id"
            + " AND status = 'pending' AND expires_at >= :at")
    int decide(@Bind("workspace") String workspace, @Bind("id") String id, @Bind("status") String status,
            @Bind("expiresAt") long expiresAt, @Bind("at") long at, @Bind("by") String by, @Bind("via") String via,
            @Bind("reason") String reason);

    /** An approved request claimed to run now; 0 when another call claimed it first (or it had expired). */
    @SqlUpdate("UPDATE write_requests SET status = 'running' WHERE workspace = :workspace AND id = :id"
            + " AND status = 'approved' AND expires_at >= :now")
    int claim(@Bind("workspace") String workspace, @Bind("id") String id, @Bind("now") long now);

    /** A running request finished: done or failed, with its result (JSON). */
    @SqlUpdate("UPDATE write_requests SET status = :status, finished_at = :at, result = :result"
            + " WHERE workspace = :workspace AND id = :id AND status = 'running'")
    int finish(@Bind("workspace") String workspace, @Bind("id") String id, @Bind("status") String status,
            @Bind("at") long at, @Bind("result") String result);

    /** Forgets requests made before {@code before}. */
    @SqlUpdate("DELETE FROM write_requests WHERE created_at < :before")
    int forget(@Bind("before") long before);

    /** Lets idempotency keys used before {@code before} be used again. */
    @SqlUpdate("UPDATE write_requests SET idempotency_hash = NULL WHERE idempotency_hash IS NOT NULL"
            + " AND created_at < :before")
    int releaseIdempotencyKeys(@Bind("before") long before);
}
