package io.queryapigate.dialect.h2;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.AffectedRowsCeiling;
import io.queryapigate.dialect.jdbc.CatalogueSink;
import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.jdbc.SqlTypeNames;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An H2 database through the H2 JDBC driver (2.x): an embedded database file, opened in the service's process and
 * kept open by a root session that never runs a caller's SQL, or a database on an H2 TCP server.
 *
 * <p>Every call opens a new H2 session (a new JDBC connection: in process for a file, one TCP connection for a
 * server), sends the {@link H2SessionStrategy}'s plan and closes the session, so nothing a call sets outlives it.
 * A file opened with {@code h2.read_only} (the default) carries {@code ACCESS_MODE_DATA=r}: H2 refuses every
 * write, in every session, and the dialect declares {@link Capability#SERVER_ENFORCED_READ_ONLY}. On a TCP server
 * the database's grants decide: connect with a user that has {@code SELECT} grants only ({@link
 * #privilegeWarnings} says when the user is an administrator). {@link H2StatementFilter} refuses H2's code-running
 * and file statements for every call. The time limit is H2's {@code SET QUERY_TIMEOUT} in the session and a
 * {@code Statement.cancel()} from the shared timer.
 */
public final class H2Dialect implements Dialect {
    static final String JDBC_PREFIX = "jdbc:h2:";
    private static final String FILE_PREFIX = "jdbc:h2:file:";
    private static final Set<Capability> READ_ONLY_FILE = Set.copyOf(EnumSet.of(Capability.SERVER_ENFORCED_READ_ONLY,
            Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION, Capability.BIND_PARAMETERS, Capability.STREAMING));
    private static final Set<Capability> READ_ONLY_SERVER = Set.copyOf(EnumSet.of(Capability.SERVER_SIDE_TIMEOUT,
            Capability.CANCELLATION, Capability.BIND_PARAMETERS, Capability.STREAMING));
    private static final Set<Capability> WRITABLE = Set.copyOf(EnumSet.of(Capability.SERVER_SIDE_TIMEOUT,
            Capability.CANCELLATION, Capability.BIND_PARAMETERS, Capability.STREAMING,
            Capability.AFFECTED_ROWS_CEILING));
    /** The URL settings an operator may give: how names and values compare, the compatibility mode. */
    static final Set<String> URL_SETTINGS = Set.of("MODE", "DATABASE_TO_LOWER", "DATABASE_TO_UPPER",
            "CASE_INSENSITIVE_IDENTIFIERS", "IGNORECASE", "DEFAULT_NULL_ORDERING");
    private static final String SERVER_VERSION = "SELECT 'H2 ' || H2VERSION()";
    private static final String DATABASES = "SELECT CATALOG_NAME FROM INFORMATION_SCHEMA.INFORMATION_SCHEMA_CATALOG_NAME";
    /** One row per column of every table and view of the database ({@code ?}), in {@link CatalogueSink}'s layout. */
    private static final String CATALOGUE = "SELECT t.TABLE_CATALOG, t.TABLE_SCHEMA, t.TABLE_NAME,"
            + " CASE t.TABLE_TYPE WHEN 'BASE TABLE' THEN 'TABLE' ELSE 'VIEW' END, t.REMARKS,"
            + " c.COLUMN_NAME, COALESCE(c.DECLARED_DATA_TYPE, c.DATA_TYPE), c.IS_NULLABLE, k.COLUMN_NAME IS NOT NULL,"
            + " c.REMARKS"
            + " FROM INFORMATION_SCHEMA.TABLES t"
            + " LEFT JOIN INFORMATION_SCHEMA.COLUMNS c ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME"
            + " LEFT JOIN (SELECT u.TABLE_SCHEMA, u.TABLE_NAME, u.COLUMN_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS x"
            + " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE u ON u.CONSTRAINT_SCHEMA = x.CONSTRAINT_SCHEMA"
            + " AND u.CONSTRAINT_NAME = x.CONSTRAINT_NAME WHERE x.CONSTRAINT_TYPE = 'PRIMARY KEY') k"
            + " ON k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME AND k.COLUMN_NAME = c.COLUMN_NAME"
            + " WHERE t.TABLE_TYPE IN ('BASE TABLE', 'VIEW') AND UPPER(t.TABLE_SCHEMA) <> 'INFORMATION_SCHEMA'"
            + " AND t.TABLE_CATALOG = ?"
            + " ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME, c.ORDINAL_POSITION";
    private static final String IS_ADMIN = "SELECT IS_ADMIN FROM INFORMATION_SCHEMA.USERS WHERE USER_NAME = CURRENT_USER";

    private final DialectContext context;
    private final H2DialectConfig config;
    private final String jdbcUrl;
    private final boolean remote;
    private final Properties credentials;
    private final org.h2.Driver driver = new org.h2.Driver();
    private final H2SessionStrategy sessionStrategy;
    private final Set<Capability> capabilities;
    private final Semaphore sessions;
    private final Set<TimeLimit> running = ConcurrentHashMap.newKeySet();
    private final ResultSetReader reader = new ResultSetReader();
    private final ParameterBinder binder = new ParameterBinder();
    private final H2ErrorMapper errors = new H2ErrorMapper();
    private final Object lifecycle = new Object();
    private volatile Connection root; // an embedded database's keeper; written under lifecycle
    private volatile boolean closed; // written under lifecycle

    /**
     * Prepares the connection and, for a database file, opens it.
     *
     * @param context the connection's context; {@code url} as described in {@link H2DialectFactory}
     * @param config the bound properties
     * @throws IllegalArgumentException naming {@code url} when it is not an H2 file path or TCP URL
     */
    public H2Dialect(DialectContext context, H2DialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        String configured = context.url().strip();
        int semicolon = configured.indexOf(';');
        String url = semicolon < 0 ? configured : configured.substring(0, semicolon);
        String settings = semicolon < 0 ? "" : settings(configured.substring(semicolon + 1), configured);
        this.remote = url.startsWith("jdbc:h2:tcp://") || url.startsWith("jdbc:h2:ssl://");
        if (remote) {
            this.jdbcUrl = url + settings + ";IFEXISTS=TRUE";
        } else {
            Path file = databasePath(url, context.homeDirectory());
            this.jdbcUrl = FILE_PREFIX + file + settings + ";IFEXISTS=TRUE"
                    + (config.readOnly() ? ";ACCESS_MODE_DATA=r" : "");
        }
        this.credentials = new Properties();
        credentials.setProperty("user", context.user().orElse(""));
        credentials.setProperty("password", context.password().orElse(""));
        this.sessionStrategy = new H2SessionStrategy(config.readOnly() && !remote, remote);
        this.capabilities = !config.readOnly() ? WRITABLE : remote ? READ_ONLY_SERVER : READ_ONLY_FILE;
        this.sessions = new Semaphore(context.poolSize(), true);
        if (!remote) {
            try {
                keeper();
            } catch (DialectException cannotOpenYet) {
                // reported by checkHealth and by calls, which try again
            }
        }
    }

    /**
     * The {@code ;KEY=value} settings of a URL, each one of {@link #URL_SETTINGS} with a plain value, as
     * {@code ;KEY=value...}. Any other setting could override the dialect's ({@code ACCESS_MODE_DATA}, {@code
     * IFEXISTS}) or run code ({@code INIT=RUNSCRIPT ...}).
     */
    static String settings(String text, String url) {
        StringBuilder accepted = new StringBuilder();
        for (String setting : text.split(";")) {
            if (setting.isBlank()) {
                continue;
            }
            int equals = setting.indexOf('=');
            String key = (equals < 0 ? setting : setting.substring(0, equals)).strip().toUpperCase(java.util.Locale.ROOT);
            String value = equals < 0 ? "" : setting.substring(equals + 1).strip();
            if (!URL_SETTINGS.contains(key)) {
                throw new IllegalArgumentException("url: the H2 setting '" + key + "' is not accepted in an h2"
                        + " connection's URL (accepted: " + String.join(", ", new java.util.TreeSet<>(URL_SETTINGS))
                        + "), got '" + url + "'");
            }
            if (!value.matches("[A-Za-z0-9_]+")) {
                throw new IllegalArgumentException("url: the H2 setting " + key + " needs a plain value (letters,"
                        + " digits, '_'), got '" + value + "'");
            }
            accepted.append(';').append(key).append('=').append(value);
        }
        return accepted.toString();
    }

    /**
     * The database path of a file URL, absolute and without H2's {@code .mv.db} suffix.
     *
     * @param url a path relative to {@code home}, an absolute path, or {@code jdbc:h2:file:path}
     * @param home the service's home directory
     * @return the path H2 is given
     */
    static Path databasePath(String url, Path home) {
        String path = url;
        if (path.startsWith(FILE_PREFIX)) {
            path = path.substring(FILE_PREFIX.length());
        } else if (path.startsWith(JDBC_PREFIX)) {
            throw new IllegalArgumentException("url: expected a database file path, jdbc:h2:file:<path> or"
                    + " jdbc:h2:tcp://host:port/<database>, got '" + url + "'");
        }
        if (path.endsWith(".mv.db")) {
            path = path.substring(0, path.length() - ".mv.db".length());
        }
        if (path.isBlank() || path.startsWith("~")) {
            throw new IllegalArgumentException("url: expected a database file path relative to home or absolute, got '"
                    + url + "'");
        }
        try {
            return home.resolve(path).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("url: not a valid path: '" + url + "'", e);
        }
    }

    /** Generic: H2's SQL is closest to the standard, which the generic family reads most strictly. */
    @Override
    public String sqlFamily() {
        return "generic";
    }

    /** H2 names the catalog after the database and puts unqualified names in {@code PUBLIC} (lower case with {@code DATABASE_TO_LOWER}). */
    @Override
    public TableNamespace defaultNamespace() {
        String path = jdbcUrl.substring(0, jdbcUrl.indexOf(';'));
        String name = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf(':')) + 1);
        boolean lower = jdbcUrl.toUpperCase(java.util.Locale.ROOT).contains(";DATABASE_TO_LOWER=TRUE");
        return lower ? new TableNamespace(name.toLowerCase(java.util.Locale.ROOT), "public")
                : new TableNamespace(name.toUpperCase(java.util.Locale.ROOT), "PUBLIC");
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return sessionStrategy;
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        acquire(request, deadline);
        try {
            return onSession(request, deadline, (connection, plan, current, limit) ->
                    runStatement(connection, plan, current, limit, request, sink));
        } finally {
            sessions.release();
        }
    }

    /**
     * H2's prepared-statement metadata: H2 parses and plans the statement when it is prepared (on the server, for
     * TCP) and never runs it for {@code getMetaData()}; an update or DDL has no result metadata (empty list).
     * Nullability from the driver, which reports a column's declared {@code NOT NULL}.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        QueryRequest read = request.withMode(AccessMode.READ);
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        acquire(read, deadline);
        try {
            return onSession(read, deadline, (connection, plan, current, limit) -> {
                try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
                    current.set(statement);
                    ResultSetMetaData metaData = statement.getMetaData();
                    return Optional.of(metaData == null ? List.<ColumnInfo>of() : reader.describe(metaData));
                }
            });
        } finally {
            sessions.release();
        }
    }

    /** {@code H2} and {@code H2VERSION()}, such as {@code H2 2.5.252}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** The connection's own database: an H2 session sees one (its catalog), with any number of schemas. */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code INFORMATION_SCHEMA.TABLES}, {@code COLUMNS}, {@code TABLE_CONSTRAINTS} and {@code
     * KEY_COLUMN_USAGE}: the base tables and views of every schema but {@code INFORMATION_SCHEMA}, temporary tables
     * left out; comments from {@code COMMENT ON}; the declared type name ({@code DECIMAL}, {@code CHARACTER VARYING},
     * as the driver reports it in a run) and the nearest JDBC
     * type. Another database is refused ({@code SYNTAX}): an H2 session sees its own only.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        List<String> own = databases(timeout);
        if (own.isEmpty()) {
            return Optional.of(List.of());
        }
        if (database.isPresent() && !own.contains(database.get())) {
            throw new DialectException(DialectError.SYNTAX, "no H2 database named '" + database.get()
                    + "' on connection '" + context.connectionName() + "': it sees its own database, " + own.get(0));
        }
        Parameter named = new Parameter("database", own.get(0), JDBCType.VARCHAR);
        CatalogueSink sink = new CatalogueSink(row -> new SchemaColumn(row[5].toString(), row[6].toString(),
                SqlTypeNames.nearest(row[6].toString()), CatalogueSink.nullability(row[7]), CatalogueSink.flag(row[8]),
                CatalogueSink.text(row[9])));
        execute(QueryRequest.read(CATALOGUE, List.of(named), Duration.ofNanos(Math.max(1, deadline - System.nanoTime())),
                CatalogueSink.maxRows()), sink);
        return Optional.of(sink.tables());
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        Duration limit = timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout;
        Optional<String> one;
        try {
            one = CatalogueSink.firstValue(this, "SELECT 1", limit);
        } catch (DialectException e) {
            throw e.error() == DialectError.UNAVAILABLE ? e : new DialectException(DialectError.UNAVAILABLE,
                    "H2 health check of connection '" + context.connectionName() + "' failed: " + e.getMessage(),
                    e.sqlState(), e);
        }
        if (!one.equals(Optional.of("1"))) {
            throw new DialectException(DialectError.UNAVAILABLE, "H2 health check of connection '"
                    + context.connectionName() + "' returned " + one + " for SELECT 1");
        }
    }

    /** An administrator user: may read and write files and run Java code on the H2 host unless refused by name. */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        List<String> warnings = new ArrayList<>();
        try {
            Optional<String> admin = CatalogueSink.firstValue(this, IS_ADMIN, timeout);
            if (admin.isPresent() && Boolean.parseBoolean(admin.get())) {
                warnings.add("H2 user '" + context.user().orElse("") + "' of connection '" + context.connectionName()
                        + "' is an administrator: H2 lets it read and write files (CSVREAD, FILE_WRITE, SCRIPT TO) and"
                        + " run Java code (CREATE ALIAS); the dialect refuses those by name, but connect with a user"
                        + " that has SELECT grants only (CREATE USER reader PASSWORD '...'; GRANT SELECT ON SCHEMA"
                        + " PUBLIC TO reader)");
            }
        } catch (DialectException e) {
            warnings.add("could not check the H2 user's rights on connection '" + context.connectionName() + "': "
                    + e.getMessage());
        }
        return warnings;
    }

    @Override
    public void close() {
        Connection keeper;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            keeper = root;
            root = null;
        }
        for (TimeLimit limit : running) {
            limit.cancel();
        }
        closeQuietly(keeper);
    }

    @Override
    public String toString() {
        return "H2Dialect[" + context.connectionName() + ", " + jdbcUrl + "]";
    }

    // ---------------------------------------------------------------- one call

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection, SessionPlan plan, AtomicReference<Statement> current, TimeLimit limit)
                throws SQLException;
    }

    private <T> T onSession(QueryRequest request, long deadline, Work<T> work) {
        SessionPlan plan = sessionStrategy.plan(request);
        H2StatementFilter.check(plan.statement());
        if (request.mode() == AccessMode.WRITE && config.readOnly()) {
            throw new DialectException(DialectError.NOT_READ_ONLY, "connection '" + context.connectionName()
                    + "' is read-only (" + H2DialectConfig.READ_ONLY + ")");
        }
        Connection connection = open();
        AtomicReference<Statement> current = new AtomicReference<>();
        TimeLimit limit = TimeLimit.start(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), () -> {
            Statement statement = current.get();
            if (statement != null) {
                statement.cancel();
            }
        });
        running.add(limit);
        try {
            if (closed) {
                throw closedException();
            }
            for (String statement : plan.before()) {
                executeInternal(connection, current, statement);
            }
            T result = work.run(connection, plan, current, limit);
            throwIfStopped(limit, request);
            for (String statement : plan.after()) {
                executeInternal(connection, current, statement);
            }
            return result;
        } catch (SQLException e) {
            throw translate(e, limit, request);
        } finally {
            limit.close();
            running.remove(limit);
            closeQuietly(connection);
        }
    }

    private QueryStats runStatement(Connection connection, SessionPlan plan, AtomicReference<Statement> current,
            TimeLimit limit, QueryRequest request, RowSink sink) throws SQLException {
        if (request.mode() != AccessMode.WRITE || request.maxAffectedRows() <= 0) {
            return runOnce(connection, plan, current, limit, request, sink);
        }
        // the call's own session, closed after it: its transaction cannot outlive the call
        return AffectedRowsCeiling.within(connection, request.maxAffectedRows(),
                () -> runOnce(connection, plan, current, limit, request, sink));
    }

    private QueryStats runOnce(Connection connection, SessionPlan plan, AtomicReference<Statement> current,
            TimeLimit limit, QueryRequest request, RowSink sink) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
            current.set(statement);
            binder.bindAll(statement, request.parameters());
            sink.onCancellable(limit::cancel);
            throwIfStopped(limit, request);
            if (statement.execute()) {
                try (ResultSet result = statement.getResultSet()) {
                    return reader.read(result, sink, request.maxRows(), limit::stopped);
                }
            }
            sink.columns(List.of());
            long count = statement.getLargeUpdateCount();
            return new QueryStats(0, request.mode() == AccessMode.WRITE ? Math.max(0, count) : -1, false);
        }
    }

    private static void executeInternal(Connection connection, AtomicReference<Statement> current, String sql)
            throws SQLException {
        try (Statement statement = connection.createStatement()) {
            current.set(statement);
            statement.execute(sql);
        }
    }

    // ---------------------------------------------------------------- sessions

    private void acquire(QueryRequest request, long deadline) {
        ensureOpen();
        try {
            if (!sessions.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.UNAVAILABLE, "no H2 session of connection '"
                        + context.connectionName() + "' (pool size " + context.poolSize() + ") freed up within "
                        + request.timeout().toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for an H2 session");
        }
    }

    /** A new session; for a file, once the keeper holds the database open (else each session would reopen it). */
    private Connection open() {
        ensureOpen();
        if (!remote) {
            keeper();
        }
        try {
            return connect();
        } catch (SQLException e) {
            ensureOpen();
            throw errors.translate(e, DialectError.UNAVAILABLE);
        }
    }

    private Connection keeper() {
        Connection open = root;
        if (open != null) {
            return open;
        }
        synchronized (lifecycle) {
            ensureOpen();
            if (root == null) {
                try {
                    root = connect();
                } catch (SQLException e) {
                    throw new DialectException(DialectError.UNAVAILABLE, "cannot open H2 database of connection '"
                            + context.connectionName() + "': " + errors.translate(e).getMessage(), e.getSQLState(), e);
                }
            }
            return root;
        }
    }

    private Connection connect() throws SQLException {
        // the driver instance rather than DriverManager, which may not see a plugin's class loader
        Connection connection = driver.connect(jdbcUrl, credentials);
        if (connection == null) {
            throw new SQLException("the H2 driver did not accept the URL", "08001");
        }
        return connection;
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "H2 connection '" + context.connectionName() + "' is closed");
    }

    private void throwIfStopped(TimeLimit limit, QueryRequest request) {
        if (limit.stopped()) {
            throw stoppedException(limit, request, null);
        }
    }

    private DialectException translate(SQLException e, TimeLimit limit, QueryRequest request) {
        if (limit.stopped()) {
            return stoppedException(limit, request, e);
        }
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "H2 connection '" + context.connectionName()
                    + "' was closed while the statement ran", e.getSQLState(), e);
        }
        return errors.translate(e);
    }

    private DialectException stoppedException(TimeLimit limit, QueryRequest request, SQLException cause) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "H2 connection '" + context.connectionName()
                    + "' was closed while the statement ran", null, cause);
        }
        if (limit.timedOut()) {
            return new DialectException(DialectError.TIMEOUT, "the statement exceeded its time limit of "
                    + request.timeout().toMillis() + " ms and was cancelled", null, cause);
        }
        return new DialectException(DialectError.CANCELLED, "the statement was cancelled", null, cause);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // a session that cannot be closed cleanly is gone anyway
        }
    }
}
