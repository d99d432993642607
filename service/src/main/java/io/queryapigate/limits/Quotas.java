package io.queryapigate.limits;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.cache.RedisOutage;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Quota;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.store.UsageDao;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/**
 * Usage quotas: calls and rows per calendar day or month, in the server's time zone, as the Python original counts
 * them. A call is checked before it runs ({@link #check}: 429 {@code quota_exceeded} once a count is used up) and
 * counted after it succeeded ({@link #count}), cached answers included; the call that crosses a row quota completes.
 *
 * <p>The counts are kept in the store ({@code usage_counters}), so they survive restarts and every instance adds to
 * them; calls never read the store: what this process counted waits in memory and is written once a second, then the
 * current periods' counters are read back (at least every {@value #REREAD_SECONDS} seconds), so an instance sees the
 * others' counts within seconds. With Redis, a check reads one counter there that every instance adds to at once
 * (seeded from this process's view of the store the first time a period is used), so the overshoot across instances is
 * at most the calls in flight; while Redis fails, the store's view decides.
 */
public final class Quotas implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(Quotas.class);
    private static final long REREAD_SECONDS = 5;
    private static final long KEEP_DAYS = 400;
    private volatile long lastFlushWarning;

    private final UsageDao store;
    private final Clock clock;
    private final ZoneId zone;
    private final Shared shared;
    private final Map<Slot, Counts> counts = new ConcurrentHashMap<>();
    private volatile Periods periods;
    private ScheduledExecutorService writer;
    private long lastRead;
    private long lastTrim;

    /**
     * @param redis Redis for one exact count across instances, or null
     */
    public Quotas(UsageDao store, Clock clock, ZoneId zone, RedisClient redis, String redisPrefix, long retryMillis,
            MetricRegistry metrics) {
        this.store = store;
        this.clock = clock;
        this.zone = zone;
        this.shared = redis == null ? null : new Shared(redis, redisPrefix, retryMillis, metrics, clock);
    }

    /** One period of a quota: its store key ({@code day:2026-12-01}, {@code month:2026-12}), start and reset. */
    public record Period(String key, ZonedDateTime start, ZonedDateTime resets) {
        public String startText() {
            return ServerTime.format(start);
        }

        public String resetsText() {
            return ServerTime.format(resets);
        }
    }

    /** A caller's use of its quota in the current period. */
    public record Usage(Period period, long calls, long rows) {}

    /**
     * Refuses the call when the caller's quota for this period is used up: 429 {@code quota_exceeded} with the count
     * that ran out ({@code quota}), its {@code limit}, {@code resets_at} and {@code retry_after}.
     */
    public void check(Caller caller) {
        Quota quota = caller.grants().quota();
        if (quota == null || caller.admin()) {
            return;
        }
        Usage used = usage(caller.keyId(), quota);
        String ran = quota.calls() != null && used.calls() >= quota.calls() ? "calls"
                : quota.rows() != null && used.rows() >= quota.rows() ? "rows" : null;
        if (ran == null) {
            return;
        }
        long limit = ran.equals("calls") ? quota.calls() : quota.rows();
        String resets = used.period().resetsText();
        long wait = Duration.between(ZonedDateTime.now(clock.withZone(zone)), used.period().resets()).toSeconds();
        throw new ApiException(429, "quota_exceeded", "This caller's " + quota.adjective() + " quota of "
                + String.format(Locale.ROOT, "%,d", limit) + " " + ran + " is used up - it resets at " + resets)
                .with("quota", ran).with("limit", limit).with("resets_at", resets).retryAfter(wait);
    }

    /** Counts calls and rows against the caller's quota, if it has one. */
    public void count(Caller caller, long calls, long rows) {
        Quota quota = caller.grants().quota();
        if (quota == null || caller.admin() || (calls <= 0 && rows <= 0)) {
            return;
        }
        Period period = period(quota.per());
        Counts c = counts.computeIfAbsent(new Slot(caller.keyId(), period.key()), s -> new Counts());
        synchronized (c) {
            c.pendingCalls += calls;
            c.pendingRows += Math.max(0, rows);
        }
        if (shared != null) {
            shared.add(caller.keyId(), period.key(), calls, Math.max(0, rows));
        }
    }

    /** What the key used of its quota this period (Redis's count when it answers, else the store's view). */
    public Usage usage(long keyId, Quota quota) {
        Period period = period(quota.per());
        long[] local = local(keyId, period.key());
        long[] used = shared == null ? null : shared.used(keyId, period.key(), local);
        return used == null ? new Usage(period, local[0], local[1]) : new Usage(period, used[0], used[1]);
    }

    /** The current day or month. */
    public Period period(String per) {
        Periods p = periods;
        if (p == null || clock.millis() >= p.validUntil) {
            p = new Periods(ZonedDateTime.now(clock.withZone(zone)));
            periods = p;
        }
        return per.equals("day") ? p.day : p.month;
    }

    /** Forgets a key's counts: this process's, the store's and Redis's; returns the periods the store had. */
    public int forget(long keyId) {
        counts.keySet().removeIf(s -> s.keyId == keyId);
        int periods = store.forget(keyId);
        if (shared != null) {
            shared.forget(keyId, period("day").key(), period("month").key());
        }
        return periods;
    }

    /** The periods the store counts for a key (what {@link #forget} would remove). */
    public int periodsOf(long keyId) {
        return store.periodsOf(keyId);
    }

    /**
     * {@code X-Quota-Reset} and {@code X-Quota-Remaining-Calls}/{@code -Rows} on every answer to a caller with a
     * quota, so it can slow down before it is refused.
     */
    public final class HeaderFilter implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (!(request.getSecurityContext().getUserPrincipal() instanceof Caller caller)
                    || caller.grants().quota() == null || caller.admin()) {
                return;
            }
            Quota quota = caller.grants().quota();
            Usage used = usage(caller.keyId(), quota);
            response.getHeaders().putSingle("X-Quota-Reset", used.period().resetsText());
            if (quota.calls() != null) {
                response.getHeaders().putSingle("X-Quota-Remaining-Calls",
                        Long.toString(Math.max(0, quota.calls() - used.calls())));
            }
            if (quota.rows() != null) {
                response.getHeaders().putSingle("X-Quota-Remaining-Rows",
                        Long.toString(Math.max(0, quota.rows() - used.rows())));
            }
        }
    }

    @Override
    public void start() {
        read(clock.millis());
        writer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().name("qag-quota-writer")
                .daemon(true).unstarted(r));
        writer.scheduleWithFixedDelay(this::flushQuietly, 1, 1, TimeUnit.SECONDS);
    }

    /** Writes what is still unwritten; a failure is logged (the counts of that last moment are lost). */
    @Override
    public void stop() throws InterruptedException {
        if (writer != null) {
            writer.shutdown();
            writer.awaitTermination(10, TimeUnit.SECONDS);
        }
        try {
            write(clock.millis());
        } catch (RuntimeException e) {
            LOG.error("Could not write the last quota counts at shutdown", e);
        }
    }

    /** Writes what this process counted and reads back the current periods' counters. */
    public synchronized void flush() {
        long now = clock.millis();
        boolean wrote = write(now);
        if (wrote || now - lastRead >= REREAD_SECONDS * 1000) {
            read(now);
        }
        if (now - lastTrim >= 3_600_000) {
            lastTrim = now;
            store.trim(now - Duration.ofDays(KEEP_DAYS).toMillis());
        }
    }

    // what was counted and not yet written goes to the store; false when there was nothing
    private synchronized boolean write(long now) {
        Map<Slot, long[]> taken = new HashMap<>();
        counts.forEach((slot, c) -> {
            synchronized (c) {
                if (c.pendingCalls > 0 || c.pendingRows > 0) {
                    taken.put(slot, new long[] {c.pendingCalls, c.pendingRows});
                    c.inflightCalls += c.pendingCalls;
                    c.inflightRows += c.pendingRows;
                    c.pendingCalls = 0;
                    c.pendingRows = 0;
                }
            }
        });
        if (taken.isEmpty()) {
            return false;
        }
        List<UsageDao.Counter> batch = new ArrayList<>(taken.size());
        taken.forEach((slot, n) -> batch.add(new UsageDao.Counter(slot.keyId, slot.period, n[0], n[1])));
        try {
            store.add(batch, now);
        } catch (RuntimeException e) {
            taken.forEach((slot, n) -> {
                Counts c = counts.get(slot);
                synchronized (c) {
                    c.inflightCalls -= n[0];
                    c.inflightRows -= n[1];
                    c.pendingCalls += n[0];
                    c.pendingRows += n[1];
                }
            });
            throw e;
        }
        return true;
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            long now = System.currentTimeMillis();
            if (now - lastFlushWarning >= 60_000) {
                // once a minute: a store outage would otherwise log every flush
                lastFlushWarning = now;
                LOG.warn("Could not write the quota counters; they are kept and written with the next try", e);
            }
        }
    }

    // the store's counters of the current periods replace what this process had read (its own written counts included)
    private synchronized void read(long now) {
        String day = period("day").key();
        String month = period("month").key();
        Map<Slot, UsageDao.Counter> stored = new HashMap<>();
        for (UsageDao.Counter c : store.current(day, month)) {
            stored.put(new Slot(c.keyId(), c.period()), c);
        }
        lastRead = now;
        stored.keySet().forEach(slot -> counts.computeIfAbsent(slot, s -> new Counts()));
        counts.entrySet().removeIf(e -> {
            Counts c = e.getValue();
            synchronized (c) {
                UsageDao.Counter s = stored.get(e.getKey());
                c.storedCalls = s == null ? 0 : s.calls();
                c.storedRows = s == null ? 0 : s.rowsOut();
                c.inflightCalls = 0;
                c.inflightRows = 0;
                boolean current = e.getKey().period.equals(day) || e.getKey().period.equals(month);
                return !current && c.pendingCalls == 0 && c.pendingRows == 0;
            }
        });
    }

    private long[] local(long keyId, String period) {
        Counts c = counts.get(new Slot(keyId, period));
        if (c == null) {
            return new long[2];
        }
        synchronized (c) {
            return new long[] {c.storedCalls + c.inflightCalls + c.pendingCalls,
                c.storedRows + c.inflightRows + c.pendingRows};
        }
    }

    private record Slot(long keyId, String period) {}

    /** A key's counts in one period: read from the store, being written, and not yet written. */
    private static final class Counts {
        long storedCalls;
        long storedRows;
        long inflightCalls;
        long inflightRows;
        long pendingCalls;
        long pendingRows;
    }

    /** The current day and month, and when the day ends (then both are computed again). */
    private static final class Periods {
        final Period day;
        final Period month;
        final long validUntil;

        Periods(ZonedDateTime now) {
            LocalDate today = now.toLocalDate();
            ZonedDateTime dayStart = today.atStartOfDay(now.getZone());
            ZonedDateTime monthStart = today.withDayOfMonth(1).atStartOfDay(now.getZone());
            this.day = new Period("day:" + today, dayStart, today.plusDays(1).atStartOfDay(now.getZone()));
            this.month = new Period("month:" + today.toString().substring(0, 7), monthStart,
                    today.withDayOfMonth(1).plusMonths(1).atStartOfDay(now.getZone()));
            this.validUntil = day.resets().toInstant().toEpochMilli();
        }
    }

    /** The counters in Redis: a hash per key and period, with {@code calls} and {@code rows}. */
    private static final class Shared {
        // KEYS[1] the counter; ARGV: the store's calls and rows (the seed), seconds to keep it. Returns {calls, rows}.
        private static final String USED = """
                if redis.call('EXISTS', KEYS[1]) == 0 then
                  redis.call('HSET', KEYS[1], 'calls', ARGV[1], 'rows', ARGV[2])
                  redis.call('EXPIRE', KEYS[1], ARGV[3])
                end
                local v = redis.call('HMGET', KEYS[1], 'calls', 'rows')
                return {tonumber(v[1]) or 0, tonumber(v[2]) or 0}
                """;
        // only once seeded: before that, the next check seeds it from the store's view, which has these counts
        private static final String ADD = """
                if redis.call('EXISTS', KEYS[1]) == 1 then
                  redis.call('HINCRBY', KEYS[1], 'calls', ARGV[1])
                  redis.call('HINCRBY', KEYS[1], 'rows', ARGV[2])
                end
                return 1
                """;
        private static final String KEEP_SECONDS = Long.toString(Duration.ofDays(40).toSeconds());

        private final RedisClient redis;
        private final String prefix;
        private final RedisOutage outage;

        Shared(RedisClient redis, String prefix, long retryMillis, MetricRegistry metrics, Clock clock) {
            this.redis = redis;
            this.prefix = prefix;
            this.outage = new RedisOutage(clock, retryMillis, metrics, "limits.redis.failures", LOG,
                    "Redis quota counting unavailable", "using the store's counts");
        }

        long[] used(long keyId, String period, long[] seed) {
            if (!outage.up()) {
                return null;
            }
            try {
                @SuppressWarnings("unchecked")
                List<Long> r = (List<Long>) redis.eval(USED, List.of(key(keyId, period)),
                        List.of(Long.toString(seed[0]), Long.toString(seed[1]), KEEP_SECONDS));
                return new long[] {r.get(0), r.get(1)};
            } catch (RuntimeException e) {
                outage.failed(e);
                return null;
            }
        }

        void add(long keyId, String period, long calls, long rows) {
            if (!outage.up()) {
                return;
            }
            try {
                redis.eval(ADD, List.of(key(keyId, period)), List.of(Long.toString(calls), Long.toString(rows)));
            } catch (RuntimeException e) {
                outage.failed(e);
            }
        }

        void forget(long keyId, String... periods) {
            try {
                for (String period : periods) {
                    redis.del(key(keyId, period));
                }
            } catch (RuntimeException e) {
                outage.failed(e);
            }
        }

        private String key(long keyId, String period) {
            return prefix + "usage:" + keyId + ":" + period;
        }
    }
}
