package io.queryapigate.testing;

import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import java.util.function.LongFunction;
import org.jdbi.v3.core.Jdbi;

/**
 * Audit entries written straight into a real store for the SIEM delivery tests, after the chain's head, moving the
 * head as the audit package's append does (so entries the application appends afterwards follow them without a
 * clash). Their hashes are whatever the test gives: these tests are about delivery, not the chain.
 */
public final class AuditRows {
    private AuditRows() {}

    /**
     * Appends {@code row.apply(seq)} with the seq after the head's; returns that seq. A SQLite {@code jdbi} should
     * wait for the application's writes ({@code ?busy_timeout=10000} in its URL).
     */
    public static long append(Jdbi jdbi, LongFunction<AuditRow> row) {
        return jdbi.inTransaction(h -> {
            // the write first: it takes SQLite's write lock (or the row's on PostgreSQL) before anything is read
            h.createUpdate("UPDATE audit_chain SET seq = seq + 1 WHERE name = 'head'").execute();
            long seq = h.createQuery("SELECT seq FROM audit_chain WHERE name = 'head'").mapTo(Long.class).one();
            AuditRow entry = row.apply(seq);
            h.attach(AuditDao.class).insert(entry);
            h.createUpdate("UPDATE audit_chain SET hash = :hash WHERE name = 'head'").bind("hash", entry.hash())
                    .execute();
            return seq;
        });
    }
}
