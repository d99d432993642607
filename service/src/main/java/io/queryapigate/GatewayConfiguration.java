package io.queryapigate;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.dropwizard.logging.common.LoggingFactory;
import io.queryapigate.accesslog.LogFormats;
import io.queryapigate.config.AccessLogConfig;
import io.queryapigate.config.AdminAuthConfig;
import io.queryapigate.config.AuditOutputConfig;
import io.queryapigate.config.AuthConfig;
import io.queryapigate.config.CacheConfig;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.config.AuditConfig;
import io.queryapigate.config.EventsConfig;
import io.queryapigate.config.JwtConfig;
import io.queryapigate.config.LimitsConfig;
import io.queryapigate.config.MetadataCacheConfig;
import io.queryapigate.config.RedisConfig;
import io.queryapigate.config.SecretsConfig;
import io.queryapigate.config.SecurityConfig;
import io.queryapigate.config.SeedQuery;
import io.queryapigate.config.SsoConfig;
import io.queryapigate.config.StoreConfig;
import io.queryapigate.config.TracingConfig;
import io.queryapigate.config.FormatsConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The service's YAML. Every key is described in docs/config-reference.md and in config/quickstart.yml. */
public class GatewayConfiguration extends Configuration {
    @NotEmpty
    private String home = "./data";

    @Valid
    @NotNull
    private StoreConfig store = new StoreConfig();

    @Valid
    @NotNull
    private AuthConfig auth = new AuthConfig();

    /** HTTP Basic authentication for the admin port; null (absent) asks for no credentials there. */
    @Valid
    private AdminAuthConfig adminAuth;

    /** Signed-in users (JWT callers); null (absent) accepts no JWT. */
    @Valid
    private JwtConfig jwt;

    @Valid
    @NotNull
    private LimitsConfig limits = new LimitsConfig();

    @Valid
    @NotNull
    private SecurityConfig security = new SecurityConfig();

    @Valid
    @NotNull
    private EventsConfig events = new EventsConfig();

    @Valid
    @NotNull
    private AuditConfig audit = new AuditConfig();

    @Valid
    @NotNull
    private MetadataCacheConfig metadataCache = new MetadataCacheConfig();

    @Valid
    @NotNull
    private io.queryapigate.config.InstancesConfig instances = new io.queryapigate.config.InstancesConfig();

    @Valid
    @NotNull
    private io.queryapigate.config.AgentWritesConfig agentWrites = new io.queryapigate.config.AgentWritesConfig();

    @Valid
    @NotNull
    private io.queryapigate.config.PluginsConfig plugins = new io.queryapigate.config.PluginsConfig();

    @Valid
    @NotNull
    private io.queryapigate.config.AlertsConfig alerts = new io.queryapigate.config.AlertsConfig();

    @Valid
    @NotNull
    private CacheConfig cache = new CacheConfig();

    @Valid
    @NotNull
    private RedisConfig redis = new RedisConfig();

    @Valid
    @NotNull
    private FormatsConfig output = new FormatsConfig();

    @Valid
    @NotNull
    private SecretsConfig secrets = new SecretsConfig();

    /** Console sign-in through an identity provider; null (absent) turns it off. */
    @Valid
    private SsoConfig sso;

    @Valid
    @NotNull
    private Map<String, ConnectionConfig> connections = new LinkedHashMap<>();

    @Valid
    @NotNull
    private List<SeedQuery> seedQueries = new ArrayList<>();

    @Valid
    @NotNull
    private TracingConfig tracing = new TracingConfig();

    @Valid
    @NotNull
    private AccessLogConfig accessLog = new AccessLogConfig();

    @Valid
    @NotNull
    private io.queryapigate.config.McpConfig mcp = new io.queryapigate.config.McpConfig();

    /** The MCP server (docs/mcp.md). */
    @JsonProperty
    public io.queryapigate.config.McpConfig getMcp() {
        return mcp;
    }

    @JsonProperty
    public void setMcp(io.queryapigate.config.McpConfig mcp) {
        this.mcp = mcp;
    }

    /** SIEM outputs of the audit log, by name (docs/audit.md, "Delivery to a SIEM"); empty: none. */
    @NotNull
    private Map<String, AuditOutputConfig> auditOutputs = new LinkedHashMap<>();

    @JsonProperty
    public Map<String, AuditOutputConfig> getAuditOutputs() {
        return auditOutputs;
    }

    @JsonProperty
    public void setAuditOutputs(Map<String, AuditOutputConfig> auditOutputs) {
        this.auditOutputs = auditOutputs;
    }

    @JsonProperty
    public String getHome() {
        return home;
    }

    @JsonProperty
    public void setHome(String home) {
        this.home = home;
    }

    @JsonProperty
    public StoreConfig getStore() {
        return store;
    }

    @JsonProperty
    public void setStore(StoreConfig store) {
        this.store = store;
    }

    @JsonProperty
    public AuthConfig getAuth() {
        return auth;
    }

    @JsonProperty
    public void setAuth(AuthConfig auth) {
        this.auth = auth;
    }

    @JsonProperty
    public AdminAuthConfig getAdminAuth() {
        return adminAuth;
    }

    @JsonProperty
    public void setAdminAuth(AdminAuthConfig adminAuth) {
        this.adminAuth = adminAuth;
    }

    @JsonProperty
    public JwtConfig getJwt() {
        return jwt;
    }

    @JsonProperty
    public void setJwt(JwtConfig jwt) {
        this.jwt = jwt;
    }

    @JsonProperty
    public SecurityConfig getSecurity() {
        return security;
    }

    @JsonProperty
    public void setSecurity(SecurityConfig security) {
        this.security = security;
    }

    @JsonProperty
    public LimitsConfig getLimits() {
        return limits;
    }

    @JsonProperty
    public void setLimits(LimitsConfig limits) {
        this.limits = limits;
    }

    @JsonProperty
    public FormatsConfig getOutput() {
        return output;
    }

    @JsonProperty
    public void setOutput(FormatsConfig output) {
        this.output = output;
    }

    @JsonProperty
    public RedisConfig getRedis() {
        return redis;
    }

    @JsonProperty
    public void setRedis(RedisConfig redis) {
        this.redis = redis;
    }

    @JsonProperty
    public CacheConfig getCache() {
        return cache;
    }

    @JsonProperty
    public void setCache(CacheConfig cache) {
        this.cache = cache;
    }

    @JsonProperty
    public MetadataCacheConfig getMetadataCache() {
        return metadataCache;
    }

    @JsonProperty
    public void setMetadataCache(MetadataCacheConfig metadataCache) {
        this.metadataCache = metadataCache;
    }

    @JsonProperty
    public io.queryapigate.config.PluginsConfig getPlugins() {
        return plugins;
    }

    @JsonProperty
    public void setPlugins(io.queryapigate.config.PluginsConfig plugins) {
        this.plugins = plugins;
    }

    /** The dialects on the class path and in the plugins folder, for a service whose home is {@code home}. */
    public io.queryapigate.dialect.DialectRegistry dialects(java.nio.file.Path home) {
        ClassLoader service = GatewayConfiguration.class.getClassLoader();
        return io.queryapigate.dialect.DialectRegistry.discover(service, plugins.load(home, service));
    }

    @JsonProperty
    public io.queryapigate.config.AgentWritesConfig getAgentWrites() {
        return agentWrites;
    }

    @JsonProperty
    public void setAgentWrites(io.queryapigate.config.AgentWritesConfig agentWrites) {
        this.agentWrites = agentWrites;
    }

    @JsonProperty
    public io.queryapigate.config.InstancesConfig getInstances() {
        return instances;
    }

    @JsonProperty
    public void setInstances(io.queryapigate.config.InstancesConfig instances) {
        this.instances = instances;
    }

    @JsonProperty
    public io.queryapigate.config.AlertsConfig getAlerts() {
        return alerts;
    }

    @JsonProperty
    public void setAlerts(io.queryapigate.config.AlertsConfig alerts) {
        this.alerts = alerts;
    }

    @JsonProperty
    public EventsConfig getEvents() {
        return events;
    }

    @JsonProperty
    public void setEvents(EventsConfig events) {
        this.events = events;
    }

    @JsonProperty
    public AuditConfig getAudit() {
        return audit;
    }

    @JsonProperty
    public void setAudit(AuditConfig audit) {
        this.audit = audit;
    }

    @JsonProperty
    public SecretsConfig getSecrets() {
        return secrets;
    }

    @JsonProperty
    public void setSecrets(SecretsConfig secrets) {
        this.secrets = secrets;
    }

    @JsonProperty
    public SsoConfig getSso() {
        return sso;
    }

    @JsonProperty
    public void setSso(SsoConfig sso) {
        this.sso = sso;
    }

    @JsonProperty
    public Map<String, ConnectionConfig> getConnections() {
        return connections;
    }

    @JsonProperty
    public void setConnections(Map<String, ConnectionConfig> connections) {
        this.connections = connections;
    }

    @JsonProperty
    public List<SeedQuery> getSeedQueries() {
        return seedQueries;
    }

    @JsonProperty
    public void setSeedQueries(List<SeedQuery> seedQueries) {
        this.seedQueries = seedQueries;
    }

    @JsonProperty
    public TracingConfig getTracing() {
        return tracing;
    }

    @JsonProperty
    public void setTracing(TracingConfig tracing) {
        this.tracing = tracing;
    }

    @JsonProperty
    public AccessLogConfig getAccessLog() {
        return accessLog;
    }

    @JsonProperty
    public void setAccessLog(AccessLogConfig accessLog) {
        this.accessLog = accessLog;
    }

    /**
     * The rules of this configuration that no annotation states, each broken one as a {@code "key: message"} line
     * (every one, not only the first): each connection's dialect installed and its URL's shape, the store and Redis
     * URLs, the JWT issuers, the MCP server, console sign-in, CORS, trusted proxies and the rate limit. Opens nothing
     * (a connection's database is reached only by {@code check --connect} and at startup).
     */
    public List<String> problems() {
        List<String> found = new ArrayList<>();
        io.queryapigate.dialect.DialectRegistry registry = null;
        try {
            registry = dialects(java.nio.file.Path.of(home == null ? "." : home).toAbsolutePath().normalize());
        } catch (RuntimeException e) {
            found.add("plugins: " + e.getMessage());
        }
        for (Map.Entry<String, ConnectionConfig> c : connections.entrySet()) {
            ConnectionConfig connection = c.getValue();
            if (connection == null) {
                found.add("connections." + c.getKey() + ": is empty (give its dialect and url)");
                continue;
            }
            if (registry != null && connection.getDialect() != null) {
                io.queryapigate.dialect.DialectRegistry r = registry;
                rule(found, () -> r.require(connection.getDialect(), c.getKey()));
            }
            String url = connection.urlProblem();
            if (url != null) {
                found.add("connections." + c.getKey() + ".url: " + url);
            }
        }
        for (int i = 0; i < seedQueries.size(); i++) {
            SeedQuery seed = seedQueries.get(i);
            if (seed != null && seed.getParameters() != null && !seed.getParameters().isObject()) {
                found.add("seedQueries[" + i + "].parameters: expected a block of parameter rules (name: {type: int})");
            }
        }
        if (store.getUrl() != null && !store.getUrl().isBlank()) {
            rule(found, () -> io.queryapigate.store.Store.checkUrl(store.getUrl()));
        }
        if (redis.getUrl() != null && !redis.getUrl().isBlank()) {
            rule(found, () -> io.queryapigate.cache.Redis.uri(redis.getUrl()));
        }
        if (jwt != null) {
            rule(found, jwt::validate);
        }
        rule(found, mcp::validate);
        if (sso != null) {
            // a client secret given as a reference is resolved at startup, not here
            rule(found, () -> sso.settings(new io.queryapigate.secrets.SecretResolver() {
                @Override
                public Resolved resolve(String connection, String text) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public boolean isReference(String text) {
                    return false;
                }
            }));
        }
        rule(found, security::buildCors);
        rule(found, security::buildClientAddress);
        if (limits.getPerAddress() != null) {
            try {
                io.queryapigate.limits.Rate.parse(limits.getPerAddress());
            } catch (IllegalArgumentException e) {
                found.add("limits.perAddress: " + e.getMessage());
            }
        }
        return found;
    }

    private static void rule(List<String> found, Runnable check) {
        try {
            check.run();
        } catch (IllegalArgumentException | IllegalStateException e) {
            found.add(e.getMessage());
        } catch (RuntimeException e) {
            // a block with a required key missing, which bean validation reports on its own
        }
    }

    /** Dropwizard's logging, with this gateway's default pattern (trace ids) where none is configured. */
    @Override
    @JsonProperty("logging")
    public synchronized LoggingFactory getLoggingFactory() {
        return LogFormats.application(super.getLoggingFactory());
    }
}
