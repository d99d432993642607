package io.queryapigate;

import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import io.queryapigate.config.CacheConfig;
import io.queryapigate.config.EventsConfig;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.config.LimitsConfig;
import io.queryapigate.config.MetadataCacheConfig;
import io.queryapigate.config.SecurityConfig;
import io.queryapigate.config.SettingsView;
import io.queryapigate.config.SettingsView.Row;
import io.queryapigate.config.SettingsView.Section;
import io.queryapigate.config.StoreConfig;
import java.nio.file.Path;
import java.util.List;

/** What {@code GET /api/v1/settings} reports: the settings of this configuration that the original also has. */
final class SettingsReport {
    private SettingsReport() {}

    static List<Section> of(GatewayConfiguration c) {
        LimitsConfig limits = c.getLimits();
        LimitsConfig limitsDefault = new LimitsConfig();
        FormatsConfig output = c.getOutput();
        FormatsConfig outputDefault = new FormatsConfig();
        EventsConfig events = c.getEvents();
        EventsConfig eventsDefault = new EventsConfig();
        SecurityConfig security = c.getSecurity();
        MetadataCacheConfig metadata = c.getMetadataCache();
        String redis = c.getRedis().getUrl();
        String storeUrl = c.getStore().getUrl();
        return List.of(
                new Section("general", "General", "Where this server keeps its files and its store.", List.of(
                        SettingsView.row("Home directory", "Folder holding queryapigate.db (keys, saved queries,"
                                + " history) unless a store URL is set, and relative database files.",
                                "QUERYAPIGATE_HOME", "home", Path.of(c.getHome()).toAbsolutePath().normalize()
                                        .toString(), Path.of("./data").toAbsolutePath().normalize().toString()),
                        SettingsView.row("Metadata database", "Where API keys, saved queries, run history and"
                                + " usage counters are kept.", "QUERYAPIGATE_DATABASE_URL", "store.url",
                                storeUrl == null || storeUrl.isBlank() ? "SQLite (queryapigate.db)"
                                        : withoutCredentials(storeUrl), "SQLite (queryapigate.db)"))),
                new Section("security", "Security", "Admin access, write protection and masking.", List.of(
                        new Row("Admin API key", "The administrator key: the management API and every connection.",
                                "QUERYAPIGATE_API_KEY", "auth.adminKey", c.getAuth().getAdminKey() == null
                                        ? "not set - named owners only" : "configured",
                                c.getAuth().getAdminKey() == null ? "default" : "config"),
                        SettingsView.row("Allow writes", "The ceiling for writes: no key writes while it is off.",
                                "QUERYAPIGATE_ALLOW_WRITES", "security.allowWrites",
                                onOff(security.isAllowWrites()), "off"),
                        SettingsView.row("Masking hash key", "HMAC key for hash masking rules.",
                                "QUERYAPIGATE_MASK_KEY", "security.maskingKey", security.getMaskingKey() == null
                                        || security.getMaskingKey().isBlank() ? "not set - hash rules refused"
                                        : "configured", "not set - hash rules refused"),
                        SettingsView.row("Trusted proxies", "Reverse proxies whose X-Forwarded-For is believed.",
                                "QUERYAPIGATE_TRUST_PROXY", "security.trustedProxies",
                                security.getTrustedProxies().isEmpty() ? "none"
                                        : String.join(", ", security.getTrustedProxies()), "none"),
                        SettingsView.row("HTTPS only (HSTS)", "Strict-Transport-Security on answers over HTTPS.",
                                "QUERYAPIGATE_HSTS_MAX_AGE", "security.hstsMaxAge", security.getHstsMaxAge() <= 0
                                        ? "off" : "max-age=" + security.getHstsMaxAge(), "off"),
                        SettingsView.row("Metrics token", "Credentials for the admin port (metrics, health checks).",
                                "QUERYAPIGATE_METRICS_TOKEN", "adminAuth", c.getAdminAuth() == null
                                        ? "not set - the admin port is open" : "HTTP Basic",
                                "not set - the admin port is open"))),
                new Section("execution", "Query execution", "Limits applied to every statement this server runs.",
                        List.of(
                        SettingsView.row("Query timeout", "Time limit per call; a request or a key may lower it.",
                                "QUERYAPIGATE_QUERY_TIMEOUT", "limits.queryTimeout", duration(limits.getQueryTimeout()),
                                duration(limitsDefault.getQueryTimeout())),
                        SettingsView.row("Max page size", "The largest page_size.", "QUERYAPIGATE_MAX_PAGE_SIZE",
                                "output.maxPageSize", output.getMaxPageSize() + " rows",
                                outputDefault.getMaxPageSize() + " rows"),
                        SettingsView.row("Default page size", "Rows per page when page_size is not given.", "",
                                "output.defaultPageSize", output.getDefaultPageSize() + " rows",
                                outputDefault.getDefaultPageSize() + " rows"),
                        SettingsView.row("Stream row cap", "Most rows one stream writes.",
                                "QUERYAPIGATE_STREAM_MAX_ROWS", "output.streamMaxRows", rows(output.getStreamMaxRows()),
                                rows(outputDefault.getStreamMaxRows())),
                        SettingsView.row("Row cap", "Most rows one unpaged call returns.", "", "limits.maxRows",
                                rows(limits.getMaxRows()), rows(limitsDefault.getMaxRows())),
                        SettingsView.row("Max SQL length", "Longer ad-hoc SQL is refused.", "", "limits.maxSqlLength",
                                size(limits.getMaxSqlLength()), size(limitsDefault.getMaxSqlLength())),
                        SettingsView.row("Max request body", "Larger request bodies are refused.", "",
                                "limits.maxRequestBody", size(limits.getMaxRequestBody()),
                                size(limitsDefault.getMaxRequestBody())))),
                new Section("pool", "Store & metadata cache", "The store's connections, and how long keys and saved"
                        + " queries read from it are trusted.", List.of(
                        SettingsView.row("Metadata cache", "How long keys and saved queries read from the store are"
                                + " kept.", "QUERYAPIGATE_METADATA_CACHE_TTL", "metadataCache.ttl",
                                metadata.getTtl().toMilliseconds() == 0 ? "off" : duration(metadata.getTtl()),
                                duration(new MetadataCacheConfig().getTtl())),
                        SettingsView.row("Store connections", "Pooled store connections.", "", "store.maxConnections",
                                Integer.toString(c.getStore().getMaxConnections()),
                                Integer.toString(new StoreConfig().getMaxConnections())))),
                new Section("traffic", "Rate limits & CORS", "Per-client throttling and browser origins allowed to"
                        + " call the API.", List.of(
                        SettingsView.row("Rate limit", "Calls per client address.", "QUERYAPIGATE_RATE_LIMIT",
                                "limits.perAddress", limits.getPerAddress() == null ? "off" : limits.getPerAddress(),
                                "off"),
                        SettingsView.row("Counted", "Where rate limits, quotas and the response cache are shared.", "",
                                "redis.url", redis == null ? "in this process" : "in Redis", "in this process"),
                        SettingsView.row("CORS origins", "Browser origins allowed to call the API.",
                                "QUERYAPIGATE_CORS_ORIGINS", "security.corsOrigins", security.getCorsOrigins().isEmpty()
                                        ? "off" : String.join(", ", security.getCorsOrigins()), "off"))),
                new Section("shedding", "Load shedding & slow clients", "How many calls wait for a database"
                        + " session, and how slow or greedy a client may be before it is turned away.", List.of(
                        SettingsView.row("Max waiting calls", "Calls of one connection that may wait for a session;"
                                + " one more is refused with 503 overloaded (-1: no bound).", "",
                                "limits.maxWaitingCalls", Integer.toString(limits.getMaxWaitingCalls()),
                                Integer.toString(limitsDefault.getMaxWaitingCalls())),
                        SettingsView.row("Max wait", "The longest a call waits for a session before 503 overloaded.",
                                "", "limits.maxWait", duration(limits.getMaxWait()),
                                duration(limitsDefault.getMaxWait())),
                        SettingsView.row("Header timeout", "How long a request's line and headers may take to"
                                + " arrive (0: only the idle timeout).", "", "limits.headerTimeout",
                                duration(limits.getHeaderTimeout()), duration(limitsDefault.getHeaderTimeout())),
                        SettingsView.row("Min request body rate", "The slowest a request body may arrive, a second,"
                                + " after its first 2 s (0: only the idle timeout).", "", "limits.minRequestBodyRate",
                                size(limits.getMinRequestBodyRate()) + "/s",
                                size(limitsDefault.getMinRequestBodyRate()) + "/s"),
                        SettingsView.row("Max connections per address", "Connections one client address may hold"
                                + " open on a connector (0: no bound).", "", "limits.maxConnectionsPerAddress",
                                Integer.toString(limits.getMaxConnectionsPerAddress()),
                                Integer.toString(limitsDefault.getMaxConnectionsPerAddress())))),
                new Section("history", "Run history", "What each call leaves behind, and for how long.", List.of(
                        SettingsView.row("History limit", "Runs kept per saved-query version.",
                                "QUERYAPIGATE_HISTORY_LIMIT", "events.historyPerVersion",
                                events.getHistoryPerVersion() + " runs", eventsDefault.getHistoryPerVersion() + " runs"),
                        SettingsView.row("Flush interval", "How often the event log is written.",
                                "QUERYAPIGATE_HISTORY_FLUSH_INTERVAL", "events.flushInterval",
                                duration(events.getFlushInterval()), duration(eventsDefault.getFlushInterval())),
                        SettingsView.row("Event retention", "Events older than this are deleted.",
                                "QUERYAPIGATE_EVENTS_RETENTION_HOURS", "events.retentionHours",
                                events.getRetentionHours() + " h", eventsDefault.getRetentionHours() + " h"))),
                new Section("cache", "Response cache", "Where saved queries with a cache_ttl keep their answers.",
                        List.of(
                        SettingsView.row("Cache backend", "Shared through Redis, or in this process.",
                                "QUERYAPIGATE_REDIS_URL", "redis.url", redis == null ? "in-process"
                                        : "Redis (" + withoutCredentials(redis) + ")", "in-process"),
                        SettingsView.row("Cache size", "The in-process cache's bound.", "", "cache.maxSize",
                                size(c.getCache().getMaxSize()), size(new CacheConfig().getMaxSize())))));
    }

    private static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    private static String rows(long n) {
        return n <= 0 ? "unbounded" : n + " rows";
    }

    private static String duration(Duration d) {
        long ms = d.toMilliseconds();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private static String size(DataSize s) {
        return s.toString();
    }

    private static String withoutCredentials(String url) {
        return url.replaceAll("//[^@/]*@", "//***@").replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
