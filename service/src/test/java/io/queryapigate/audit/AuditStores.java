package io.queryapigate.audit;

import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;

/** A fresh migrated store of each kind, SQLite and the real PostgreSQL, for the audit package's tests. */
final class AuditStores {
    private AuditStores() {}

    /** A store and whether it is PostgreSQL. */
    record Fresh(String name, Store store, boolean postgres) {
        Jdbi jdbi() {
            return store.jdbi();
        }

        AuditLog log(AuditChain chain, int maxEntries) {
            return new AuditLog(store.jdbi(), postgres, chain, java.time.Clock.systemUTC(), maxEntries);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Fresh sqlite() {
        try {
            String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-audit-").resolve("store.db");
            Store.migrate(url, null, null);
            return new Fresh("sqlite", Store.connect(url, null, null), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Fresh postgres() {
        TestingPostgres.Database db = TestingPostgres.freshDatabase("qag_audit");
        Store.migrate(db.url(), db.user(), db.password());
        return new Fresh("postgres", Store.connect(db.url(), db.user(), db.password()), true);
    }

    static Stream<Fresh> both() {
        return Stream.of(sqlite(), postgres());
    }
}
