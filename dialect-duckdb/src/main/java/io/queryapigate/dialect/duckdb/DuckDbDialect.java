package io.queryapigate.dialect.duckdb;

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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;
import org.duckdb.DuckDBResultSetMetaData;
import org.duckdb.StatementReturnType;

/**
 * One DuckDB database, embedded in the service's process.
 *
 * <p>The dialect keeps one DuckDB instance open (through a root connection that never runs user SQL) with external
 * access disabled, extension installation and autoloading off, persistent secrets off and the configuration
 * locked, so that no statement can read or write files, load code or undo those settings. With {@code
 * duckdb.read_only: true} (the default) DuckDB opens the file read-only and refuses every write.
 *
 * <p>Each call takes one of {@code poolSize} permits (waiting at most the call's time limit, else {@link
 * DialectError#UNAVAILABLE}), runs on a fresh {@code duplicate()} of the root connection as {@link
 * DuckDbSessionStrategy} plans it, streams rows to the sink as DuckDB produces them, and closes the connection.
 * Its time limit, and the sink's cancel callback, interrupt DuckDB wherever the call is (prepare, execute or
 * fetch). {@link #checkHealth} fails when the database file is gone or DuckDB does not answer {@code SELECT 1}.
 * If the database cannot be opened at creation (file missing, locked by another process), the dialect is still
 * created, reports {@link DialectError#UNAVAILABLE}, and opens the database on a later call.
 *
 * <p>Thread-safe.
 */
public final class DuckDbDialect implements Dialect {

    // a read-only database runs no write, with or without a ceiling
    private static final Set<Capability> READ_ONLY_CAPABILITIES =
            Set.copyOf(EnumSet.complementOf(EnumSet.of(Capability.AFFECTED_ROWS_CEILING)));
    private static final Set<Capability> WRITABLE_CAPABILITIES =
            Set.copyOf(EnumSet.complementOf(EnumSet.of(Capability.SERVER_ENFORCED_READ_ONLY)));
    private static final String MEMORY = ":memory:";
    private static final String JDBC_PREFIX = "jdbc:duckdb:";
    private static final String DATABASES = "SELECT database_name FROM duckdb_databases() WHERE NOT internal"
            + " ORDER BY database_name";
    /** One row per column of every table and view of one database ({@code ?}), in {@link CatalogueSink}'s layout. */
    private static final String CATALOGUE = "SELECT r.database_name, r.schema_name, r.name, r.kind, r.comment,"
            + " c.column_name, c.data_type, c.is_nullable,"
            + " coalesce(list_contains(k.constraint_column_names, c.column_name), false), c.comment"
            + " FROM (SELECT database_name, schema_name, table_name AS name, 'TABLE' AS kind, comment"
            + " FROM duckdb_tables() WHERE NOT internal AND NOT temporary AND database_name = ?"
            + " UNION ALL SELECT database_name, schema_name, view_name, 'VIEW', comment"
            + " FROM duckdb_views() WHERE NOT internal AND NOT temporary AND database_name = ?) r"
            + " LEFT JOIN duckdb_columns() c ON c.database_name = r.database_name AND c.schema_name = r.schema_name"
            + " AND c.table_name = r.name"
            + " LEFT JOIN duckdb_constraints() k ON k.database_name = r.database_name AND k.schema_name = r.schema_name"
            + " AND k.table_name = r.name AND k.constraint_type = 'PRIMARY KEY'"
            + " ORDER BY r.schema_name, r.name, c.column_index";
    private static final String CURRENT_DATABASE = "SELECT current_database()";
    private static final String SERVER_VERSION = "SELECT 'DuckDB ' || version()";

    private final DialectContext context;
    private final DuckDbDialectConfig config;
    private final Path databaseFile;
    private final String jdbcUrl;
    private final Properties connectionProperties;
    private final DuckDbSessionStrategy sessionStrategy;
    private final Set<Capability> capabilities;
    private final Semaphore sessions;
    private final Set<TimeLimit> running = ConcurrentHashMap.newKeySet();
    private final ResultSetReader reader = new DuckDbResultSetReader();
    private final ParameterBinder binder = new ParameterBinder();
    private final DuckDbErrorMapper errors = new DuckDbErrorMapper();
    private final Object lifecycle = new Object();
    private volatile DuckDBConnection database; // written under lifecycle
    private volatile boolean closed; // written under lifecycle
    // the per-call work as fields: a method reference evaluated per call would allocate
    private final OnConnection<QueryStats> statementWork = this::runStatement;
    private final OnConnection<Optional<List<ColumnInfo>>> describeWork = this::prepareOnly;

    /**
     * Opens the database described by {@code context} and {@code config}, running the init script first when
     * the database file does not exist yet.
     *
     * @param context the connection's context; {@code url} is a file path or {@code :memory:}
     * @param config the bound properties
     * @throws IllegalArgumentException when the configuration is wrong (bad URL, in-memory read-only database,
     *     missing or failing init script); the message names the key
     */
    public DuckDbDialect(DialectContext context, DuckDbDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.databaseFile = databaseFile(context.url(), context.homeDirectory());
        if (databaseFile == null && config.readOnly()) {
            throw new IllegalArgumentException(DuckDbDialectConfig.READ_ONLY + ": an in-memory database (url "
                    + MEMORY + ") starts empty and cannot be read-only; set " + DuckDbDialectConfig.READ_ONLY
                    + ": \"false\"");
        }
        this.jdbcUrl = JDBC_PREFIX + (databaseFile == null ? "" : databaseFile.toString());
        this.connectionProperties = lockedDown(config);
        this.sessionStrategy = new DuckDbSessionStrategy(config.readOnly());
        this.capabilities = config.readOnly() ? READ_ONLY_CAPABILITIES : WRITABLE_CAPABILITIES;
        this.sessions = new Semaphore(context.poolSize(), true);

        if (databaseFile == null) {
            openInMemory();
        } else {
            if (config.initScript().isPresent() && !Files.exists(databaseFile)) {
                createFromInitScript(databaseFile, config.initScript().get());
            }
            try {
                database();
            } catch (DialectException cannotOpenYet) {
                // reported by checkHealth and by calls, which try to open it again
            }
        }
    }

    @Override
    public String sqlFamily() {
        return "duckdb";
    }

    /** DuckDB names the attached file's catalog after its base name ({@code memory} in memory); schema {@code main}. */
    @Override
    public TableNamespace defaultNamespace() {
        if (databaseFile == null) {
            return new TableNamespace("memory", "main");
        }
        String file = databaseFile.getFileName().toString();
        int dot = file.lastIndexOf('.');
        return new TableNamespace(dot > 0 ? file.substring(0, dot) : file, "main");
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return sessionStrategy;
    }

    /**
     * The database file, or null for {@code :memory:}.
     *
     * @return the absolute path, or null
     */
    public Path databaseFile() {
        return databaseFile;
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        acquire(request, deadline);
        try {
            return run(request, sink, deadline);
        } finally {
            sessions.release();
        }
    }

    /**
     * DuckDB's prepared-statement metadata: the statement is parsed, bound and planned on a fresh connection (in a
     * read-only transaction on a writable database), never executed. DuckDB types a {@code ?} from where it stands
     * ({@code id = ?}, {@code LIMIT ?}); one it cannot type without a value ({@code SELECT ? AS p}, {@code id + ?})
     * leaves the whole result unresolved, and the answer is then empty. Nullability is unknown: the driver calls
     * every column nullable.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        acquire(request, deadline);
        try {
            return describe(request.withMode(AccessMode.READ), deadline);
        } finally {
            sessions.release();
        }
    }

    /** {@code DuckDB} and {@code version()}, such as {@code DuckDB v1.5.6}: the library the service runs. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** The attached databases that are not DuckDB's own ({@code system}, {@code temp}). */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code duckdb_tables()}, {@code duckdb_views()}, {@code duckdb_columns()} and {@code
     * duckdb_constraints()}: every schema of the database ({@code main} and the ones created in it; {@code
     * information_schema} and {@code pg_catalog} live in DuckDB's internal {@code system} database and are not
     * listed), temporary objects left out. {@code database} may name any attached database ({@link #databases}).
     * The type name is DuckDB's ({@code DECIMAL(12,2)}), the JDBC type the nearest one; nullability is the
     * declared one ({@code NOT NULL}, a primary key). At most {@value CatalogueSink#MAX_TABLES} tables and
     * {@value CatalogueSink#MAX_COLUMNS} columns.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        String name;
        if (database.isPresent()) {
            name = database.get();
            if (!databases(left(deadline)).contains(name)) {
                throw new DialectException(DialectError.SYNTAX, "no attached DuckDB database named '" + name
                        + "' on connection '" + context.connectionName() + "'");
            }
        } else {
            name = CatalogueSink.firstValue(this, CURRENT_DATABASE, left(deadline)).orElse("");
        }
        Parameter named = new Parameter("database", name, JDBCType.VARCHAR);
        CatalogueSink sink = new CatalogueSink(DuckDbDialect::catalogueColumn);
        execute(QueryRequest.read(CATALOGUE, List.of(named, named), left(deadline), CatalogueSink.maxRows()), sink);
        return Optional.of(sink.tables());
    }

    private static SchemaColumn catalogueColumn(Object[] row) {
        String type = row[6].toString();
        return new SchemaColumn(row[5].toString(), type, jdbcType(type), CatalogueSink.nullability(row[7]),
                CatalogueSink.flag(row[8]), CatalogueSink.text(row[9]));
    }

    /** The JDBC type the DuckDB driver reports in a run for a catalogue type name, or the nearest standard one. */
    static JDBCType jdbcType(String type) {
        String upper = type.strip().toUpperCase(Locale.ROOT);
        if (upper.endsWith("]")) {
            return JDBCType.ARRAY;
        }
        if (upper.startsWith("MAP(") || upper.startsWith("UNION(")) {
            return JDBCType.OTHER;
        }
        return SqlTypeNames.nearest(type);
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    private void acquire(QueryRequest request, long deadline) {
        ensureOpen();
        try {
            if (!sessions.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.UNAVAILABLE, "no DuckDB session of connection '"
                        + context.connectionName() + "' (pool size " + context.poolSize() + ") freed up within "
                        + request.timeout().toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for a DuckDB session");
        }
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        ensureOpen();
        if (databaseFile != null && !Files.isRegularFile(databaseFile)) {
            throw new DialectException(DialectError.UNAVAILABLE, "DuckDB database file " + databaseFile + " of connection '"
                    + context.connectionName() + "' no longer exists");
        }
        long deadline = System.nanoTime() + saturatedNanos(timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout);
        AtomicReference<Object> answer = new AtomicReference<>();
        RowSink sink = new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                answer.set(values[0]);
                return false;
            }
        };
        QueryRequest probe = QueryRequest.read("SELECT 1", List.of(), Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), 1);
        try {
            // no permit: the check asks whether DuckDB answers, not whether the pool is busy
            run(probe, sink, deadline);
        } catch (DialectException e) {
            throw e.error() == DialectError.UNAVAILABLE ? e : new DialectException(DialectError.UNAVAILABLE,
                    "DuckDB health check of connection '" + context.connectionName() + "' failed: " + e.getMessage(),
                    e.sqlState(), e);
        }
        if (!(answer.get() instanceof Integer one) || one != 1) {
            throw new DialectException(DialectError.UNAVAILABLE, "DuckDB health check of connection '"
                    + context.connectionName() + "' returned " + answer.get() + " for SELECT 1");
        }
    }

    /** External access or an unlocked configuration on the running instance ({@link DuckDbPrivileges}). */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        return DuckDbPrivileges.check(this, timeout);
    }

    @Override
    public void close() {
        DuckDBConnection root;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            root = database;
            database = null;
        }
        for (TimeLimit limit : running) {
            limit.cancel();
        }
        closeQuietly(root);
    }

    @Override
    public String toString() {
        return "DuckDbDialect[" + context.connectionName() + ", " + (databaseFile == null ? MEMORY : databaseFile)
                + ", readOnly=" + config.readOnly() + "]";
    }

    // ---------------------------------------------------------------- one call

    private QueryStats run(QueryRequest request, RowSink sink, long deadline) {
        return onConnection(request, sink, deadline, true, statementWork);
    }

    private Optional<List<ColumnInfo>> describe(QueryRequest request, long deadline) {
        return onConnection(request, null, deadline, false, describeWork);
    }

    /** What one call does on its connection, between the plan's {@code before} and {@code after} statements. */
    @FunctionalInterface
    private interface OnConnection<T> {
        T run(DuckDBConnection connection, SessionPlan plan, AtomicReference<Statement> current, TimeLimit limit,
                QueryRequest request, RowSink sink) throws SQLException;
    }

    /**
     * Opens a connection of its own for one call (a duplicate of the database's), sends the plan's {@code before}
     * statements, runs {@code work} under the call's time limit, then the {@code after} statements, and closes it.
     * {@code ranStatement}: the work ran the user's statement, so a failing {@code after} means it ended the
     * read-only transaction itself.
     */
    private <T> T onConnection(QueryRequest request, RowSink sink, long deadline, boolean ranStatement,
            OnConnection<T> work) {
        SessionPlan plan = sessionStrategy.plan(request);
        DuckDbStatementFilter.check(plan.statement(), config.readsFiles());
        DuckDBConnection connection = duplicate();
        AtomicReference<Statement> current = new AtomicReference<>();
        TimeLimit limit = TimeLimit.start(Duration.ofNanos(deadline - System.nanoTime()),
                () -> DuckDbInterrupter.interrupt(connection, current.get()));
        running.add(limit);
        try {
            if (closed) {
                throw closedException();
            }
            for (String statement : plan.before()) {
                executeInternal(connection, statement);
            }
            T result = work.run(connection, plan, current, limit, request, sink);
            // an interrupt during a fetch can end the result early without an error
            throwIfStopped(limit, request);
            try {
                for (String statement : plan.after()) {
                    executeInternal(connection, statement);
                }
            } catch (SQLException e) {
                if (limit.stopped() || !ranStatement) {
                    throw e;
                }
                // the only statement sent after is the read's ROLLBACK: it fails when the user's SQL ended the
                // read-only transaction itself (COMMIT; ...), so whatever ran after that was not read-only
                throw new DialectException(DialectError.NOT_READ_ONLY, "the statement ended the call's read-only"
                        + " transaction; what it ran after that was not read-only (" + errors.translate(e).getMessage()
                        + ")", null, e);
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

    private QueryStats runStatement(DuckDBConnection connection, SessionPlan plan, AtomicReference<Statement> current,
            TimeLimit limit, QueryRequest request, RowSink sink) throws SQLException {
        if (request.maxAffectedRows() <= 0) {
            return runOnce(connection, plan, current, limit, request, sink);
        }
        // the call's own connection, closed after it: its transaction cannot outlive the call
        return AffectedRowsCeiling.within(connection, request.maxAffectedRows(),
                () -> runOnce(connection, plan, current, limit, request, sink));
    }

    private QueryStats runOnce(DuckDBConnection connection, SessionPlan plan, AtomicReference<Statement> current,
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

    private Optional<List<ColumnInfo>> prepareOnly(DuckDBConnection connection, SessionPlan plan,
            AtomicReference<Statement> current, TimeLimit limit, QueryRequest request, RowSink sink)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
            current.set(statement);
            // CHANGED_ROWS (a write's count) and NOTHING (DDL) are not rows of a result
            DuckDBResultSetMetaData metaData = (DuckDBResultSetMetaData) statement.getMetaData();
            return metaData.getReturnType() == StatementReturnType.QUERY_RESULT
                    ? resolved(reader.describe(metaData)) : Optional.of(List.of());
        }
    }

    /** Empty when DuckDB left the result's types open until values are bound (one column of type UNKNOWN). */
    private static Optional<List<ColumnInfo>> resolved(List<ColumnInfo> columns) {
        boolean open = columns.stream().anyMatch(c -> c.typeName().equalsIgnoreCase("UNKNOWN"));
        return open ? Optional.empty() : Optional.of(columns);
    }

    private DuckDBConnection duplicate() {
        try {
            return database().duplicate();
        } catch (SQLException e) {
            ensureOpen();
            throw errors.translate(e, DialectError.UNAVAILABLE);
        }
    }

    private static void executeInternal(DuckDBConnection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
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
        return errors.translate(e);
    }

    private DialectException stoppedException(TimeLimit limit, QueryRequest request, SQLException cause) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "DuckDB connection '" + context.connectionName()
                    + "' was closed while the statement ran", null, cause);
        }
        if (limit.timedOut()) {
            return new DialectException(DialectError.TIMEOUT, "the statement exceeded its time limit of "
                    + request.timeout().toMillis() + " ms and was interrupted", null, cause);
        }
        return new DialectException(DialectError.CANCELLED, "the statement was cancelled", null, cause);
    }

    // ---------------------------------------------------------------- opening and closing

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "DuckDB connection '" + context.connectionName() + "' is closed");
    }

    private DuckDBConnection database() {
        DuckDBConnection open = database;
        if (open != null) {
            return open;
        }
        synchronized (lifecycle) {
            ensureOpen();
            if (database == null) {
                try {
                    database = connect(jdbcUrl, connectionProperties);
                } catch (SQLException e) {
                    throw new DialectException(DialectError.UNAVAILABLE, "cannot open DuckDB database "
                            + (databaseFile == null ? MEMORY : databaseFile) + " of connection '"
                            + context.connectionName() + "': " + errors.translate(e).getMessage(), null, e);
                }
            }
            return database;
        }
    }

    private void openInMemory() {
        DuckDBConnection root = database();
        if (config.initScript().isPresent()) {
            String script = readScript(config.initScript().get());
            try {
                if (!script.isBlank()) {
                    executeInternal(root, script);
                }
            } catch (SQLException e) {
                close();
                throw new IllegalArgumentException(DuckDbDialectConfig.INIT_SCRIPT + ": " + config.initScript().get()
                        + " failed: " + errors.translate(e).getMessage(), e);
            }
        }
    }

    /**
     * Runs the init script into a new file beside the database file, checkpoints it, and moves it into place, so
     * that a failed or interrupted script never leaves a half-made database behind. The script is trusted
     * configuration, like the YAML: it runs with external access (it may load CSV or Parquet files) but without
     * extension installation.
     */
    private void createFromInitScript(Path target, Path scriptFile) {
        String script = readScript(scriptFile);
        Path temporary = target.resolveSibling(target.getFileName() + ".init-" + ProcessHandle.current().pid() + "-"
                + Long.toUnsignedString(System.nanoTime()));
        try {
            Path parent = target.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("url: cannot create the directory of " + target + ": " + e.getMessage(), e);
        }
        Properties properties = new Properties();
        properties.setProperty("autoload_known_extensions", "false");
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("allow_persistent_secrets", "false");
        properties.setProperty(DuckDBDriver.JDBC_INSTANCE_CACHE, "false");
        try (DuckDBConnection connection = connect(JDBC_PREFIX + temporary, properties)) {
            if (!script.isBlank()) {
                executeInternal(connection, script);
            }
            executeInternal(connection, "CHECKPOINT");
        } catch (SQLException e) {
            deleteQuietly(temporary);
            throw new IllegalArgumentException(DuckDbDialectConfig.INIT_SCRIPT + ": " + scriptFile + " failed: "
                    + errors.translate(e).getMessage(), e);
        } finally {
            deleteQuietly(Path.of(temporary + ".wal"));
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new IllegalArgumentException("url: cannot move the new database into place at " + target + ": "
                    + e.getMessage(), e);
        }
    }

    private static String readScript(Path scriptFile) {
        if (!Files.isRegularFile(scriptFile)) {
            throw new IllegalArgumentException(DuckDbDialectConfig.INIT_SCRIPT + ": no such file: " + scriptFile);
        }
        try {
            return Files.readString(scriptFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(DuckDbDialectConfig.INIT_SCRIPT + ": cannot read " + scriptFile + ": "
                    + e.getMessage(), e);
        }
    }

    private static DuckDBConnection connect(String url, Properties properties) throws SQLException {
        // the driver class directly rather than DriverManager, which may not see a plugin's class loader
        return (DuckDBConnection) new DuckDBDriver().connect(url, properties);
    }

    /** The settings every dialect connection opens with; none can be changed afterwards (lock_configuration). */
    private static Properties lockedDown(DuckDbDialectConfig config) {
        Properties properties = new Properties();
        properties.setProperty(DuckDBDriver.DUCKDB_READONLY_PROPERTY, Boolean.toString(config.readOnly()));
        properties.setProperty("enable_external_access", "false");
        properties.setProperty("autoload_known_extensions", "false");
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("allow_community_extensions", "false");
        properties.setProperty("allow_unsigned_extensions", "false");
        // with external access off, the default file-backed secret storage breaks the secret manager for every
        // later call after one CREATE SECRET; keeping secrets in memory only avoids that
        properties.setProperty("allow_persistent_secrets", "false");
        properties.setProperty(DuckDBDriver.JDBC_STREAM_RESULTS, "true");
        config.threads().ifPresent(threads -> properties.setProperty("threads", Integer.toString(threads)));
        config.memoryLimit().ifPresent(limit -> properties.setProperty("memory_limit", limit));
        // DuckDB exempts these from enable_external_access=false; the config refused quotes, brackets and commas
        if (!config.allowedDirectories().isEmpty()) {
            properties.setProperty("allowed_directories", duckDbList(config.allowedDirectories()));
        }
        if (!config.allowedFiles().isEmpty()) {
            properties.setProperty("allowed_paths", duckDbList(config.allowedFiles()));
        }
        properties.setProperty("lock_configuration", "true");
        return properties;
    }

    private static String duckDbList(List<String> values) {
        return values.stream().map(value -> "'" + value + "'").collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    /**
     * The database file for a configured URL, or null for {@code :memory:}.
     *
     * @param url the configured URL: a path, {@code :memory:}, optionally prefixed with {@code jdbc:duckdb:}
     * @param home the directory relative paths resolve against
     * @return the absolute, normalised path, or null
     * @throws IllegalArgumentException naming {@code url} when it is empty or carries driver options
     */
    static Path databaseFile(String url, Path home) {
        String path = url.strip();
        if (path.startsWith(JDBC_PREFIX)) {
            path = path.substring(JDBC_PREFIX.length());
        }
        if (path.isEmpty() || path.equals(MEMORY)) {
            return null;
        }
        if (path.indexOf(';') >= 0) {
            // the driver reads ";key=value" in a URL as settings that override ours (enable_external_access, ...)
            throw new IllegalArgumentException("url: a DuckDB database path must not contain ';' (settings go in"
                    + " properties), got '" + url + "'");
        }
        if (path.startsWith(MEMORY)) {
            throw new IllegalArgumentException("url: expected a file path or " + MEMORY + ", got '" + url + "'");
        }
        try {
            return home.resolve(path).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("url: not a valid path: '" + url + "'", e);
        }
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    private static void closeQuietly(DuckDBConnection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing releases native memory only; nothing to report to the caller
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a leftover temporary file is harmless and named after this process
        }
    }
}
