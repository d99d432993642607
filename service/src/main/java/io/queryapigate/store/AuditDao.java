package io.queryapigate.store;

import java.util.List;
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
public interface AuditDao {
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
}
