package io.queryapigate.cli;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.importer.ImportException;
import io.queryapigate.importer.PythonImporter;
import io.queryapigate.importer.PythonImporter.OnConflict;
import io.queryapigate.importer.PythonImporter.Options;
import io.queryapigate.importer.TargetStore;
import io.queryapigate.queries.Definitions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Locale;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code import-python --from HOME|FILE|URL [--dry-run] [--with-history] [--on-conflict fail|skip|rename]
 * [--skip-invalid] [--connections-out FILE] [--workspace NAME] [--time-zone ZONE] CONFIG}: moves the Python
 * original's saved queries, API keys and (optionally) run history into this configuration's store, and writes its
 * connections as YAML to review ({@link PythonImporter}). Every version is validated as saving it here would, so
 * the connections it uses must be configured first (they are opened as startup opens them): a dry run prints the
 * plan and the connections to add.
 */
public final class ImportPythonCommand extends ConfiguredCommand<GatewayConfiguration> {
    public ImportPythonCommand() {
        super("import-python", "Imports the Python original's saved queries, API keys and run history");
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--from").dest("from").required(true)
                .help("the original's home folder (QUERYAPIGATE_HOME), its queryapigate.db, or its PostgreSQL store"
                        + " URL (QUERYAPIGATE_DATABASE_URL)");
        subparser.addArgument("--dry-run").dest("dry_run").action(Arguments.storeTrue())
                .help("print the plan; change nothing");
        subparser.addArgument("--with-history").dest("with_history").action(Arguments.storeTrue())
                .help("also import the saved queries' run history");
        subparser.addArgument("--on-conflict").dest("on_conflict").choices("fail", "skip", "rename").setDefault("fail")
                .help("a name that exists here with other content: stop (fail, the default), leave it (skip), or"
                        + " import under name-py (rename)");
        subparser.addArgument("--skip-invalid").dest("skip_invalid").action(Arguments.storeTrue())
                .help("import the rest when some queries or keys cannot be imported (else nothing is written)");
        subparser.addArgument("--connections-out").dest("connections_out")
                .help("write the connections YAML fragment to this file instead of printing it");
        subparser.addArgument("--workspace").dest("workspace").setDefault("default")
                .help("the original's workspace to import (default: default)");
        subparser.addArgument("--time-zone").dest("time_zone")
                .help("the time zone the original's server ran in (its stored times are local); default: this"
                        + " machine's");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace ns, GatewayConfiguration config)
            throws Exception {
        Path home = Path.of(config.getHome()).toAbsolutePath().normalize();
        Files.createDirectories(home);
        String url = io.queryapigate.store.Store.resolveUrl(config.getStore().getUrl(), home);
        ZoneId zone;
        try {
            zone = ns.getString("time_zone") == null ? ZoneId.systemDefault() : ZoneId.of(ns.getString("time_zone"));
        } catch (DateTimeException e) {
            throw new ImportException("--time-zone: " + e.getMessage() + " (a zone such as Europe/Berlin or UTC)");
        }
        Options options = new Options(ns.getString("from"), ns.getString("workspace"), zone,
                Boolean.TRUE.equals(ns.getBoolean("dry_run")), Boolean.TRUE.equals(ns.getBoolean("with_history")),
                OnConflict.valueOf(ns.getString("on_conflict").toUpperCase(Locale.ROOT)),
                Boolean.TRUE.equals(ns.getBoolean("skip_invalid")),
                ns.getString("connections_out") == null ? null : Path.of(ns.getString("connections_out")));
        long maxSql = config.getLimits().getMaxSqlLength().toBytes();
        try (TargetStore target = TargetStore.open(url, config.getStore().getUser(), config.getStore().getPassword(),
                options.dryRun())) {
            ConnectionRegistry connections = ConnectionRegistry.create(
                    config.dialects(home), config.getConnections(),
                    config.getLimits().queryTimeoutValue(), config.getLimits().getMaxRows(), home);
            try {
                Guarding guarding = new Guarding(new SqlGuard((int) Math.min(Integer.MAX_VALUE, maxSql),
                        SqlGuard.DEFAULT_PARSE_TIMEOUT), config.getSecurity().isAllowWrites());
                String maskingKey = config.getSecurity().getMaskingKey();
                PythonImporter importer = new PythonImporter(target.store(), new Definitions(guarding, connections,
                        maxSql), bootstrap.getObjectMapper(), Clock.systemUTC(), config.getAuth().getAdminKey() == null
                                ? null : KeyHasher.hashHex(config.getAuth().getAdminKey()),
                        maskingKey != null && !maskingKey.isBlank(), config.getEvents().getHistoryPerVersion(),
                        config.getAudit().build(target.store(), System.getenv(), Clock.systemUTC()));
                Acting.as(Actor.cli("import-python"), () -> importer.run(options, System.out));
            } finally {
                connections.stop();
            }
        }
    }

    /** An import that stopped says why in one message, without a stack trace. */
    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        if (e instanceof ImportException) {
            cli.getStdErr().println(e.getMessage());
        } else if (!GatewayServerCommand.printedProblems(cli, e)) {
            super.onError(cli, namespace, e);
        }
    }
}
