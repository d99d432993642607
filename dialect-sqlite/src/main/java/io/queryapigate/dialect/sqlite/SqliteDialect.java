package io.queryapigate.dialect.sqlite;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.CatalogueSink;
import io.queryapigate.dialect.jdbc.SessionPermits;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
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
import org.sqlite.JDBC;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteOpenMode;

/**
 * One SQLite database file, opened in the service's process through xerial's sqlite-jdbc.
 *
 * <p>Every call opens a connection of its own on the file and closes it at the end ({@link SqliteSessionStrategy}):
 * a read's connection is opened read-only ({@code mode=ro}) with {@code PRAGMA query_only = ON}, a write's
 * read-write in WAL mode; both with no room for an attached database ({@code SQLITE_LIMIT_ATTACHED = 0}: {@code
 * ATTACH} and {@code VACUUM INTO} fail), extension loading off, and the configured busy timeout. The file is never
 * created by a call: a missing file is {@link DialectError#UNAVAILABLE} (the init script creates it at startup).
 *
 * <p>Each call takes one of {@code poolSize} permits (waiting at most the call's time limit, else {@link
 * DialectError#UNAVAILABLE}), so at most that many connections are open at once. Its time limit, and the sink's
 * cancel callback, interrupt SQLite ({@code sqlite3_interrupt}) wherever the statement is (stepping, sorting,
 * fetching). Rows reach the sink as SQLite steps to them. Thread-safe.
 */
public final class SqliteDialect implements Dialect {

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.allOf(Capability.class));
    private static final String JDBC_PREFIX = "jdbc:sqlite:";
    private static final String MEMORY = ":memory:";
    private static final String MAIN = "main";
    private static final String DATABASES = "SELECT name FROM pragma_database_list WHERE name <> 'temp' ORDER BY name";
    /** One row per column of every table and view, in {@link CatalogueSink}'s layout, plus the CREATE statement. */
    private static final String CATALOGUE = "SELECT NULL, 'main', m.name, upper(m.type), NULL, p.name, p.type,"
            + " p.\"notnull\", p.pk, m.sql FROM sqlite_schema m LEFT JOIN pragma_table_info(m.name) p"
            + " WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid";
    private static final String SERVER_VERSION = "SELECT 'SQLite ' || sqlite_version()";

    private final DialectContext context;
    private final SqliteDialectConfig config;
    private final Path databaseFile;
    private final String jdbcUrl;
    private final Properties readProperties;
    private final Properties writeProperties;
    private final SqliteSessionStrategy sessionStrategy = new SqliteSessionStrategy();
    private final SessionPermits sessions;
    private final Set<TimeLimit> running = ConcurrentHashMap.newKeySet();
    private final SqliteResultSetReader reader = new SqliteResultSetReader();
    private final SqliteParameterBinder binder = new SqliteParameterBinder();
    private final SqliteErrorMapper errors = new SqliteErrorMapper();
    private volatile boolean closed;

    /**
     * Prepares access to the database file described by {@code context}, running the init script first when the
     * file does not exist yet. A missing file without an init script is not a configuration error: calls report
     * {@link DialectError#UNAVAILABLE} until it appears.
     *
     * @param context the connection's context; {@code url} is a file path, optionally with {@code jdbc:sqlite:}
     * @param config the bound properties
     * @throws IllegalArgumentException when the configuration is wrong (bad URL, {@code :memory:}, missing or
     *     failing init script); the message names the key
     */
    public SqliteDialect(DialectContext context, SqliteDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.databaseFile = databaseFile(context.url(), context.homeDirectory());
        this.jdbcUrl = JDBC_PREFIX + databaseFile;
        this.readProperties = connectionProperties(config, true);
        this.writeProperties = connectionProperties(config, false);
        this.sessions = new SessionPermits("SQLite", context.connectionName(), context.poolSize());
        if (config.initScript().isPresent() && !Files.exists(databaseFile)) {
            createFromInitScript(config.initScript().get());
        }
    }

    @Override
    public String sqlFamily() {
        return "sqlite";
    }

    /** SQLite has one schema per attached database, {@code main} for the file itself, and no catalog. */
    @Override
    public TableNamespace defaultNamespace() {
        return new TableNamespace(null, MAIN);
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return sessionStrategy;
    }

    /**
     * The database file.
     *
     * @return the absolute, normalised path
     */
    public Path databaseFile() {
        return databaseFile;
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        long deadline = SessionPermits.deadline(request.timeout());
        acquire(request, deadline);
        try {
            return run(request, sink, deadline);
        } finally {
            sessions.release();
        }
    }

    /**
     * The prepared statement's metadata, on a read-only connection: SQLite compiles the statement and never steps
     * it. A column of a table has its declared type and its NOT NULL; an expression has no type in SQLite until a
     * row is computed, and is described as {@code ANY} ({@link JDBCType#OTHER}), nullability unknown.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        QueryRequest read = request.withMode(AccessMode.READ);
        long deadline = SessionPermits.deadline(request.timeout());
        acquire(request, deadline);
        try {
            return Optional.of(onConnection(read, deadline, (connection, plan, limit) -> {
                try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
                    ResultSetMetaData metaData = statement.getMetaData();
                    List<ColumnInfo> columns = new ArrayList<>();
                    for (ColumnInfo c : columnCount(metaData) == 0 ? List.<ColumnInfo>of() : reader.describe(metaData)) {
                        boolean expression = SqliteResultSetReader.declaredType(metaData, columns.size() + 1) == null;
                        columns.add(expression ? new ColumnInfo(c.name(), "ANY", JDBCType.OTHER,
                                Nullability.UNKNOWN) : c);
                    }
                    return List.copyOf(columns);
                }
            }));
        } finally {
            sessions.release();
        }
    }

    /** {@code SQLite} and {@code sqlite_version()}, such as {@code SQLite 3.54.1}: the library the service runs. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** {@code main}: the file itself (attaching others is refused on every connection). */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code sqlite_schema} and {@code pragma_table_info()}: every table and view of {@code main} but SQLite's
     * own ({@code sqlite_*}). The type name is the declared one ({@code DECIMAL(12,2)}; empty for none), the JDBC
     * type the one a run reports; nullability and the primary key are the declared ones. SQLite keeps no comments,
     * but keeps each CREATE statement as written: comments in it are read as the table's and the columns' ({@link
     * SqliteComments}).
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = SessionPermits.deadline(timeout);
        if (database.isPresent() && !databases(SessionPermits.left(deadline)).contains(database.get())) {
            throw new DialectException(DialectError.SYNTAX, "no SQLite database named '" + database.get()
                    + "' on connection '" + context.connectionName() + "' (only main: ATTACH is refused)");
        }
        CatalogueSink catalogue = new CatalogueSink(SqliteDialect::catalogueColumn);
        execute(QueryRequest.read(CATALOGUE, List.of(), SessionPermits.left(deadline), CatalogueSink.maxRows()), new RowSink() {
            private String table;
            private SqliteComments comments = SqliteComments.NONE;

            @Override
            public void columns(List<ColumnInfo> columns) {
                catalogue.columns(columns);
            }

            @Override
            public boolean row(Object[] values) {
                String name = String.valueOf(values[2]);
                if (!name.equals(table)) {
                    table = name;
                    comments = SqliteComments.of(values[9] == null ? "" : values[9].toString());
                }
                Object[] row = values.clone();
                row[4] = comments.table().orElse(null);
                row[9] = values[5] == null ? null : comments.column(values[5].toString()).orElse(null);
                return catalogue.row(row);
            }
        });
        return Optional.of(catalogue.tables());
    }

    private static SchemaColumn catalogueColumn(Object[] row) {
        String type = row[6] == null ? "" : row[6].toString();
        return new SchemaColumn(row[5].toString(), type, SqliteTypes.of(type),
                CatalogueSink.flag(row[7]) ? Nullability.NO_NULLS
                        : Nullability.NULLABLE,
                ((Number) row[8]).intValue() > 0, CatalogueSink.text(row[9]));
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        ensureOpen();
        if (!Files.isRegularFile(databaseFile)) {
            throw new DialectException(DialectError.UNAVAILABLE, "SQLite database file " + databaseFile
                    + " of connection '" + context.connectionName() + "' does not exist");
        }
        long deadline = SessionPermits.deadline(timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout);
        Object[] answer = new Object[1];
        RowSink sink = new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                answer[0] = values[0];
                return false;
            }
        };
        try {
            // no permit: the check asks whether the file answers, not whether the pool is busy
            run(QueryRequest.read("SELECT count(*) FROM sqlite_schema", List.of(), SessionPermits.left(deadline), 1), sink, deadline);
        } catch (DialectException e) {
            throw e.error() == DialectError.UNAVAILABLE ? e : new DialectException(DialectError.UNAVAILABLE,
                    "SQLite health check of connection '" + context.connectionName() + "' failed: " + e.getMessage(),
                    e.sqlState(), e);
        }
        if (!(answer[0] instanceof Number)) {
            throw new DialectException(DialectError.UNAVAILABLE, "SQLite health check of connection '"
                    + context.connectionName() + "' returned " + answer[0]);
        }
    }

    /** What the file's permissions let others do ({@link SqlitePrivileges}). */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        return SqlitePrivileges.check(databaseFile);
    }

    @Override
    public void close() {
        closed = true;
        for (TimeLimit limit : running) {
            limit.cancel();
        }
    }

    @Override
    public String toString() {
        return "SqliteDialect[" + context.connectionName() + ", " + databaseFile + "]";
    }

    // ---------------------------------------------------------------- one call

    /** What a call does on its connection once the plan's {@code before} statements ran. */
    @FunctionalInterface
    private interface Work<T> {
        T run(SQLiteConnection connection, SessionPlan plan, TimeLimit limit) throws SQLException;
    }

    private QueryStats run(QueryRequest request, RowSink sink, long deadline) {
        return onConnection(request, deadline, (connection, plan, limit) -> {
            sink.onCancellable(limit::cancel);
            if (request.mode() == AccessMode.WRITE && request.maxAffectedRows() > 0) {
                return runWithCeiling(connection, plan, limit, request, sink);
            }
            return runOnce(connection, plan, limit, request, sink);
        });
    }

    /**
     * Opens the call's connection (read-only for a read), sends the plan's {@code before} statements and runs
     * {@code work} under the call's time limit, then closes the connection: nothing outlives the call.
     */
    private <T> T onConnection(QueryRequest request, long deadline, Work<T> work) {
        ensureOpen();
        SessionPlan plan = sessionStrategy.plan(request);
        SqliteStatements.requireSingle(plan.statement());
        SQLiteConnection connection = open(request.mode());
        TimeLimit limit = TimeLimit.start(Duration.ofNanos(deadline - System.nanoTime()),
                () -> connection.getDatabase().interrupt());
        running.add(limit);
        try {
            if (closed) {
                throw closedException();
            }
            for (String statement : plan.before()) {
                try (Statement s = connection.createStatement()) {
                    s.execute(statement);
                }
            }
            T result = work.run(connection, plan, limit);
            throwIfStopped(limit, request);
            return result;
        } catch (SQLException e) {
            throw limit.stopped() ? stoppedException(limit, request, e) : errors.translate(e);
        } finally {
            limit.close();
            running.remove(limit);
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing releases the file handle only; nothing to report to the caller
            }
        }
    }

    private QueryStats runWithCeiling(SQLiteConnection connection, SessionPlan plan, TimeLimit limit,
            QueryRequest request, RowSink sink) throws SQLException {
        // the call's own connection, closed after it: its transaction cannot outlive the call
        connection.setAutoCommit(false);
        try {
            QueryStats stats = runOnce(connection, plan, limit, request, sink);
            // a RETURNING clause answers with rows: they are what it changed
            long affected = stats.updateCount() >= 0 ? stats.updateCount() : stats.rows() + (stats.truncated() ? 1 : 0);
            if (affected > request.maxAffectedRows()) {
                connection.rollback();
                throw new AffectedRowsExceeded(affected, request.maxAffectedRows());
            }
            connection.commit();
            return stats;
        } finally {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        }
    }

    private QueryStats runOnce(SQLiteConnection connection, SessionPlan plan, TimeLimit limit, QueryRequest request,
            RowSink sink) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
            binder.bindAll(statement, request.parameters());
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

    /** The driver's metadata throws for a statement without result columns instead of answering 0. */
    private static int columnCount(ResultSetMetaData metaData) {
        try {
            return metaData == null ? 0 : metaData.getColumnCount();
        } catch (SQLException noColumns) {
            return 0;
        }
    }

    private SQLiteConnection open(AccessMode mode) {
        try {
            SQLiteConnection connection = (SQLiteConnection) new JDBC().connect(jdbcUrl,
                    mode == AccessMode.READ ? readProperties : writeProperties);
            if (connection == null) {
                throw new DialectException(DialectError.INTERNAL, "the SQLite driver refused the URL " + jdbcUrl);
            }
            return connection;
        } catch (SQLException e) {
            ensureOpen();
            DialectException translated = errors.translate(e);
            if (!Files.isRegularFile(databaseFile)) {
                throw new DialectException(DialectError.UNAVAILABLE, "SQLite database file " + databaseFile
                        + " of connection '" + context.connectionName() + "' does not exist", translated.sqlState(), e);
            }
            DialectError error = translated.error() == DialectError.CONFLICT ? DialectError.CONFLICT
                    : DialectError.UNAVAILABLE;
            throw new DialectException(error, "cannot open SQLite database " + databaseFile + " of connection '"
                    + context.connectionName() + "': " + translated.getMessage(), translated.sqlState(), e);
        }
    }

    private void acquire(QueryRequest request, long deadline) {
        ensureOpen();
        sessions.acquire(deadline, request.timeout());
    }

    private void throwIfStopped(TimeLimit limit, QueryRequest request) {
        if (limit.stopped()) {
            throw stoppedException(limit, request, null);
        }
    }

    private DialectException stoppedException(TimeLimit limit, QueryRequest request, SQLException cause) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "SQLite connection '" + context.connectionName()
                    + "' was closed while the statement ran", null, cause);
        }
        if (limit.timedOut()) {
            return new DialectException(DialectError.TIMEOUT, "the statement exceeded its time limit of "
                    + request.timeout().toMillis() + " ms and was interrupted", null, cause);
        }
        return new DialectException(DialectError.CANCELLED, "the statement was cancelled", null, cause);
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "SQLite connection '" + context.connectionName()
                + "' is closed");
    }

    // ---------------------------------------------------------------- opening

    /**
     * The driver settings of every call's connection: never create the file, no attached database, no extension,
     * the busy timeout; a read's connection read-only, a write's in WAL mode with {@code BEGIN IMMEDIATE}
     * transactions (the write lock is taken, or waited for, when the transaction starts, not half-way through).
     */
    private static Properties connectionProperties(SqliteDialectConfig config, boolean read) {
        SQLiteConfig sqlite = new SQLiteConfig();
        sqlite.resetOpenMode(SQLiteOpenMode.CREATE);
        if (read) {
            sqlite.resetOpenMode(SQLiteOpenMode.READWRITE);
            sqlite.setOpenMode(SQLiteOpenMode.READONLY);
        } else {
            sqlite.setJournalMode(SQLiteConfig.JournalMode.WAL);
            sqlite.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        }
        sqlite.enableLoadExtension(false);
        sqlite.setPragma(SQLiteConfig.Pragma.LIMIT_ATTACHED, "0");
        sqlite.setBusyTimeout((int) config.busyTimeout().toMillis());
        return sqlite.toProperties();
    }

    /**
     * Runs the init script into a new file beside the database file and moves it into place, so that a failed or
     * interrupted script never leaves a half-made database behind. The script is trusted configuration, like the
     * YAML, and runs on an ordinary read-write connection.
     */
    private void createFromInitScript(Path scriptFile) {
        String script = readScript(scriptFile);
        Path temporary = databaseFile.resolveSibling(databaseFile.getFileName() + ".init-" + ProcessHandle.current().pid()
                + "-" + Long.toUnsignedString(System.nanoTime()));
        try {
            Path parent = databaseFile.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("url: cannot create the directory of " + databaseFile + ": "
                    + e.getMessage(), e);
        }
        try (SQLiteConnection connection = (SQLiteConnection) new JDBC().connect(JDBC_PREFIX + temporary, new Properties())) {
            if (!script.isBlank()) {
                connection.getDatabase()._exec(script); // sqlite3_exec: every statement of the script
            }
        } catch (SQLException e) {
            deleteQuietly(temporary);
            throw new IllegalArgumentException(SqliteDialectConfig.INIT_SCRIPT + ": " + scriptFile + " failed: "
                    + errors.translate(e).getMessage(), e);
        }
        try {
            Files.move(temporary, databaseFile, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new IllegalArgumentException("url: cannot move the new database into place at " + databaseFile
                    + ": " + e.getMessage(), e);
        }
    }

    private static String readScript(Path scriptFile) {
        if (!Files.isRegularFile(scriptFile)) {
            throw new IllegalArgumentException(SqliteDialectConfig.INIT_SCRIPT + ": no such file: " + scriptFile);
        }
        try {
            return Files.readString(scriptFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(SqliteDialectConfig.INIT_SCRIPT + ": cannot read " + scriptFile + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The database file for a configured URL.
     *
     * @param url the configured URL: a path, optionally prefixed with {@code jdbc:sqlite:}
     * @param home the directory relative paths resolve against
     * @return the absolute, normalised path
     * @throws IllegalArgumentException naming {@code url} when it is empty, in memory, or carries driver options
     */
    static Path databaseFile(String url, Path home) {
        String path = url.strip();
        if (path.startsWith(JDBC_PREFIX)) {
            path = path.substring(JDBC_PREFIX.length());
        }
        if (path.isEmpty() || path.startsWith(MEMORY) || path.startsWith("file:")) {
            throw new IllegalArgumentException("url: expected the path of a SQLite database file, got '" + url + "'"
                    + (path.startsWith(MEMORY) ? " (an in-memory database would be new and empty on every call)" : ""));
        }
        if (path.indexOf('?') >= 0) {
            // the driver reads "?key=value" as settings that override the dialect's (open mode, limits)
            throw new IllegalArgumentException("url: a SQLite database path must not contain '?' (settings go in"
                    + " properties), got '" + url + "'");
        }
        try {
            return home.resolve(path).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("url: not a valid path: '" + url + "'", e);
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
