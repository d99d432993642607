package io.queryapigate.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.store.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * {@code migrate-store CONFIG --to URL [--user U] [--password P]}: copies the configured store (normally the
 * embedded SQLite one) into an empty PostgreSQL store, keeping ids, so existing API keys keep working. Runs in one
 * transaction on the target; refuses a target that already holds keys or queries.
 */
public final class MigrateStoreCommand extends ConfiguredCommand<GatewayConfiguration> {
    static final List<String> TABLES = List.of("roles", "api_keys", "saved_queries", "query_versions", "run_history",
            "events", "usage_counters", "example_items");
    /** Tables keyed by other columns than an {@code id} of their own. */
    private static final List<String> WITHOUT_ID = List.of("query_versions", "usage_counters", "example_items");

    public MigrateStoreCommand() {
        super("migrate-store", "Copies this configuration's store into an empty PostgreSQL store");
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--to").dest("to").required(true).help("target JDBC URL (jdbc:postgresql://...)");
        subparser.addArgument("--user").dest("user").help("target user");
        subparser.addArgument("--password").dest("password").help("target password (or QAG_TARGET_PASSWORD)");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace, GatewayConfiguration config) {
        String source = Store.resolveUrl(config.getStore().getUrl(), Path.of(config.getHome()));
        String target = namespace.getString("to");
        String password = namespace.getString("password") != null ? namespace.getString("password")
                : System.getenv("QAG_TARGET_PASSWORD");
        long copied = copy(source, config.getStore().getUser(), config.getStore().getPassword(), target,
                namespace.getString("user"), password);
        System.out.println("Copied " + copied + " rows from " + source + " to " + target.replaceAll("//[^@/]*@",
                "//***@"));
    }

    /** Copies every store table; returns the number of rows copied. */
    public static long copy(String sourceUrl, String sourceUser, String sourcePassword, String targetUrl,
            String targetUser, String targetPassword) {
        if (!targetUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--to must be a jdbc:postgresql: URL");
        }
        Store.migrate(sourceUrl, sourceUser, sourcePassword);
        Store.migrate(targetUrl, targetUser, targetPassword);
        Jdbi from = sourceUser == null ? Jdbi.create(sourceUrl) : Jdbi.create(sourceUrl, sourceUser, sourcePassword);
        Jdbi to = targetUser == null ? Jdbi.create(targetUrl) : Jdbi.create(targetUrl, targetUser, targetPassword);
        return to.inTransaction(t -> {
            long existing = t.createQuery("SELECT (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM"
                    + " saved_queries)").mapTo(Long.class).one();
            if (existing > 0) {
                throw new IllegalStateException("The target store is not empty (" + existing
                        + " keys and queries); refusing to merge into it.");
            }
            long total = 0;
            try (Handle s = from.open()) {
                for (String table : TABLES) {
                    List<Map<String, Object>> rows = s.createQuery("SELECT * FROM " + table).mapToMap().list();
                    for (Map<String, Object> row : rows) {
                        insert(t, table, row);
                    }
                    total += rows.size();
                    if (!WITHOUT_ID.contains(table)) {
                        t.execute("SELECT setval(pg_get_serial_sequence('" + table + "', 'id'),"
                                + " GREATEST((SELECT COALESCE(MAX(id), 0) FROM " + table + "), 1))");
                    }
                }
            }
            return total;
        });
    }

    private static void insert(Handle t, String table, Map<String, Object> row) {
        StringBuilder cols = new StringBuilder();
        StringBuilder vals = new StringBuilder();
        for (String c : row.keySet()) {
            cols.append(cols.length() == 0 ? "" : ", ").append(c);
            vals.append(vals.length() == 0 ? "" : ", ").append(':').append(c);
        }
        var update = t.createUpdate("INSERT INTO " + table + " (" + cols + ") VALUES (" + vals + ")");
        for (Map.Entry<String, Object> e : row.entrySet()) {
            Object v = e.getValue();
            if (e.getKey().equals("active") && v instanceof Number n) {
                v = n.intValue() != 0;
            }
            update.bind(e.getKey(), v);
        }
        update.execute();
    }

    /** A configuration file with problems lists them, without a stack trace. */
    @Override
    public void onError(io.dropwizard.core.cli.Cli cli, net.sourceforge.argparse4j.inf.Namespace namespace,
            Throwable e) {
        if (!GatewayServerCommand.printedProblems(cli, e)) {
            super.onError(cli, namespace, e);
        }
    }
}
