package io.queryapigate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Files;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * A second create of one name, inside a transaction, is told from other failures by the exception alone, on both
 * stores: PostgreSQL aborts the transaction at the failed insert, so reading again to find out is not possible.
 */
class UniqueViolationTest {

    @Test
    void postgresDuplicateInsideATransaction() {
        TestingPostgres.Database db = TestingPostgres.freshDatabase("qag_unique");
        try {
            check(Jdbi.create(db.url(), db.user(), db.password()));
        } finally {
            db.dropDatabase();
        }
    }

    @Test
    void sqliteDuplicateInsideATransaction() throws Exception {
        check(Jdbi.create("jdbc:sqlite:" + Files.createTempDirectory("qag-unique-").resolve("s.db")));
    }

    private static void check(Jdbi jdbi) {
        jdbi.useHandle(h -> h.execute("CREATE TABLE named (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL)"));
        jdbi.useHandle(h -> h.execute("CREATE UNIQUE INDEX named_name ON named (name)"));
        jdbi.useHandle(h -> h.execute("INSERT INTO named (id, name) VALUES (1, 'a')"));

        assertThatThrownBy(() -> jdbi.useTransaction(h -> h.execute("INSERT INTO named (id, name) VALUES (2, 'a')")))
                .satisfies(e -> assertThat(UniqueViolation.in(e)).isTrue());
        assertThatThrownBy(() -> jdbi.useTransaction(h -> h.execute("INSERT INTO named (id, name) VALUES (1, 'b')")))
                .satisfies(e -> assertThat(UniqueViolation.in(e)).isTrue());
        assertThatThrownBy(() -> jdbi.useTransaction(h -> h.execute("INSERT INTO named (id) VALUES (3)")))
                .satisfies(e -> assertThat(UniqueViolation.in(e)).as("NOT NULL is not a duplicate").isFalse());
        assertThatThrownBy(() -> jdbi.useTransaction(h -> h.execute("INSERT INTO nowhere (id) VALUES (3)")))
                .satisfies(e -> assertThat(UniqueViolation.in(e)).isFalse());
    }
}
