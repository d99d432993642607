package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * The audit log's rows (schema 13). Appending is the audit package's: it locks the chain's head row, links the entry
 * and moves the head in the transaction of the change it records. Readers (the API, verification, SIEM delivery)
 * read by {@code seq}.
 */
@RegisterConstructorMapper(AuditRow.class)
@RegisterConstructorMapper(AuditLink.class)
public interface AuditDao {
    String HEAD = "head";
    String ANCHOR = "anchor";

    String COLUMNS = "seq, at_ms, actor_kind, actor, address, action, target, workspace, request_id, entry_json,"
            + " prev_hash, hash";

    @SqlUpdate("INSERT INTO audit_log (" + COLUMNS + ") VALUES (:seq, :atMs, :actorKind, :actor, :address, :action,"
            + " :target, :workspace, :requestId, :entryJson, :prevHash, :hash)")
    void insert(@BindMethods AuditRow row);

    /** Entries after {@code seq}, oldest first: what a SIEM output has not delivered yet, or a verification page. */
    @SqlQuery("SELECT " + COLUMNS + " FROM audit_log WHERE seq > :seq ORDER BY seq LIMIT :limit")
    List<AuditRow> after(@Bind("seq") long seq, @Bind("limit") int limit);

    /** The newest entry's seq, 0 when there is none. */
    @SqlQuery("SELECT COALESCE(MAX(seq), 0) FROM audit_log")
    long lastSeq();

    /** The entry at {@code seq}. */
    @SqlQuery("SELECT " + COLUMNS + " FROM audit_log WHERE seq = :seq")
    Optional<AuditRow> at(@Bind("seq") long seq);

    /** The chain's {@value #HEAD} or {@value #ANCHOR} row. */
    @SqlQuery("SELECT seq, hash FROM audit_chain WHERE name = :name")
    Optional<AuditLink> link(@Bind("name") String name);

    /** The head, locked until the transaction ends (PostgreSQL: writers append one at a time). */
    @SqlQuery("SELECT seq, hash FROM audit_chain WHERE name = 'head' FOR UPDATE")
    AuditLink lockHead();

    /** A write to the head row, so a SQLite transaction holds the store's write lock from here on. */
    @SqlUpdate("UPDATE audit_chain SET seq = seq WHERE name = 'head'")
    int touchHead();

    @SqlUpdate("UPDATE audit_chain SET seq = :seq, hash = :hash WHERE name = :name")
    int moveLink(@Bind("name") String name, @Bind("seq") long seq, @Bind("hash") String hash);

    /** Removes the entries up to and including {@code seq} (retention, once the anchor holds that entry). */
    @SqlUpdate("DELETE FROM audit_log WHERE seq <= :seq")
    int deleteThrough(@Bind("seq") long seq);

    /** How far every SIEM output has delivered (null without outputs): retention keeps what is not delivered yet. */
    @SqlQuery("SELECT MIN(last_seq) FROM audit_delivery")
    Long deliveryFloor();

    /** Stored entries. */
    @SqlQuery("SELECT COUNT(*) FROM audit_log")
    long count();
}
