package io.queryapigate.store;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.jdbi3.JdbiFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;

/**
 * The gateway's own store through JDBI: SQLite (embedded, one instance) or PostgreSQL (shared by instances).
 * Migrations run with Flyway before the first DAO is used; one set of scripts serves both databases, with
 * placeholders where their DDL differs.
 */
public final class Store {
    private final Jdbi jdbi;
    private final String url;
    private final ApiKeyDao keys;
    private final QueryDao queries;
    private final HistoryDao history;
    private final UsageDao usage;
    private final ExampleDao examples;
    private final ManagedDao managed;
    private final ConnectionDao connections;
    private final RoleDao roles;

    private Store(Jdbi jdbi, String url) {
        this.jdbi = jdbi;
        this.url = url;
        this.keys = jdbi.onDemand(ApiKeyDao.class);
        this.queries = jdbi.onDemand(QueryDao.class);
        this.history = jdbi.onDemand(HistoryDao.class);
        this.usage = jdbi.onDemand(UsageDao.class);
        this.examples = jdbi.onDemand(ExampleDao.class);
        this.managed = jdbi.onDemand(ManagedDao.class);
        this.connections = jdbi.onDemand(ConnectionDao.class);
        this.roles = jdbi.onDemand(RoleDao.class);
    }

    /** The JDBC URL for a configured store URL, or the default SQLite file under {@code home}. */
    public static String resolveUrl(String configuredUrl, Path home) {
        if (configuredUrl != null && !configuredUrl.isBlank()) {
            return configuredUrl;
        }
        return "jdbc:sqlite:" + home.resolve("queryapigate.db").toAbsolutePath().normalize();
    }

    /**
     * Checks a configured store URL: {@code jdbc:sqlite:} or {@code jdbc:postgresql:}.
     *
     * @throws IllegalArgumentException naming {@code store.url} otherwise
     */
    public static void checkUrl(String url) {
        if (!isSqlite(url) && !url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("store.url: only jdbc:sqlite: and jdbc:postgresql: stores are supported,"
                    + " got " + url.replaceAll("//[^@/]*@", "//***@"));
        }
    }

    static boolean isSqlite(String url) {
        return url.startsWith("jdbc:sqlite:");
    }

    /**
     * The SQLite connection settings. Transactions begin {@code IMMEDIATE}: a deferred one that reads and then writes
     * fails at once with {@code SQLITE_BUSY} when another connection (the event writer) committed in between, while
     * an immediate one takes the write lock first and waits for it up to the busy timeout.
     */
    static Map<String, String> sqliteProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("journal_mode", "WAL");
        props.put("synchronous", "NORMAL");
        props.put("busy_timeout", "10000");
        props.put("foreign_keys", "true");
        props.put("transaction_mode", "IMMEDIATE");
        return props;
    }

    /**
     * Migrates the store and wires JDBI into Dropwizard's lifecycle and health checks ({@code store}).
     */
    public static Store open(Environment environment, String url, String user, String password, int maxConnections,
            Path home) throws Exception {
        if (isSqlite(url)) {
            Files.createDirectories(home);
        }
        migrate(url, user, password);
        DataSourceFactory dsf = new DataSourceFactory();
        dsf.setUrl(url);
        dsf.setUser(user);
        dsf.setPassword(password);
        if (isSqlite(url)) {
            dsf.setDriverClass("org.sqlite.JDBC");
            dsf.setProperties(sqliteProperties());
            dsf.setValidationQuery("SELECT 1");
        } else {
            checkUrl(url);
            dsf.setDriverClass("org.postgresql.Driver");
        }
        dsf.setMinSize(1);
        dsf.setInitialSize(1);
        dsf.setMaxSize(maxConnections);
        Jdbi jdbi = new JdbiFactory().build(environment, dsf, "store");
        return new Store(jdbi, url);
    }

    /** A store on an existing JDBI (tests, CLI commands). Migrates first. */
    public static Store open(Jdbi jdbi, String url, String user, String password) {
        migrate(url, user, password);
        return new Store(jdbi, url);
    }

    public static void migrate(String url, String user, String password) {
        flyway(url, user, password).migrate();
    }

    /** How many migrations the store at {@code url} still lacks (all of them for an empty one). */
    public static int pendingMigrations(String url, String user, String password) {
        return flyway(url, user, password).info().pending().length;
    }

    /**
     * A store on its own JDBI, without a pool and without migrating it (CLI commands: migrate first, or check {@link
     * #pendingMigrations}); SQLite connections get the server's settings, so they wait for a running server's writes.
     */
    public static Store connect(String url, String user, String password) {
        java.util.Properties props = new java.util.Properties();
        if (isSqlite(url)) {
            props.putAll(sqliteProperties());
        }
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        return new Store(Jdbi.create(url, props).installPlugin(new org.jdbi.v3.sqlobject.SqlObjectPlugin()), url);
    }

    private static Flyway flyway(String url, String user, String password) {
        Map<String, String> placeholders = new LinkedHashMap<>();
        placeholders.put("id_pk", isSqlite(url)
                ? "INTEGER PRIMARY KEY AUTOINCREMENT"
                : "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
        return Flyway.configure(Store.class.getClassLoader())
                .dataSource(url, user, password)
                .locations("classpath:db/migration")
                .placeholders(placeholders)
                .validateMigrationNaming(true)
                .load();
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public String url() {
        return url;
    }

    public ApiKeyDao keys() {
        return keys;
    }

    public QueryDao queries() {
        return queries;
    }

    public HistoryDao history() {
        return history;
    }

    public UsageDao usage() {
        return usage;
    }

    public ExampleDao examples() {
        return examples;
    }

    public ConnectionDao connections() {
        return connections;
    }

    /** API-key roles. */
    public RoleDao roles() {
        return roles;
    }

    /** What configuration-as-code directories own. */
    public ManagedDao managed() {
        return managed;
    }
}
