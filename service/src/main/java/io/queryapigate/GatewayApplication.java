package io.queryapigate;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.AuthDynamicFeature;
import io.dropwizard.auth.AuthValueFactoryProvider;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.queryapigate.auth.AdminAuthFilter;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.auth.IpRange;
import io.queryapigate.cache.LocalResponseCache;
import io.queryapigate.cache.Redis;
import io.queryapigate.cache.RedisResponseCache;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.cli.DialectsCommand;
import io.queryapigate.cli.GatewayCheckCommand;
import io.queryapigate.cli.MigrateStoreCommand;
import io.queryapigate.config.SeedQuery;
import io.queryapigate.events.EventLog;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.call.QueryService;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.call.CallRecorder;
import io.queryapigate.call.CallLimits;
import io.queryapigate.call.CallAuthorizer;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectHealthCheck;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.PrivilegeCheck;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.errors.ApiExceptionMapper;
import io.queryapigate.errors.DialectExceptionMapper;
import io.queryapigate.errors.JsonExceptionMapper;
import io.queryapigate.errors.ParamExceptionMapper;
import io.queryapigate.errors.UnexpectedExceptionMapper;
import io.queryapigate.errors.WebApplicationExceptionMapper;
import io.queryapigate.http.RequestIdFilter;
import io.queryapigate.limits.Limiter;
import io.queryapigate.metrics.PrometheusServlet;
import io.queryapigate.limits.Limits;
import io.queryapigate.limits.LocalLimiter;
import io.queryapigate.limits.Rate;
import io.queryapigate.limits.RedisLimiter;
import io.queryapigate.resources.ApiKeysResource;
import io.queryapigate.resources.ExecuteSqlResource;
import io.queryapigate.resources.HealthResource;
import io.queryapigate.resources.QueriesResource;
import io.queryapigate.resources.QueryResource;
import io.queryapigate.store.Store;
import jakarta.servlet.DispatcherType;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.EnumSet;
import org.slf4j.Logger;
import redis.clients.jedis.RedisClient;
import org.slf4j.LoggerFactory;

/** Wires the gateway explicitly: store, dialects, auth, resources, health checks. */
public class GatewayApplication extends Application<GatewayConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayApplication.class);

    public static void main(String[] args) throws Exception {
        new GatewayApplication().run(args);
    }

    @Override
    public String getName() {
        return "queryapigate";
    }

    @Override
    protected void addDefaultCommands(Bootstrap<GatewayConfiguration> bootstrap) {
        bootstrap.addCommand(new io.dropwizard.core.cli.ServerCommand<>(this));
        bootstrap.addCommand(new GatewayCheckCommand(this));
    }

    @Override
    public void initialize(Bootstrap<GatewayConfiguration> bootstrap) {
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)));
        bootstrap.addCommand(new DialectsCommand());
        bootstrap.addCommand(new MigrateStoreCommand());
    }

    @Override
    public void run(GatewayConfiguration config, Environment environment) throws Exception {
        Clock clock = Clock.systemUTC();
        ObjectMapper mapper = environment.getObjectMapper();
        Path home = Path.of(config.getHome()).toAbsolutePath().normalize();
        java.nio.file.Files.createDirectories(home);
        if (config.getServerFactory() instanceof AbstractServerFactory server) {
            server.setRegisterDefaultExceptionMappers(false);
        }

        String storeUrl = Store.resolveUrl(config.getStore().getUrl(), home);
        Store store = Store.open(environment, storeUrl, config.getStore().getUser(), config.getStore().getPassword(),
                config.getStore().getMaxConnections(), home);

        DialectRegistry dialects = DialectRegistry.discover(GatewayApplication.class.getClassLoader());
        Duration serverTimeout = Duration.ofMillis(config.getLimits().getQueryTimeout().toMilliseconds());
        ConnectionRegistry connections = ConnectionRegistry.create(dialects, config.getConnections(), serverTimeout,
                config.getLimits().getMaxRows(), home);
        environment.lifecycle().manage(connections);
        // after the connections (so it stops first): logs what each database user may do beyond reading
        environment.lifecycle().manage(new PrivilegeCheck(connections, PrivilegeCheck.TIMEOUT));
        connections.all().values().forEach(c -> {
            environment.healthChecks().register("connection." + c.name(),
                    new DialectHealthCheck(c.dialect(), Duration.ofSeconds(5)));
            for (String metric : c.dialect().metrics().keySet()) {
                environment.metrics().gauge("connections." + c.name() + "." + metric,
                        () -> () -> c.dialect().metrics().getOrDefault(metric, 0));
            }
        });

        EventLog events = new EventLog(store.jdbi(), config.getEvents().getQueueCapacity(),
                Duration.ofMillis(config.getEvents().getFlushInterval().toMilliseconds()),
                config.getEvents().getHistoryPerVersion(), Duration.ofHours(config.getEvents().getRetentionHours()),
                clock, environment.metrics());
        environment.lifecycle().manage(events);

        long maxSql = config.getLimits().getMaxSqlLength().toBytes();
        MetadataCache cache = new MetadataCache(store,
                Duration.ofMillis(config.getMetadataCache().getTtl().toMilliseconds()),
                config.getMetadataCache().getMaxEntries(), environment.metrics());
        Guarding guarding = new Guarding(new SqlGuard((int) Math.min(Integer.MAX_VALUE, maxSql),
                SqlGuard.DEFAULT_PARSE_TIMEOUT), config.getSecurity().isAllowWrites());
        LocalResponseCache localResponses = new LocalResponseCache(config.getCache().getMaxSize().toBytes(), clock);
        environment.metrics().gauge("cache.entries", () -> localResponses::size);
        ResponseCache responses = localResponses;
        LocalLimiter localLimiter = new LocalLimiter(clock);
        Limiter limiter = localLimiter;
        if (config.getRedis().getUrl() != null && !config.getRedis().getUrl().isBlank()) {
            RedisClient redis;
            try {
                redis = Redis.client(config.getRedis().getUrl(), (int) config.getRedis().getTimeout().toMilliseconds());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            environment.lifecycle().manage(new io.dropwizard.lifecycle.Managed() {
                @Override
                public void stop() {
                    redis.close();
                }
            });
            long retry = config.getRedis().getRetry().toMilliseconds();
            String prefix = config.getRedis().getKeyPrefix();
            responses = new RedisResponseCache(redis, prefix, retry, localResponses, clock, environment.metrics());
            limiter = new RedisLimiter(redis, prefix, localLimiter, clock, retry, environment.metrics());
        }
        Rate perAddress;
        try {
            perAddress = config.getLimits().getPerAddress() == null ? null
                    : Rate.parse(config.getLimits().getPerAddress());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("limits.perAddress: " + e.getMessage(), e);
        }
        List<IpRange> proxies = new ArrayList<>();
        for (String p : config.getSecurity().getTrustedProxies()) {
            try {
                proxies.add(IpRange.parse(p));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("security.trustedProxies: " + e.getMessage(), e);
            }
        }
        ClientAddress clientAddress = new ClientAddress(proxies);
        Limits limits = new Limits(limiter, perAddress, clientAddress, environment.metrics());
        FormatsConfig output = config.getOutput();
        CallLimits callLimits = new CallLimits(config.getLimits().getMaxRows(), maxSql, output.getStreamMaxRows(),
                output.paging(), output.writerOptions());
        QueryService queryService = new QueryService(new SavedQueryResolver(cache, connections, guarding, mapper),
                new CallAuthorizer(), guarding, new Masking(config.getSecurity().getMaskingKey()), responses,
                connections, new CallRecorder(events, environment.metrics(), clock), callLimits,
                environment.metrics(), clock);
        SavedQueries savedQueries = new SavedQueries(store, cache, guarding, connections, mapper, clock, maxSql);
        seed(config, savedQueries);

        if (config.getAdminAuth() != null) {
            // before Dropwizard's own admin filters, for every admin servlet (tasks, threads, metrics, health)
            environment.admin().addFilter("admin-auth", AdminAuthFilter.of(config.getAdminAuth()))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        }
        environment.admin().addServlet("prometheus", new PrometheusServlet(environment.metrics()))
                .addMapping("/metrics");
        environment.admin().addServlet("metrics-json",
                new io.dropwizard.metrics.servlets.MetricsServlet(environment.metrics())).addMapping("/metrics/json");
        environment.servlets().addFilter("request-id",
                        new RequestIdFilter(config.getLimits().getMaxRequestBody().toBytes()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");

        var jersey = environment.jersey();
        jersey.register(new ApiExceptionMapper());
        jersey.register(new DialectExceptionMapper());
        jersey.register(new JsonExceptionMapper());
        jersey.register(new WebApplicationExceptionMapper());
        jersey.register(new ParamExceptionMapper());
        jersey.register(new UnexpectedExceptionMapper());
        jersey.register(new AuthDynamicFeature(new ApiKeyAuthFilter.Builder()
                .setAuthenticator(new ApiKeyAuthenticator(config.getAuth().getAdminKey(), cache, mapper, clock))
                .setPrefix("ApiKey")
                .setRealm("queryapigate")
                .buildAuthFilter()
                .withClientAddress(clientAddress)
                .withKeyCheck(limits::checkKey)));
        jersey.register(limits.new AddressFilter());
        jersey.register(new AuthValueFactoryProvider.Binder<>(Caller.class));
        jersey.register(new HealthResource(version(), clock));
        jersey.register(new QueryResource(queryService, callLimits.paging()));
        jersey.register(new ExecuteSqlResource(queryService, callLimits.paging()));
        jersey.register(new QueriesResource(savedQueries, store.history()));
        jersey.register(new ApiKeysResource(store.keys(), cache, connections, mapper, clock,
                config.getSecurity().getMaskingKey() != null && !config.getSecurity().getMaskingKey().isBlank()));
    }

    private static void seed(GatewayConfiguration config, SavedQueries saved) {
        for (SeedQuery q : config.getSeedQueries()) {
            if (saved.list().stream().anyMatch(existing -> existing.name().equals(q.getName()))) {
                continue;
            }
            SavedQueries.Definition d = saved.validate(q.getSql(), q.getParameters(), q.getConnection(),
                    q.getDescription(), 0);
            saved.create(q.getName(), d, "startup", true);
            LOG.info("Created and published the seed query '{}'", q.getName());
        }
    }

    static String version() {
        String v = GatewayApplication.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
