package io.queryapigate.siem;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import io.queryapigate.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lease and cursor rules on a real (SQLite) store: one holder at a time, the cursor moved only by it. */
class DeliveryCursorTest {
    private Jdbi jdbi;

    @BeforeEach
    void store() throws Exception {
        Path db = Files.createTempDirectory("qag-cursor-").resolve("s.db");
        String url = "jdbc:sqlite:" + db;
        jdbi = Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null).jdbi();
    }

    @Test
    void oneHolderAtATimeUntilItsLeaseLapsesOrItGivesItBack() {
        DeliveryCursor a = new DeliveryCursor(jdbi, "siem", "a");
        DeliveryCursor b = new DeliveryCursor(jdbi, "siem", "b");
        a.ensure();
        b.ensure();
        assertThat(a.lease(1_000, 3_000)).hasValueSatisfying(s -> assertThat(s.lastSeq()).isZero());
        assertThat(b.lease(2_000, 4_000)).as("held by a").isEmpty();
        assertThat(a.lease(2_000, 4_000)).as("a renews its own").isPresent();
        assertThat(b.lease(4_000, 6_000)).as("at the end of a's lease it is still a's").isEmpty();
        assertThat(b.lease(4_001, 6_001)).as("lapsed: b takes over").isPresent();
        assertThat(a.advance(5, "{}", 4_002, 6_002)).as("a lost it: its cursor does not move").isFalse();
        assertThat(b.advance(5, "{}", 4_002, 6_002)).isTrue();
        assertThat(b.advance(3, "{}", 4_003, 6_003)).as("never backwards").isFalse();
        assertThat(b.advance(9, "{}", 7_000, 9_000)).as("b's own lease lapsed meanwhile").isFalse();
        b.release();
        assertThat(DeliveryCursor.read(jdbi, "siem")).hasValueSatisfying(r -> {
            assertThat(r.lastSeq()).isEqualTo(5);
            assertThat(r.leaseHolder()).isNull();
        });
        assertThat(a.lease(7_001, 9_000)).as("given back: free at once")
                .hasValueSatisfying(s -> assertThat(s.lastSeq()).isEqualTo(5));
    }

    @Test
    void aNewOutputStartsBeforeTheOldestEntryStored() {
        AuditDao audit = jdbi.onDemand(AuditDao.class);
        for (long seq = 41; seq <= 43; seq++) { // 1-40 trimmed by retention
            audit.insert(new AuditRow(seq, seq, "admin", "a", null, "x", "t", null, null, "{}", "p", "h"));
        }
        DeliveryCursor c = new DeliveryCursor(jdbi, "late", "a");
        c.ensure();
        c.ensure();
        assertThat(c.lease(1, 2)).hasValueSatisfying(s -> assertThat(s.lastSeq()).isEqualTo(40));
        assertThat(DeliveryCursor.oldestAfter(jdbi, 41)).isEqualTo(42L);
        assertThat(DeliveryCursor.oldestAfter(jdbi, 43)).isNull();
    }
}
