package io.queryapigate.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Quota;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.Store;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;

/** Quotas on a real SQLite store, two instances sharing it as two gateways would. */
class QuotasTest {
    private static Store store() throws Exception {
        String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-quotas-").resolve("store.db");
        return Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null);
    }

    private static Caller key(long id, Quota quota) {
        return new Caller(id, "k" + id, false, new Grants(List.of("*"), null, false, false, null, null, null, null,
                null, quota, null, null, null));
    }

    /** A clock that moves only when told. */
    private static final class Ticking extends Clock {
        private Instant now;

        Ticking(Instant start) {
            this.now = start;
        }

        void advance(java.time.Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return Clock.fixed(now, zone);
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static Quotas quotas(Store store, Clock clock) {
        return new Quotas(store.usage(), clock, clock.getZone(), null, "", 0, new MetricRegistry());
    }

    @Test
    void periodsAreCalendarDaysAndMonthsInTheServersZone() {
        Clock clock = Clock.fixed(Instant.parse("2026-01-31T23:30:00Z"), ZoneId.of("Asia/Kolkata"));
        Quotas q = new Quotas(null, clock, clock.getZone(), null, "", 0, new MetricRegistry());
        assertThat(q.period("day").key()).as("05:00 on 1 February in Kolkata").isEqualTo("day:2026-02-01");
        assertThat(q.period("day").resetsText()).isEqualTo("2026-02-02 00:00:00");
        assertThat(q.period("month").key()).isEqualTo("month:2026-02");
        assertThat(q.period("month").startText()).isEqualTo("2026-02-01 00:00:00");
        assertThat(q.period("month").resetsText()).isEqualTo("2026-03-01 00:00:00");
    }

    @Test
    void countsAreWrittenToTheStoreAndReadBackByAnotherInstance() throws Exception {
        Store store = store();
        Ticking clock = new Ticking(Instant.parse("2026-12-01T10:00:00Z"));
        Caller k = key(7, new Quota(3L, 10L, "day"));
        Quotas a = quotas(store, clock);
        Quotas b = quotas(store, clock);
        a.count(k, 1, 4);
        a.count(k, 1, 4);
        assertThat(a.usage(7, k.grants().quota()).calls()).as("unwritten counts count").isEqualTo(2);
        assertThat(b.usage(7, k.grants().quota()).calls()).isZero();
        a.flush();
        b.flush(); // re-reads: not written by b, but its first read is due
        assertThat(b.usage(7, k.grants().quota()).rows()).isEqualTo(8);
        b.count(k, 1, 4);
        b.check(key(8, null)); // a key without a quota always passes
        assertThatThrownBy(() -> b.check(k)).as("3 calls and 12 rows in the period").isInstanceOfSatisfying(
                ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("quota_exceeded");
                    assertThat(e.extra()).containsEntry("quota", "calls").containsEntry("limit", 3L)
                            .containsEntry("resets_at", "2026-12-02 00:00:00");
                    assertThat(e.retryAfterSeconds()).isEqualTo(14 * 3600);
                    assertThat(e.getMessage()).isEqualTo("This caller's daily quota of 3 calls is used up - it resets"
                            + " at 2026-12-02 00:00:00");
                });
        b.flush();
        a.flush();
        assertThat(a.usage(7, k.grants().quota()).calls()).as("a reads the store again only every 5 s").isEqualTo(2);
        clock.advance(java.time.Duration.ofSeconds(5));
        a.flush();
        assertThat(a.usage(7, k.grants().quota()).calls()).as("a sees b's count once written").isEqualTo(3);
        Quotas restarted = quotas(store, clock);
        restarted.start();
        try {
            assertThat(restarted.usage(7, k.grants().quota()).rows()).isEqualTo(12);
        } finally {
            restarted.stop();
        }
        a.forget(7);
        assertThat(quotas(store, clock).usage(7, k.grants().quota()).calls()).isZero();
    }
}
