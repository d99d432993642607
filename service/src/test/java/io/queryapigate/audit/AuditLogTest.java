package io.queryapigate.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Appending inside the change's transaction, on SQLite and PostgreSQL; retention; secrets never stored. */
class AuditLogTest {
    static java.util.stream.Stream<AuditStores.Fresh> stores() {
        return AuditStores.both();
    }

    private static void table(AuditStores.Fresh s) {
        s.jdbi().useHandle(h -> h.execute("CREATE TABLE thing (name VARCHAR(50))"));
    }

    private static long things(AuditStores.Fresh s) {
        return s.jdbi().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM thing").mapTo(Long.class).one());
    }

    private static List<AuditRow> rows(AuditStores.Fresh s) {
        return s.jdbi().onDemand(AuditDao.class).after(0, 1000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anEntryCommitsWithItsChangeAndRollsBackWithIt(AuditStores.Fresh s) {
        table(s);
        AuditLog log = s.log(AuditChain.unkeyed(), 500);
        log.inTransaction(() -> {
            s.jdbi().useHandle(h -> h.execute("INSERT INTO thing VALUES ('one')"));
            log.append("create_thing", "one", Map.of("name", "one"));
        });
        assertThatThrownBy(() -> log.inTransaction(() -> {
            s.jdbi().useHandle(h -> h.execute("INSERT INTO thing VALUES ('two')"));
            log.append("create_thing", "two", Map.of());
            throw new IllegalStateException("the change fails after its entry");
        })).hasMessageContaining("the change fails");
        log.inTransaction(() -> {
            s.jdbi().useHandle(h -> h.execute("INSERT INTO thing VALUES ('three')"));
            log.append("create_thing", "three", Map.of());
        });
        assertThat(things(s)).isEqualTo(2);
        assertThat(rows(s)).extracting(AuditRow::seq, AuditRow::target)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "one"),
                        org.assertj.core.groups.Tuple.tuple(2L, "three"));
        assertThat(new AuditVerifier(s.jdbi(), AuditChain.unkeyed()).verify()).containsEntry("intact", true)
                .containsEntry("last_seq", 2L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aChangeWhoseEntryCannotBeWrittenRollsBack(AuditStores.Fresh s) {
        table(s);
        AuditLog log = s.log(AuditChain.unkeyed(), 500);
        // the entry's seq is taken: its insert fails, and the change with it
        s.jdbi().useHandle(h -> h.execute("INSERT INTO audit_log (seq, at_ms, actor_kind, actor, action, target,"
                + " entry_json, prev_hash, hash) VALUES (1, 0, 'x', 'x', 'x', 'x', '{}', 'x', 'x')"));
        assertThatThrownBy(() -> log.inTransaction(() -> {
            s.jdbi().useHandle(h -> h.execute("INSERT INTO thing VALUES ('one')"));
            log.append("create_thing", "one", Map.of());
        })).isInstanceOf(RuntimeException.class);
        assertThat(things(s)).isZero();
        assertThat(s.jdbi().onDemand(AuditDao.class).link(AuditDao.HEAD).orElseThrow().seq()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anEntryOutsideATransactionIsRefused(AuditStores.Fresh s) {
        AuditLog log = s.log(AuditChain.unkeyed(), 500);
        assertThatThrownBy(() -> log.append("create_thing", "one", Map.of()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(rows(s)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void retentionTrimsTheOldestAndMovesTheAnchor(AuditStores.Fresh s) {
        AuditLog log = s.log(AuditChain.unkeyed(), 3);
        for (int i = 1; i <= 10; i++) {
            String target = "t" + i;
            log.inTransaction(() -> log.append("create_thing", target, Map.of()));
        }
        assertThat(rows(s)).extracting(AuditRow::seq).containsExactly(8L, 9L, 10L);
        AuditDao dao = s.jdbi().onDemand(AuditDao.class);
        assertThat(dao.link(AuditDao.ANCHOR).orElseThrow().seq()).isEqualTo(7);
        assertThat(new AuditVerifier(s.jdbi(), AuditChain.unkeyed()).verify()).containsEntry("intact", true)
                .containsEntry("first_seq", 8L).containsEntry("trimmed_through", 7L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void retentionKeepsWhatASiemHasNotReceived(AuditStores.Fresh s) {
        AuditLog log = s.log(AuditChain.unkeyed(), 2);
        s.jdbi().useHandle(h -> h.execute("INSERT INTO audit_delivery (output, last_seq) VALUES ('siem', 3)"));
        for (int i = 1; i <= 8; i++) {
            log.inTransaction(() -> log.append("create_thing", "t", Map.of()));
        }
        assertThat(rows(s)).extracting(AuditRow::seq).containsExactly(4L, 5L, 6L, 7L, 8L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aSecretIsRecordedOnlyAsChanged(AuditStores.Fresh s) {
        AuditLog log = s.log(AuditChain.unkeyed(), 500);
        log.inTransaction(() -> log.append("update_connection", "db", Map.of("password", "hunter2-secret",
                "nested", Map.of("client_secret", "s3cr3t-client", "host", "db.example")))); 
        String json = rows(s).get(0).entryJson();
        assertThat(json).doesNotContain("hunter2-secret").doesNotContain("s3cr3t-client")
                .contains("\"password\":{\"changed\":true}").contains("db.example");
    }
}
