package io.queryapigate.alerts;

import io.queryapigate.auth.Quota;
import io.queryapigate.config.AlertsConfig;
import io.queryapigate.dialect.ConnectionHealth;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.events.EventLog;
import io.queryapigate.http.ServerTime;
import io.queryapigate.instances.Instances;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.limits.Quotas;
import io.queryapigate.limits.Refusals;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.AlertsDao;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.StoreFaults;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/alerts}: every alert that holds now, worked out afresh on each request and stored nowhere, so an
 * alert goes away by itself once its cause does. The workspace's own (its keys expiring or at their quota, its keys
 * refused for their limits, its connections failing their health checks, its saved queries slowing down) for any
 * administrator of it, the key ones only with {@code access.read}; and for a server-wide role the server's own
 * (instances sharing the store without Redis or on different versions, the event writer dropping events).
 *
 * <p>Bounded work per request, nothing per call: one read of the workspace's keys (and each quota's count, as
 * {@link Quotas} holds it), one read of the newest {@value #RECENT_CALLS} calls of the event log, one of the instances'
 * heartbeat rows; the health checks' latest results and the refusal counts are in memory.
 */
public final class Alerts {
    /** Newest calls of the event log the history checks read. */
    public static final int RECENT_CALLS = 5_000;
    private static final Duration QUERY_WINDOW = Duration.ofDays(7);
    private static final int QUERY_RUNS = 50;
    private static final int MIN_RUNS_FOR_SPEED = 5;
    private static final int NEWEST_RUNS = 5;
    /** How long a store failure stays an alert after it was last seen. */
    private static final Duration STORE_FAULT_WINDOW = Duration.ofMinutes(10);

    private final ApiKeys keys;
    private final Quotas quotas;
    private final Refusals refusals;
    private final AlertsDao calls;
    private final Instances instances;
    private final ConnectionHealth health;
    private final ConnectionRegistry connections;
    private final EventLog events;
    private final Settings settings;
    private final Clock clock;

    /**
     * The thresholds (docs/config-reference.md, {@code alerts}).
     *
     * @param keyExpiryDays       a key expiring within this many days is an alert
     * @param slowQuery           a saved query whose typical run takes this long is slow (zero: off)
     * @param slowdownFactor      a saved query whose newest runs take this many times its earlier ones has slowed
     * @param slowdownMinimum     ... when its newest runs take at least this long
     * @param refusalsPerHour     refusals of a key in the last hour before it is called out
     */
    public record Settings(int keyExpiryDays, Duration slowQuery, double slowdownFactor, Duration slowdownMinimum,
            int refusalsPerHour) {
        /** The YAML's {@code alerts} block. */
        public static Settings of(AlertsConfig c) {
            return new Settings(c.getKeyExpiryDays(), Duration.ofMillis(c.getSlowQuery().toMilliseconds()),
                    c.getSlowdownFactor(), Duration.ofMillis(c.getSlowdownMinimum().toMilliseconds()),
                    c.getRefusalsPerHour());
        }
    }

    public Alerts(ApiKeys keys, Quotas quotas, Refusals refusals, AlertsDao calls, Instances instances,
            ConnectionHealth health, ConnectionRegistry connections, EventLog events, Settings settings, Clock clock) {
        this.keys = keys;
        this.quotas = quotas;
        this.refusals = refusals;
        this.calls = calls;
        this.instances = instances;
        this.health = health;
        this.connections = connections;
        this.events = events;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * The alerts of the workspace this thread acts in ({@link Scope}), most severe first.
     *
     * @param keysVisible whether the caller may read API keys ({@code access.read}): alerts about keys need it
     * @param serverWide  whether the caller's role is server-wide: the server's own alerts need it
     */
    public List<Alert> collect(boolean keysVisible, boolean serverWide) {
        long now = clock.millis();
        List<AlertsDao.RecentCall> recent = calls.recent(now - QUERY_WINDOW.toMillis(), RECENT_CALLS);
        List<Alert> found = new ArrayList<>();
        if (keysVisible) {
            List<ApiKeyRow> mine = keys.list().stream().filter(ApiKeyRow::active).toList();
            found.addAll(expiring(mine));
            found.addAll(quotas(mine));
            found.addAll(refused(mine, recent, now));
        }
        found.addAll(failingConnections());
        found.addAll(slowQueries(recent));
        if (serverWide) {
            found.addAll(server());
        }
        found.sort(Alert.ORDER);
        return found;
    }

    private List<Alert> expiring(List<ApiKeyRow> mine) {
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        List<Alert> found = new ArrayList<>();
        for (ApiKeyRow key : mine) {
            if (key.expiresAt() == null) {
                continue;
            }
            LocalDate expires;
            try {
                expires = LocalDate.parse(key.expiresAt());
            } catch (DateTimeParseException e) {
                continue;
            }
            long days = ChronoUnit.DAYS.between(today, expires);
            if (days < 0) {
                found.add(Alert.of("warning", "key_expired", key.name(), "API key '" + key.name() + "' has expired",
                        "It expired on " + key.expiresAt() + ", so every call with it is refused. Extend it if it is"
                                + " still in use, or revoke it.", key.expiresAt(), "key", key.name()));
            } else if (days <= settings.keyExpiryDays()) {
                String when = days == 0 ? "today" : days == 1 ? "tomorrow" : "in " + days + " days";
                found.add(Alert.of("warning", "key_expiring", key.name(), "API key '" + key.name() + "' expires "
                        + when, "On " + key.expiresAt() + ". Calls with it will be refused from then on - extend it,"
                                + " or give its callers a new key first.", key.expiresAt(), "key", key.name()));
            }
        }
        return found;
    }

    // 80% of a count used is a warning, all of it critical: the counts Quotas enforces
    private List<Alert> quotas(List<ApiKeyRow> mine) {
        List<Alert> found = new ArrayList<>();
        for (ApiKeyRow key : mine) {
            Quota quota = keys.effective(key).quota();
            if (quota == null) {
                continue;
            }
            Quotas.Usage usage = quotas.usage(key.id(), quota);
            quotaAlert(key.name(), "calls", usage.calls(), quota.calls(), quota, usage, found);
            quotaAlert(key.name(), "rows", usage.rows(), quota.rows(), quota, usage, found);
        }
        return found;
    }

    private static void quotaAlert(String name, String what, long used, Long limit, Quota quota, Quotas.Usage usage,
            List<Alert> found) {
        if (limit == null || used * 10 < limit * 8) {
            return;
        }
        boolean usedUp = used >= limit;
        found.add(Alert.of(usedUp ? "critical" : "warning", "quota_nearly_used", name + ":" + what,
                "API key '" + name + "' has used " + (usedUp ? "all" : used * 100 / limit + "%") + " of its "
                        + quota.adjective() + " quota of " + what,
                String.format(Locale.ROOT, "%,d of %,d %s this %s. ", used, limit, what, quota.per())
                        + (usedUp ? "Its calls are refused (quota_exceeded) until " : "It resets at ")
                        + usage.period().resetsText() + ".", usage.period().startText(), "key", name));
    }

    /**
     * Keys refused again and again in the last hour: by their own rate limit (this process's count: such a call is
     * refused before it starts, so the event log never has it), their quota or their concurrent calls (429s of the
     * event log, every instance's).
     */
    private List<Alert> refused(List<ApiKeyRow> mine, List<AlertsDao.RecentCall> recent, long now) {
        Map<Long, ApiKeyRow> byId = new HashMap<>();
        mine.forEach(k -> byId.put(k.id(), k));
        Map<Long, Map<String, Long>> counts = new LinkedHashMap<>();
        refusals.lastHour().forEach((keyId, n) -> {
            if (byId.containsKey(keyId)) {
                counts.computeIfAbsent(keyId, k -> new TreeMap<>()).merge("rate_limited", n, Long::sum);
            }
        });
        long hourAgo = now - Duration.ofHours(1).toMillis();
        for (AlertsDao.RecentCall c : recent) {
            if (c.status() == 429 && c.atMs() >= hourAgo && byId.containsKey(c.keyId())) {
                counts.computeIfAbsent(c.keyId(), k -> new TreeMap<>())
                        .merge(c.errorCode() == null ? "refused" : c.errorCode(), 1L, Long::sum);
            }
        }
        List<Alert> found = new ArrayList<>();
        counts.forEach((keyId, byCode) -> {
            long total = byCode.values().stream().mapToLong(Long::longValue).sum();
            if (total < settings.refusalsPerHour()) {
                return;
            }
            String name = byId.get(keyId).name();
            StringBuilder codes = new StringBuilder();
            byCode.forEach((code, n) -> codes.append(codes.isEmpty() ? "" : ", ").append(n).append(' ').append(code));
            found.add(Alert.of("warning", "key_rate_limited", name, "API key '" + name + "' keeps hitting its limits",
                    plural(total, "call") + " refused in the last hour (" + codes + "). Raise the limit if the"
                            + " traffic is expected, or ask its owner to slow down or cache.", null, "key", name));
        });
        return found;
    }

    private List<Alert> failingConnections() {
        List<Alert> found = new ArrayList<>();
        for (ConnectionHealth.Result r : new TreeMap<>(health.latest()).values()) {
            if (r.healthy() || !Scope.owns(connections.workspaceOf(r.connection()))) {
                continue;
            }
            String since = ServerTime.format(r.failingSince());
            found.add(Alert.of("critical", "connection_failing", r.connection(), "Connection '" + r.connection()
                    + "' is failing", "Its health check has failed since " + since + " (last checked "
                    + ServerTime.format(r.checkedAt()) + "): " + withoutFullStop(r.problem()) + ". Check the database"
                    + " is up and the connection settings are right.", since, "connection", r.connection()));
        }
        return found;
    }

    /**
     * A saved query of this workspace that is slow (the median of its newest successful runs at or over {@code
     * slowQuery}, as the original judges), or that has slowed down: the median of its newest {@value #NEWEST_RUNS}
     * successful runs {@code slowdownFactor} times that of the earlier ones, and at least {@code slowdownMinimum}.
     */
    private List<Alert> slowQueries(List<AlertsDao.RecentCall> recent) {
        Map<String, List<AlertsDao.RecentCall>> byQuery = new TreeMap<>();
        for (AlertsDao.RecentCall c : recent) {
            if (c.queryName() != null && Scope.owns(c.workspace()) && c.status() >= 200 && c.status() < 300) {
                List<AlertsDao.RecentCall> runs = byQuery.computeIfAbsent(c.queryName(), q -> new ArrayList<>());
                if (runs.size() < QUERY_RUNS + NEWEST_RUNS) {
                    runs.add(c);
                }
            }
        }
        List<Alert> found = new ArrayList<>();
        byQuery.forEach((name, runs) -> {
            if (runs.size() < MIN_RUNS_FOR_SPEED) {
                return;
            }
            long[] durations = runs.stream().mapToLong(AlertsDao.RecentCall::durationUs).toArray();
            long typical = median(Arrays.copyOf(durations, Math.min(QUERY_RUNS, durations.length)));
            long newest = median(Arrays.copyOf(durations, NEWEST_RUNS));
            long earlier = durations.length - NEWEST_RUNS >= MIN_RUNS_FOR_SPEED
                    ? median(Arrays.copyOfRange(durations, NEWEST_RUNS, durations.length)) : -1;
            String since = ServerTime.format(runs.get(Math.min(NEWEST_RUNS, runs.size()) - 1).atMs());
            long slowUs = settings.slowQuery().toNanos() / 1_000;
            if (earlier >= 0 && newest >= settings.slowdownMinimum().toNanos() / 1_000
                    && newest >= settings.slowdownFactor() * Math.max(earlier, 1)) {
                found.add(Alert.of("warning", "query_slow", name, "Query '" + name + "' has slowed down",
                        "Its newest " + NEWEST_RUNS + " successful runs take " + seconds(newest) + " (median), "
                                + String.format(Locale.ROOT, "%.1f", newest / (double) Math.max(earlier, 1))
                                + " times the " + seconds(earlier) + " of the " + plural(durations.length
                                - NEWEST_RUNS, "run") + " before them. Check its plan, an index, or the database's"
                                + " load.", since, "query", name));
            } else if (slowUs > 0 && typical >= slowUs) {
                found.add(Alert.of("warning", "query_slow", name, "Query '" + name + "' is slow",
                        "Its typical run takes " + seconds(typical) + " (median of the last " + plural(Math.min(
                                QUERY_RUNS, durations.length), "successful run") + "), over alerts.slowQuery ("
                                + seconds(slowUs) + "). Consider an index, a narrower query, or a cache_ttl.",
                        since, "query", name));
            }
        });
        return found;
    }

    private List<Alert> server() {
        List<Alert> found = new ArrayList<>();
        for (Instances.Problem p : instances.problems(instances.list())) {
            found.add(Alert.of("warning", p.kind(), "server", p.kind().equals("instances_not_shared")
                    ? "Instances share this store without sharing rate limits"
                    : "Instances are running different versions", p.message(), null, "settings", "traffic"));
        }
        java.time.Instant full = events.faults().seenWithin(StoreFaults.Kind.FULL, STORE_FAULT_WINDOW);
        if (full != null) {
            found.add(Alert.of("critical", "store_full", "server", "The store's disk is full",
                    "Changes could not be saved because the store's disk is full; calls are still answered. Free"
                            + " space on the store's volume.", ServerTime.format(full.toEpochMilli()), "settings",
                    "store"));
        }
        java.time.Instant unavailable = events.faults().seenWithin(StoreFaults.Kind.UNAVAILABLE, STORE_FAULT_WINDOW);
        if (unavailable != null) {
            found.add(Alert.of("critical", "store_unavailable", "server", "The store could not be reached",
                    "The store could not be reached: management calls answered 503 and events were held back"
                            + " meanwhile.",
                    ServerTime.format(unavailable.toEpochMilli()), "settings", "store"));
        }
        long dropped = events.dropped();
        if (dropped > 0) {
            found.add(Alert.of("warning", "history_dropped", "server", "Run history is dropping runs",
                    plural(dropped, "run") + " dropped since this server started because the store could not keep"
                            + " up. Raise events.queueCapacity, or move to a PostgreSQL store.", null, "settings",
                    "history"));
        }
        return found;
    }

    private static String withoutFullStop(String text) {
        String t = text.strip();
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String seconds(long micros) {
        return String.format(Locale.ROOT, "%.3f s", micros / 1_000_000.0);
    }

    private static String plural(long n, String word) {
        return String.format(Locale.ROOT, "%,d", n) + " " + word + (n == 1 ? "" : "s");
    }
}
