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
import io.queryapigate.admins.AdminTokenAuthenticator;
import io.queryapigate.admins.Administrators;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.CapabilityFeature;
import io.queryapigate.resources.WorkspacesResource;
import io.queryapigate.scope.Scope;
import io.queryapigate.workspaces.WorkspacePrefix;
import io.queryapigate.workspaces.WorkspaceSettling;
import io.queryapigate.workspaces.Workspaces;
import io.queryapigate.auth.Credentials;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.jwt.JwtAuthenticator;
import io.queryapigate.store.PrincipalDao;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.audit.AuditEntries;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.audit.AuditVerifier;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.cli.AdminsCommand;
import io.queryapigate.cli.AuditCommand;
import io.queryapigate.cli.ConfigCommand;
import io.queryapigate.cli.DialectsCommand;
import io.queryapigate.cli.GatewayCheckCommand;
import io.queryapigate.cli.ImportPythonCommand;
import io.queryapigate.cli.MigrateStoreCommand;
import io.queryapigate.cli.RekeyCommand;
import io.queryapigate.config.SeedQuery;
import io.queryapigate.connections.Connections;
import io.queryapigate.events.EventLog;
import io.queryapigate.alerts.Alerts;
import io.queryapigate.dialect.ConnectionHealth;
import io.queryapigate.instances.Instances;
import io.queryapigate.resources.AlertsResource;
import io.queryapigate.resources.InstancesResource;
import io.queryapigate.resources.QuotaUsageResource;
import io.queryapigate.resources.AgentUsageResource;
import io.queryapigate.store.AlertsDao;
import io.queryapigate.store.InstanceDao;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.call.QueryService;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.config.LimitsConfig;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.call.CallRecorder;
import io.queryapigate.call.CallLimits;
import io.queryapigate.call.CallAuthorizer;
import io.queryapigate.cache.CacheEntries;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.collections.PostmanExport;
import io.queryapigate.collections.QueryCollections;
import io.queryapigate.configcode.ConfigCode;
import io.queryapigate.docs.DocsPage;
import io.queryapigate.docs.SwaggerUi;
import io.queryapigate.examples.Examples;
import io.queryapigate.history.AgentUsage;
import io.queryapigate.history.RunHistory;
import io.queryapigate.queries.Definition;
import io.queryapigate.queries.Definitions;
import io.queryapigate.queries.QueryAnalysis;
import io.queryapigate.queries.QueryViews;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.errors.ApiExceptionMapper;
import io.queryapigate.errors.DialectExceptionMapper;
import io.queryapigate.errors.JettyErrorPages;
import io.queryapigate.errors.JsonExceptionMapper;
import io.queryapigate.errors.ParamExceptionMapper;
import io.queryapigate.errors.SecretUnavailableMapper;
import io.queryapigate.errors.UnexpectedExceptionMapper;
import io.queryapigate.errors.WebApplicationExceptionMapper;
import io.queryapigate.accesslog.CallerAttribute;
import io.queryapigate.accesslog.LogFormats;
import io.queryapigate.accesslog.RedactingRequestLog;
import io.queryapigate.http.Cors;
import io.queryapigate.tracing.AuthSpans;
import io.queryapigate.tracing.RequestSpans;
import io.queryapigate.tracing.RouteNames;
import io.queryapigate.tracing.Tracing;
import io.queryapigate.http.ConnectionsPerAddress;
import io.queryapigate.http.HeaderTimeout;
import io.queryapigate.http.RequestIdFilter;
import io.queryapigate.http.SecurityHeaders;
import io.queryapigate.http.UnroutedMethods;
import io.queryapigate.metrics.AllocationGauge;
import io.queryapigate.metrics.PrometheusServlet;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.keys.Narrowing;
import io.queryapigate.limits.Concurrency;
import io.queryapigate.limits.Limits;
import io.queryapigate.limits.Quotas;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.resources.AdministratorsResource;
import io.queryapigate.resources.ApiKeysResource;
import io.queryapigate.resources.AuditResource;
import io.queryapigate.resources.RolesResource;
import io.queryapigate.resources.WriteRequestsResource;
import io.queryapigate.agentwrites.AgentWrites;
import io.queryapigate.roles.RoleCache;
import io.queryapigate.roles.Roles;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.resources.DescriptionsResource;
import io.queryapigate.resources.SchemaResource;
import io.queryapigate.schema.SchemaBrowser;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.resources.CacheEntriesResource;
import io.queryapigate.resources.CollectionsResource;
import io.queryapigate.resources.ConfigResource;
import io.queryapigate.resources.ConnectionsResource;
import io.queryapigate.resources.DocsResource;
import io.queryapigate.console.ConsoleAssets;
import io.queryapigate.console.ConsoleResource;
import io.queryapigate.resources.ExamplesResource;
import io.queryapigate.resources.AuditDeliveryResource;
import io.queryapigate.resources.ExecuteMongoResource;
import io.queryapigate.resources.ExecuteSqlResource;
import io.queryapigate.resources.HealthResource;
import io.queryapigate.resources.EventsResource;
import io.queryapigate.resources.HistoryResource;
import io.queryapigate.resources.MeResource;
import io.queryapigate.resources.SettingsResource;
import io.queryapigate.resources.SsoResource;
import io.queryapigate.sso.ConsoleSessions;
import io.queryapigate.sso.ConsoleSignIn;
import io.queryapigate.resources.QueriesResource;
import io.queryapigate.resources.QueryResource;
import io.queryapigate.resources.OpenApiResource;
import io.queryapigate.secrets.Rekey;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretKeyCheck;
import io.queryapigate.secrets.SecretReferences;
import io.queryapigate.openapi.CallableQueries;
import io.queryapigate.openapi.Catalog;
import io.queryapigate.openapi.ManagementDocs;
import io.queryapigate.openapi.OpenApiDocument;
import io.queryapigate.openapi.Routes;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretReferences;
import io.queryapigate.siem.AuditDelivery;
import io.queryapigate.config.AuditOutputConfig;
import io.queryapigate.store.Store;
import io.queryapigate.config.McpConfig;
import io.queryapigate.mcp.McpEndpoint;
import io.queryapigate.mcp.McpOAuth;
import io.queryapigate.mcp.McpResources;
import io.queryapigate.mcp.McpTools;
import io.queryapigate.mcp.ToolCalls;
import io.queryapigate.mcp.AgentWriteTools;
import io.queryapigate.mcp.WriteTools;
import io.queryapigate.resources.McpStatusResource;
import io.queryapigate.cli.McpCommand;
import jakarta.servlet.DispatcherType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.EnumSet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import redis.clients.jedis.RedisClient;
import org.slf4j.LoggerFactory;

/** Wires the gateway explicitly: store, dialects, auth, resources, health checks. */
public class GatewayApplication extends Application<GatewayConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayApplication.class);
    private volatile AgentWrites agentWrites;

    private volatile QueryService calls;
    private volatile Credentials credentials;

    public static void main(String[] args) throws Exception {
        new GatewayApplication().run(args);
    }

    @Override
    public String getName() {
        return "queryapigate";
    }

    /** Agents' writes through saved queries (the MCP server's write tools); null until {@code run} built them. */
    public AgentWrites agentWrites() {
        return agentWrites;
    }

    @Override
    protected void addDefaultCommands(Bootstrap<GatewayConfiguration> bootstrap) {
        bootstrap.addCommand(new io.queryapigate.cli.GatewayServerCommand(this));
        bootstrap.addCommand(new GatewayCheckCommand(this));
    }

    @Override
    public void initialize(Bootstrap<GatewayConfiguration> bootstrap) {
        bootstrap.setConfigurationFactoryFactory(
                io.queryapigate.config.CheckingConfigurationFactory.factories(GatewayConfiguration::problems));
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)));
        bootstrap.addCommand(new DialectsCommand());
        bootstrap.addCommand(new MigrateStoreCommand());
        bootstrap.addCommand(new ImportPythonCommand());
        bootstrap.addCommand(new RekeyCommand());
        bootstrap.addCommand(new ConfigCommand());
        bootstrap.addCommand(new AdminsCommand());
        bootstrap.addCommand(new AuditCommand());
        bootstrap.addCommand(new McpCommand(this, () -> {
            Mcp built = mcp();
            return new McpCommand.Served(built.endpoint(), built.credentials());
        }));
    }

    /** The call pipeline this application runs, once it runs: for front doors in the same process, and tests. */
    public QueryService calls() {
        return calls;
    }

    /** What turns a presented secret into its caller, once the application runs (as {@link #calls()}). */
    public Credentials credentials() {
        return credentials;
    }

    @Override
    public void run(GatewayConfiguration config, Environment environment) throws Exception {
        Clock clock = Clock.systemUTC();
        ObjectMapper mapper = environment.getObjectMapper();
        Path home = Files.createDirectories(Path.of(config.getHome()).toAbsolutePath().normalize());
        if (config.getServerFactory() instanceof AbstractServerFactory server) {
            server.setRegisterDefaultExceptionMappers(false);
        }

        Store store = config.getStore().build(environment, home);
        Map<String, String> variables = environmentVariables();
        SecretBox secretBox = SecretBox.of(variables.get(SecretBox.VARIABLE));
        SecretKeyCheck.verify(store.jdbi(), secretBox);
        AuditLog audit = config.getAudit().build(store, variables, clock);
        audit.recordKeyAtStartup();
        Administrators administrators = new Administrators(store.jdbi(), config.getAuth().getAdminKey() != null, clock,
                audit);
        administrators.requireAnOwner();
        SecretReferences secretReferences = config.getSecrets().build(variables, clock);
        environment.lifecycle().manage(new io.dropwizard.lifecycle.AutoCloseableManager(secretReferences));
        DialectRegistry dialects = config.dialects(home);
        ConnectionRegistry connections = ConnectionRegistry.create(dialects, config.getConnections(),
                config.getLimits().queryTimeoutValue(), config.getLimits().getMaxRows(), home).manage(environment);
        EventLog events = config.getEvents().build(store.jdbi(), clock, environment,
                io.queryapigate.store.StoreFaults.of(store.url(), clock));
        MetadataCache cache = config.getMetadataCache().build(store, environment.metrics());
        Connections managedConnections = connections(config, environment, store, dialects, connections, secretBox,
                secretReferences, clock, audit);
        long maxSql = config.getLimits().getMaxSqlLength().toBytes();
        Guarding guarding = new Guarding(new SqlGuard((int) Math.min(Integer.MAX_VALUE, maxSql),
                SqlGuard.DEFAULT_PARSE_TIMEOUT), config.getSecurity().isAllowWrites());
        RedisClient redis = config.getRedis().build(environment);
        ClientAddress clientAddress = config.getSecurity().buildClientAddress();
        Limits limits = config.getLimits().build(redis, config.getRedis(), clientAddress, clock,
                environment.metrics());
        Quotas quotas = config.getLimits().buildQuotas(store.usage(), redis, config.getRedis(), clock, environment);

        Tracing tracing = config.getTracing().build(variables, version());
        environment.lifecycle().manage(new io.dropwizard.lifecycle.AutoCloseableManager(tracing));
        FormatsConfig output = config.getOutput();
        CallLimits callLimits = new CallLimits(config.getLimits().getMaxRows(), maxSql, output.getStreamMaxRows(),
                output.paging(), output.writerOptions());
        ResponseCache responses = config.getCache().build(redis, config.getRedis(), clock, environment);
        SavedQueryResolver resolver = new SavedQueryResolver(cache, connections, guarding, mapper);
        QueryService queries = new QueryService(resolver,
                new CallAuthorizer(), guarding, new Masking(config.getSecurity().getMaskingKey()), responses,
                connections, new CallRecorder(events, environment.metrics(), clock, tracing), callLimits, quotas,
                new Concurrency(), environment.metrics(), clock, tracing,
                config.getLimits().buildAdmission(environment.metrics()));
        this.calls = queries;
        ManagedObjects managed = new ManagedObjects(store.managed());
        SavedQueries savedQueries = new SavedQueries(store, cache, new Definitions(guarding, connections, maxSql),
                events, mapper, clock, managed, audit);
        Acting.as(Actor.STARTUP, () -> {
            seed(config, savedQueries);
            return null;
        });
        ApiKeys apiKeys = new ApiKeys(store.keys(), store.roles(), cache, quotas, mapper, clock, managed, audit);
        // API-key roles as authentication reads them (from memory, per metadata-cache TTL): keys made from a role, and
        // signed-in users whose role claim names one
        RoleGrants roleGrants = new RoleCache(cache, mapper);
        Roles roles = new Roles(store.roles(), cache, managed, mapper, clock, audit);
        Examples examples = new Examples(store, savedQueries, apiKeys, connections, cache, mapper, clock, home, audit);
        examples.restore();
        Thread.ofVirtual().name("describe-unknown-columns").start(() -> {
            try {
                int described = savedQueries.describeUnknown();
                if (described > 0) {
                    LOG.info("Described the result columns of {} published saved queries saved without them",
                            described);
                }
            } catch (RuntimeException e) { // the store went away (a stop while starting); the next start tries again
                LOG.warn("Could not describe the saved queries' unknown result columns: {}", e.toString());
            }
        });

        registerAdmin(config, environment);
        if (tracing.on()) { // the request's span around everything, the request id's filter included
            environment.servlets().addFilter("request-spans", new RequestSpans(tracing))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        }
        environment.servlets().addFilter("request-id",
                        new RequestIdFilter(config.getLimits().getMaxRequestBody().toBytes(),
                                config.getLimits().getMinRequestBodyRate().toBytes()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        environment.servlets().addFilter("unrouted-methods", new UnroutedMethods("jersey"))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        SecurityHeaders securityHeaders = new SecurityHeaders(DocsPage.CSP, config.getSecurity().getHstsMaxAge(),
                clientAddress::trustedProxy);
        Cors cors = config.getSecurity().buildCors();
        if (cors != null) { // before authentication: a preflight carries no key
            environment.getApplicationContext().insertHandler(cors);
        }
        environment.getApplicationContext().insertHandler(securityHeaders.handler());
        environment.getAdminContext().insertHandler(securityHeaders.handler());
        LogFormats.requests(config.getServerFactory());
        boolean queryValues = config.getAccessLog().isQueryValues();
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle server) {
                if (server instanceof Server jetty) {
                    jetty.setErrorHandler(new JettyErrorPages(securityHeaders));
                    guardConnections(jetty, config.getLimits());
                    if (jetty.getRequestLog() != null && !(jetty.getRequestLog() instanceof RedactingRequestLog)) {
                        jetty.setRequestLog(new RedactingRequestLog(jetty.getRequestLog(), queryValues));
                    }
                }
            }
        });
        ConsoleSessions consoleSessions = new ConsoleSessions(store.jdbi(), config.getSso() == null
                ? java.time.Duration.ofHours(8) : config.getSso().sessionTtlValue(), clock, config.getAuth().getAdminKey());
        ConsoleSignIn consoleSignIn = config.getSso() == null ? null
                : config.getSso().build(store.jdbi(), secretReferences, mapper, clock, audit, consoleSessions);
        var jersey = environment.jersey();
        List.of(new ApiExceptionMapper(), new DialectExceptionMapper(), new JsonExceptionMapper(),
                new WebApplicationExceptionMapper(), new ParamExceptionMapper(), new SecretUnavailableMapper(),
                new UnexpectedExceptionMapper(events.faults()))
                .forEach(jersey::register);
        config.getMcp().validate();
        Credentials credentials = new Credentials(new ApiKeyAuthenticator(config.getAuth().getAdminKey(), cache,
                mapper, clock, roleGrants, Narrowing::apply))
                .withAdminTokens(new AdminTokenAuthenticator(store.jdbi(), clock));
        if (config.getJwt() != null) {
            credentials.withJwt(new JwtAuthenticator(config.getJwt(), roleGrants,
                    store.jdbi().onDemand(PrincipalDao.class), clock));
        }
        this.credentials = credentials;
        var authenticator = AuthSpans.around(credentials, tracing);
        jersey.register(new AuthDynamicFeature(new ApiKeyAuthFilter.Builder()
                .setAuthenticator(authenticator)
                .setPrefix("ApiKey")
                .setRealm("queryapigate")
                .buildAuthFilter()
                .withClientAddress(clientAddress)
                .withAnonymous(path -> config.getSecurity().isPublicSpec()
                        && OpenApiResource.PUBLIC_PATHS.contains(path))
                .withKeyCheck(limits::checkKey)
                .withSessions(consoleSessions)));
        jersey.register(limits.new AddressFilter());
        jersey.register(quotas.new HeaderFilter());
        jersey.register(securityHeaders);
        if (LogFormats.requestLogOn(config.getServerFactory())) { // else no call pays for naming its caller
            jersey.register(new CallerAttribute());
        }
        if (tracing.on()) {
            jersey.register(new RouteNames());
        }
        jersey.register(new AuthValueFactoryProvider.Binder<>(Caller.class));
        jersey.register(new CapabilityFeature());
        jersey.register(new Acting(clientAddress));
        jersey.register(new AuditResource(new AuditEntries(store.jdbi(), audit.maxEntries(), mapper),
                new AuditVerifier(store.jdbi(), audit.chain())));
        Workspaces workspaces = new Workspaces(store, clock,
                java.time.Duration.ofMillis(config.getMetadataCache().getTtl().toMilliseconds()), audit);
        jersey.register(new WorkspacePrefix());
        WorkspaceSettling settling = new WorkspaceSettling(workspaces);
        jersey.register(settling);
        jersey.register(new WorkspacesResource(workspaces, mapper));
        // Dropwizard's health module (the stop's wait period) is set up only when the YAML has a health block
        boolean healthModule = config.getHealthFactory().isPresent();
        jersey.register(new HealthResource(version(), clock, () -> healthModule
                && environment.health().healthStateAggregator() instanceof io.dropwizard.health.HealthStatusChecker c
                && !c.isHealthy()));
        jersey.register(new QueryResource(queries, callLimits.paging()));
        jersey.register(new ExecuteSqlResource(queries, callLimits.paging()));
        jersey.register(new ExecuteMongoResource(queries, callLimits.paging()));
        RunHistory history = new RunHistory(store, events, quotas, audit);
        QueryCollections collections = new QueryCollections(savedQueries);
        Descriptions descriptions = new Descriptions(store, connections, clock, audit);
        managedConnections.whenPurged(descriptions::forget);
        jersey.register(new QueriesResource(savedQueries, new QueryViews(savedQueries, descriptions),
                new QueryAnalysis(savedQueries.definitions()), history));
        jersey.register(new HistoryResource(history));
        jersey.register(new AgentUsageResource(new AgentUsage(store, events, history, clock::millis)));
        jersey.register(new EventsResource(config.getEvents().getLive().build(store, config.getStore(), history,
                environment), credentials, consoleSessions));
        jersey.register(new CacheEntriesResource(new CacheEntries(responses, clock, about -> about == null
                ? Scope.owns(Scope.DEFAULT)
                : cache.queryByName(about.query()).map(q -> Scope.owns(q.workspace())).orElse(false))));
        PostmanExport postman = new PostmanExport(collections, savedQueries);
        jersey.register(new CollectionsResource(collections, postman));
        jersey.register(new ExamplesResource(examples));
        jersey.register(new ApiKeysResource(apiKeys, quotas,
                connections, mapper, clock,
                config.getSecurity().getMaskingKey() != null && !config.getSecurity().getMaskingKey().isBlank(),
                new ApiKeysResource.ServerLimits(config.getLimits().queryTimeoutValue().toMillis() / 1000.0,
                        output.getMaxPageSize(), output.getStreamMaxRows())));
        jersey.register(new RolesResource(roles, managed, connections, mapper,
                config.getSecurity().getMaskingKey() != null && !config.getSecurity().getMaskingKey().isBlank()));
        SchemaBrowser schemaBrowser = new SchemaBrowser(connections, descriptions,
                config.getMetadataCache().schemaTtlValue(), clock);
        jersey.register(new SchemaResource(schemaBrowser, apiKeys));
        jersey.register(new DescriptionsResource(descriptions));
        jersey.register(new ConfigResource(new ConfigCode(store, savedQueries, apiKeys, roles, managed, descriptions,
                connections, managedConnections, cache, config.getSecurity().getMaskingKey() != null
                        && !config.getSecurity().getMaskingKey().isBlank(), mapper, clock, audit), mapper));
        jersey.register(new MeResource());
        agentWrites = new AgentWrites(store.jdbi(), audit, queries, resolver, guarding, mapper, clock,
                config.getAgentWrites().approval());
        jersey.register(new WriteRequestsResource(agentWrites));
        jersey.register(new AdministratorsResource(administrators, mapper, clock));
        jersey.register(new SsoResource(consoleSignIn, consoleSessions, credentials));
        jersey.register(new ConnectionsResource(managedConnections, mapper));
        jersey.register(new SettingsResource(SettingsReport.of(config), new Rekey(store.jdbi(), secretBox,
                (action, changes) -> audit.append(action, "secret_key", changes))));
        Instances instances = new Instances(store.jdbi().onDemand(InstanceDao.class), clock, version(),
                store.url().startsWith("jdbc:postgresql:") ? "postgresql" : "sqlite", redis != null,
                config.getInstances().heartbeat());
        environment.lifecycle().manage(instances);
        AuditDelivery auditDelivery = AuditOutputConfig.build(config.getAuditOutputs(), variables, store.jdbi(), clock,
                mapper, version(), instances.id(), environment);
        audit.onAppended(auditDelivery::wake);
        jersey.register(new AuditDeliveryResource(auditDelivery, mapper));
        ConnectionHealth health = new ConnectionHealth(connections, clock, config.getAlerts().healthInterval(),
                config.getAlerts().healthTimeout());
        environment.lifecycle().manage(health);
        jersey.register(new AlertsResource(new Alerts(apiKeys, quotas, limits.refusals(),
                store.jdbi().onDemand(AlertsDao.class), instances, health, connections, events,
                Alerts.Settings.of(config.getAlerts()), clock), mapper, clock));
        jersey.register(new InstancesResource(instances, mapper));
        jersey.register(new QuotaUsageResource(apiKeys, quotas, mapper));
        jersey.register(new DocsResource(DocsPage.of(
                SwaggerUi.fromClassPath(GatewayApplication.class.getClassLoader()))));
        jersey.register(new ConsoleResource(ConsoleAssets.load(), version()));
        jersey.register(new ConsoleResource.OldAddress());
        Routes routes = new Routes();
        jersey.register(routes);
        CallableQueries callable = new CallableQueries(savedQueries, v -> savedQueries.resultColumns(v).orElse(null));
        Catalog catalog = new Catalog(mapper, config.getLimits().getPerAddress(), config.getSecurity().isAllowWrites());
        jersey.register(new OpenApiResource(new OpenApiDocument(version(), output.getDefaultPageSize(),
                output.getMaxPageSize(), routes, ManagementDocs.load()), callable, catalog, postman));

        McpConfig mcpConfig = config.getMcp();
        WriteTools writeTools = new AgentWriteTools(agentWrites, callable, savedQueries, resolver, mapper);
        mcp = new McpEndpoint(mcpConfig,
                new McpTools(callable, savedQueries, resolver, writeTools, mcpConfig.getMaxRows()),
                new ToolCalls(queries, resolver, savedQueries, schemaBrowser, quotas, writeTools, mapper,
                        mcpConfig.getMaxRows()),
                new McpResources(callable, catalog, connections, schemaBrowser, mapper), version());
        mcpCredentials = authenticator;
        jersey.register(new McpStatusResource(mcp, apiKeys));
        if (mcpConfig.isEnabled()) {
            JwtAuthenticator oauthTokens = mcpConfig.getOauth() == null ? null : new JwtAuthenticator(
                    McpOAuth.issuers(mcpConfig.getOauth()), roleGrants, store.jdbi().onDemand(PrincipalDao.class),
                    clock);
            mcp.serveHttp(environment, authenticator, oauthTokens, limits, clientAddress, settling,
                    config.getLimits().getMaxRequestBody().toBytes());
        }
    }

    private McpEndpoint mcp;
    private io.dropwizard.auth.Authenticator<String, Caller> mcpCredentials;

    /** Every connector's bounds on slow headers and on the connections one address holds (limits.*). */
    private static void guardConnections(Server jetty, LimitsConfig limits) {
        long headerTimeout = limits.getHeaderTimeout().toMilliseconds();
        for (org.eclipse.jetty.server.Connector connector : jetty.getConnectors()) {
            if (headerTimeout > 0) {
                connector.addBean(new HeaderTimeout(java.time.Duration.ofMillis(headerTimeout),
                        connector.getScheduler()));
            }
            if (limits.getMaxConnectionsPerAddress() > 0) {
                connector.addBean(new ConnectionsPerAddress(limits.getMaxConnectionsPerAddress()));
            }
        }
    }

    /** The MCP server this process built in {@link #run}, for {@code mcp --stdio}, and REST's authenticator. */
    public record Mcp(McpEndpoint endpoint, io.dropwizard.auth.Authenticator<String, Caller> credentials) {}

    Mcp mcp() {
        return new Mcp(mcp, mcpCredentials);
    }

    /**
     * Connections managed through the API: passwords sealed with the keys in {@value SecretBox#VARIABLE}, references
     * resolved by the configured providers; the stored ones opened now, then kept in step with the store, checked
     * once per metadata-cache TTL (at least a second).
     */
    private static Connections connections(GatewayConfiguration config, Environment environment, Store store,
            DialectRegistry dialects, ConnectionRegistry registry, SecretBox box, SecretReferences secrets,
            Clock clock, AuditLog audit) {
        java.time.Duration ttl = java.time.Duration.ofMillis(config.getMetadataCache().getTtl().toMilliseconds());
        Connections managed = new Connections(store, registry, dialects, box, secrets, environment.getValidator(),
                environment.getObjectMapper(), clock,
                ttl.compareTo(java.time.Duration.ofSeconds(1)) < 0 ? java.time.Duration.ofSeconds(1) : ttl, audit);
        managed.live().sync();
        environment.lifecycle().manage(managed.live());
        return managed;
    }

    /** The process's environment (secret keys, references); tests give their own. */
    protected Map<String, String> environmentVariables() {
        return System.getenv();
    }

    /** The admin port: its optional authentication (first, for every admin servlet) and the metrics servlets. */
    private static void registerAdmin(GatewayConfiguration config, Environment environment) {
        if (config.getAdminAuth() != null) {
            environment.admin().addFilter("admin-auth", config.getAdminAuth().buildFilter())
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        }
        AllocationGauge.register(environment.metrics());
        environment.admin().addServlet("prometheus", new PrometheusServlet(environment.metrics()))
                .addMapping("/metrics");
        environment.admin().addServlet("metrics-json",
                new io.dropwizard.metrics.servlets.MetricsServlet(environment.metrics())).addMapping("/metrics/json");
    }

    private static void seed(GatewayConfiguration config, SavedQueries saved) {
        for (SeedQuery q : config.getSeedQueries()) {
            if (saved.list().stream().anyMatch(existing -> existing.name().equals(q.getName()))) {
                continue;
            }
            Definition d = saved.definitions().define(q.getSql(), q.getParameters(), q.getConnection(),
                    q.getDescription(), "startup", 0, List.of());
            saved.create(q.getName(), d, null, true);
            LOG.info("Created and published the seed query '{}'", q.getName());
        }
    }

    static String version() {
        String v = GatewayApplication.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
