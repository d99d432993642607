package io.queryapigate.testing;

import io.queryapigate.audit.AuditChain;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.store.Store;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/** An unkeyed audit log for the tests that build a service on their own store. */
public final class TestingAudit {
    private TestingAudit() {}

    public static AuditLog of(Store store) {
        return new AuditLog(store, AuditChain.unkeyed(), Clock.systemUTC(), 500);
    }

    /** On a SQLite store's JDBI. */
    public static AuditLog ofSqlite(Jdbi jdbi) {
        return new AuditLog(jdbi, false, AuditChain.unkeyed(), Clock.systemUTC(), 500);
    }
}
