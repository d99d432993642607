package io.queryapigate.cli;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.configcode.ConfigCode;
import io.queryapigate.configcode.ConfigDirectory;
import io.queryapigate.configcode.Plan;
import io.queryapigate.connections.Connections;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.events.EventLog;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.roles.Roles;
import io.queryapigate.limits.Quotas;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.queries.Definitions;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretReferences;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.Store;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code config export|diff|apply [--prune] [--dry-run] [--json] DIR CONFIG}: configuration as code against this
 * configuration's store ({@link ConfigCode}). {@code export} writes the store's saved queries and keys into DIR,
 * one file each; {@code diff} prints what applying DIR would change; {@code apply} makes the store match it in one
 * transaction. A directory with problems prints every one, at its file and line, and changes nothing. The store is
 * migrated first; the configuration's connections are opened as startup opens them, since queries are checked
 * (and their result columns described) on them.
 */
public final class ConfigCommand extends ConfiguredCommand<GatewayConfiguration> {
    private final PrintStream out;

    public ConfigCommand() {
        this(System.out);
    }

    /** A command that prints its plans and reports to {@code out}. */
    public ConfigCommand(PrintStream out) {
        super("config", "Configuration as code: export the store as a directory, diff or apply one");
        this.out = out;
    }

    @Override
    public void configure(Subparser subparser) {
        subparser.addArgument("action").choices("export", "diff", "apply")
                .help("export: write the store into DIR; diff: print what applying DIR would change; apply: make the"
                        + " store match DIR, all or nothing");
        subparser.addArgument("dir").help("the configuration directory (connections/NAME.yaml, queries/NAME.yaml,"
                + " api_keys/NAME.yaml, roles/NAME.yaml, descriptions/CONNECTION.yaml)");
        super.configure(subparser);
        subparser.addArgument("--prune").dest("prune").action(Arguments.storeTrue())
                .help("diff/apply: also delete what a directory applied earlier owned and DIR no longer declares");
        subparser.addArgument("--dry-run").dest("dry_run").action(Arguments.storeTrue())
                .help("apply: print the plan; change nothing");
        subparser.addArgument("--json").dest("json").action(Arguments.storeTrue())
                .help("diff/apply: print the plan as the API answers it");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace ns, GatewayConfiguration config)
            throws Exception {
        Path home = Path.of(config.getHome()).toAbsolutePath().normalize();
        Files.createDirectories(home);
        String url = Store.resolveUrl(config.getStore().getUrl(), home);
        Store.migrate(url, config.getStore().getUser(), config.getStore().getPassword());
        Store store = Store.connect(url, config.getStore().getUser(), config.getStore().getPassword());
        DialectRegistry dialects = config.dialects(home);
        ConnectionRegistry connections = ConnectionRegistry.create(dialects, config.getConnections(),
                config.getLimits().queryTimeoutValue(), config.getLimits().getMaxRows(), home);
        Map<String, String> variables = System.getenv();
        Clock clock = Clock.systemUTC();
        AuditLog audit = config.getAudit().build(store, variables, clock);
        try (SecretReferences secrets = config.getSecrets().build(variables, clock)) {
            Connections stored = new Connections(store, connections, dialects,
                    SecretBox.of(variables.get(SecretBox.VARIABLE)), secrets,
                    bootstrap.getValidatorFactory().getValidator(), bootstrap.getObjectMapper(), clock,
                    Duration.ofSeconds(1), audit);
            stored.live().sync(); // the stored connections, so that queries on them are checked as the server does
            ConfigCode code = configCode(config, store, connections, stored, bootstrap.getObjectMapper(), audit);
            Acting.as(Actor.cli("config " + ns.getString("action")), () -> {
                try {
                    run(ns, code, out);
                } catch (Exception e) {
                    throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
                }
                return null;
            });
        } finally {
            connections.stop();
        }
    }

    private static void run(Namespace ns, ConfigCode code, PrintStream out) throws Exception {
        Path dir = Path.of(ns.getString("dir"));
        boolean prune = Boolean.TRUE.equals(ns.getBoolean("prune"));
        boolean json = Boolean.TRUE.equals(ns.getBoolean("json"));
        switch (ns.getString("action")) {
            case "export" -> {
                ConfigCode.Export export = code.export();
                List<String> removed = ConfigDirectory.write(dir, export.files());
                out.println("Wrote " + export.files().size() + " file(s) to " + dir);
                removed.forEach(path -> out.println("Removed " + path + ": the store has no such object"));
                export.skipped().forEach(name -> out.println("Left out saved query " + name
                        + ": it has no published version"));
            }
            case "diff" -> print(code.diff(read(dir), prune), json, out);
            default -> {
                if (Boolean.TRUE.equals(ns.getBoolean("dry_run"))) {
                    print(code.diff(read(dir), prune), json, out);
                    out.println("Dry run: nothing was changed.");
                    return;
                }
                ConfigCode.Applied applied = code.apply(read(dir), prune, "cli");
                print(applied.plan(), json, out);
                out.println(applied.applied() ? "Applied: the store matches " + dir + " (sha256 "
                        + applied.directorySha256().substring(0, 12) + ")." : "Nothing to apply.");
            }
        }
    }

    private static Map<String, String> read(Path dir) {
        try {
            return ConfigDirectory.read(dir);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "invalid_config", e.getMessage());
        }
    }

    private static void print(Plan plan, boolean json, PrintStream out) throws Exception {
        out.print(json ? new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(plan.toJson()) + "\n"
                : plan.render());
    }

    /** The services an apply goes through, as the server builds them, on this command's own store connection. */
    private static ConfigCode configCode(GatewayConfiguration config, Store store, ConnectionRegistry connections,
            Connections stored, ObjectMapper mapper, AuditLog audit) {
        Clock clock = Clock.systemUTC();
        MetricRegistry metrics = new MetricRegistry();
        long maxSql = config.getLimits().getMaxSqlLength().toBytes();
        Guarding guarding = new Guarding(new SqlGuard((int) Math.min(Integer.MAX_VALUE, maxSql),
                SqlGuard.DEFAULT_PARSE_TIMEOUT), config.getSecurity().isAllowWrites());
        MetadataCache cache = new MetadataCache(store, Duration.ZERO, 1, metrics);
        ManagedObjects managed = new ManagedObjects(store.managed());
        EventLog events = new EventLog(store.jdbi(), 1, Duration.ofSeconds(1), config.getEvents().getHistoryPerVersion(),
                Duration.ofHours(config.getEvents().getRetentionHours()), clock, metrics);
        SavedQueries queries = new SavedQueries(store, cache, new Definitions(guarding, connections, maxSql), events,
                mapper, clock, managed, audit);
        Quotas quotas = new Quotas(store.usage(), clock, ZoneId.systemDefault(), null, "", 0, metrics);
        ApiKeys keys = new ApiKeys(store.keys(), store.roles(), cache, quotas, mapper, clock, managed, audit);
        String maskingKey = config.getSecurity().getMaskingKey();
        Roles roles = new Roles(store.roles(), cache, managed, mapper, clock, audit);
        return new ConfigCode(store, queries, keys, roles, managed, new Descriptions(store, connections, clock,
                audit), connections, stored, cache, maskingKey != null && !maskingKey.isBlank(), mapper, clock,
                audit);
    }

    /** A directory with problems, or a refused apply, says so without a stack trace. */
    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        if (e instanceof ApiException api) {
            cli.getStdErr().println("queryapigate config " + namespace.getString("action") + ": " + api.getMessage());
            api.errors().forEach((where, problem) -> cli.getStdErr().println("  " + where + ": " + problem));
        } else if (!GatewayServerCommand.printedProblems(cli, e)) {
            super.onError(cli, namespace, e);
        }
    }
}
