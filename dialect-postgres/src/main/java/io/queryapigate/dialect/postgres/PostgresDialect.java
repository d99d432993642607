package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.pool.HikariPool;
import io.queryapigate.dialect.jdbc.CatalogueSink;
import io.queryapigate.dialect.jdbc.ConnectGate;
import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.jdbc.ResultSetReader.ColumnReader;
import io.queryapigate.dialect.jdbc.SqlTypeNames;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
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
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.postgresql.core.BaseConnection;

/**
 * One PostgreSQL database reached through a HikariCP pool of pgjdbc connections.
 *
 * <p>Every call borrows a pooled connection (waiting at most the call's time limit, else {@link
 * DialectError#UNAVAILABLE}) and sends what {@link PostgresSessionStrategy} plans: a read or a write is one message
 * and one round trip, run by the server as one implicit transaction in autocommit mode; a streaming read keeps a
 * read-only transaction and a cursor open and fetches {@code postgres.fetch_size} rows per round trip. Nothing is
 * sent when the connection goes back to the pool.
 *
 * <p>Before anything is sent the dialect splits the whole message the way pgjdbc will ({@link PostgresStatements})
 * and refuses, with {@link DialectError#SYNTAX}, user SQL that would become more than one statement: a second
 * statement could end the read-only transaction ({@code COMMIT}) or lift it before the first query ({@code SET
 * TRANSACTION READ WRITE}).
 *
 * <p>The time limit is enforced by the server ({@code SET LOCAL statement_timeout}) and, as a backstop in case the
 * server does not answer, by the client: {@code postgres.timeout_margin} after the limit the statement is cancelled
 * ({@code Statement.cancel()}, a cancel request on a separate connection), and as long again later the connection is
 * aborted and evicted. A streaming read is limited as a whole by the client (the server's limit applies to each
 * statement). The sink's cancel callback cancels the statement the same way and the call reports {@link
 * DialectError#CANCELLED}.
 *
 * <p>The pool ({@code DialectContext.poolSize} connections, autocommit) runs no test query on borrow: a connection
 * is validated only after {@code postgres.pool_idle_validation} without a sign of life (see {@link
 * IdleValidatingDataSource}); connections that fail with SQLSTATE class 08 are evicted. The pool is created even
 * when the database is down; {@link #checkHealth} and calls then report {@link DialectError#UNAVAILABLE}. Once an
 * attempt to connect has failed with a connect-class error they do so at once, not after their time limit, while
 * the pool's filler tries again every {@value #PROBE_INTERVAL_MILLIS} ms ({@link ConnectGate}).
 *
 * <p>Thread-safe.
 */
public final class PostgresDialect implements Dialect {

    private static final Set<Capability> EXTENDED_CAPABILITIES = Set.copyOf(EnumSet.allOf(Capability.class));
    // simple mode renders parameters as literals (pgjdbc's own quoting) instead of binding them
    private static final Set<Capability> SIMPLE_CAPABILITIES =
            Set.copyOf(EnumSet.complementOf(EnumSet.of(Capability.BIND_PARAMETERS)));
    private static final String URL_PREFIX = "jdbc:postgresql:";
    /** The least time between two attempts to connect while the database cannot be reached ({@link ConnectGate}). */
    static final long PROBE_INTERVAL_MILLIS = 200;
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(PROBE_INTERVAL_MILLIS);
    private static final Executor ABORTER = runnable -> Thread.ofPlatform()
            .name("queryapigate-postgres-abort").daemon().start(runnable);

    private static final String SERVER_VERSION = "SELECT 'PostgreSQL ' || current_setting('server_version')";
    private static final String DATABASES = "SELECT datname FROM pg_catalog.pg_database WHERE datallowconn"
            + " AND NOT datistemplate AND has_database_privilege(datname, 'CONNECT') ORDER BY datname";
    private static final String IS_CURRENT_DATABASE = "SELECT (datname = current_database())::text"
            + " FROM pg_catalog.pg_database WHERE datname = ? AND datallowconn AND NOT datistemplate"
            + " AND has_database_privilege(datname, 'CONNECT')";
    /** One row per column of every readable relation, in the {@link CatalogueSink} layout. */
    private static final String CATALOGUE = "SELECT current_database(), n.nspname, c.relname,"
            + " CASE WHEN c.relkind IN ('r', 'p') THEN 'TABLE' WHEN c.relkind IN ('v', 'm') THEN 'VIEW'"
            + " ELSE 'OTHER' END,"
            + " obj_description(c.oid, 'pg_class'), a.attname, format_type(a.atttypid, a.atttypmod),"
            + " COALESCE(bt.typname, t.typname), COALESCE(bt.typcategory, t.typcategory)::text, NOT a.attnotnull,"
            + " COALESCE(a.attnum = ANY (i.indkey), false), col_description(c.oid, a.attnum)"
            + " FROM pg_catalog.pg_class c"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
            + " LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
            + " LEFT JOIN pg_catalog.pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype"
            + " LEFT JOIN pg_catalog.pg_index i ON i.indrelid = c.oid AND i.indisprimary"
            + " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition"
            + " AND n.nspname <> 'information_schema' AND left(n.nspname, 3) <> 'pg_'"
            + " AND has_schema_privilege(n.oid, 'USAGE') AND has_any_column_privilege(c.oid, 'SELECT')"
            + " ORDER BY n.nspname, c.relname, a.attnum";

    private final DialectContext context;
    private final PostgresDialectConfig config;
    private final PostgresSessionStrategy sessionStrategy;
    private final Set<Capability> capabilities;
    private final HikariPool pool;
    private final ConnectGate gate;
    private final String url;
    private final Properties extendedModeProperties;
    private final PostgresErrorMapper errors = new PostgresErrorMapper();
    private final PostgresResultSetReader reader = new PostgresResultSetReader();
    private final ParameterBinder binder = new ParameterBinder();
    private final Set<TimeLimit> running = ConcurrentHashMap.newKeySet();
    private final Object lifecycle = new Object();
    private volatile boolean closed; // written under lifecycle

    /**
     * Creates the pool for {@code context}. Connections are opened in the background; an unreachable database does
     * not fail creation.
     *
     * @param context the connection's context; {@code url} is a {@code jdbc:postgresql:} URL
     * @param config the bound properties
     * @throws IllegalArgumentException when the configuration is wrong; the message names the key
     */
    public PostgresDialect(DialectContext context, PostgresDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.url = checkUrl(context.url());
        this.sessionStrategy = new PostgresSessionStrategy(config.fetchSize());
        this.capabilities = config.queryMode() == QueryMode.EXTENDED ? EXTENDED_CAPABILITIES : SIMPLE_CAPABILITIES;

        Properties properties = new Properties();
        context.user().ifPresent(user -> properties.setProperty("user", user));
        context.password().ifPresent(password -> properties.setProperty("password", password));
        properties.setProperty("preferQueryMode", config.queryMode().pgjdbcValue());
        properties.setProperty("ApplicationName", config.applicationName());
        long connectSeconds = Math.max(1, config.connectTimeout().toSeconds());
        properties.setProperty("connectTimeout", Long.toString(connectSeconds));
        properties.setProperty("loginTimeout", Long.toString(connectSeconds));
        // the cancel request runs on the shared time-limit thread: keep it short when the server does not answer
        properties.setProperty("cancelSignalTimeout",
                Long.toString(Math.max(1, Math.min(10, config.timeoutMargin().toSeconds()))));
        properties.setProperty("tcpKeepAlive", "true");
        // startup parameters are what RESET ALL returns to: with a 9.0+ server assumed, pgjdbc sends
        // application_name (and extra_float_digits) in the startup packet instead of a SET after connecting
        properties.setProperty("assumeMinServerVersion", "10");

        this.extendedModeProperties = new Properties();
        extendedModeProperties.putAll(properties);
        extendedModeProperties.setProperty("preferQueryMode", QueryMode.EXTENDED.pgjdbcValue());

        this.gate = new ConnectGate("PostgreSQL connection '" + context.connectionName() + "'", PROBE_INTERVAL);
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("queryapigate-postgres-" + context.connectionName());
        hikari.setDataSource(new IdleValidatingDataSource(url, properties, config.poolIdleValidation().toNanos(),
                gate));
        hikari.setMaximumPoolSize(context.poolSize());
        hikari.setMinimumIdle(context.poolSize());
        hikari.setAutoCommit(true);
        long defaultMillis = Math.max(250, Math.min(context.defaultTimeout().toMillis(), TimeUnit.MINUTES.toMillis(10)));
        hikari.setConnectionTimeout(defaultMillis);
        hikari.setValidationTimeout(Math.max(250, Math.min(defaultMillis, TimeUnit.SECONDS.toMillis(5))));
        hikari.setInitializationFailTimeout(-1);
        hikari.setMaxLifetime(config.maxLifetime().toMillis());
        if (hikari.getKeepaliveTime() >= config.maxLifetime().toMillis()) {
            hikari.setKeepaliveTime(0);
        }
        hikari.validate();
        this.pool = new HikariPool(hikari);
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
     * The bound configuration.
     *
     * @return the configuration
     */
    public PostgresDialectConfig config() {
        return config;
    }

    /**
     * HikariCP's view of the pool, for the service's metrics (active, idle, total, waiting connections) and for
     * operations such as {@code softEvictConnections()}.
     *
     * @return the pool's management interface
     */
    public HikariPoolMXBean poolMXBean() {
        return pool;
    }

    /**
     * A snapshot of the pool's counts.
     *
     * @return the snapshot
     */
    public PostgresPoolStats poolStats() {
        return new PostgresPoolStats(pool.getActiveConnections(), pool.getIdleConnections(), pool.getTotalConnections(),
                pool.getThreadsAwaitingConnection(), context.poolSize());
    }

    @Override
    public String sqlFamily() {
        return "postgres";
    }

    @Override
    public java.util.Map<String, Number> metrics() {
        return java.util.Map.of("pool.active", pool.getActiveConnections(), "pool.idle", pool.getIdleConnections(),
                "pool.total", pool.getTotalConnections(), "pool.waiting", pool.getThreadsAwaitingConnection());
    }

    /** The URL's database, and {@code public}: the first schema of PostgreSQL's default search_path. */
    @Override
    public TableNamespace defaultNamespace() {
        String url = context.url();
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        String database = null;
        if (url.startsWith("jdbc:postgresql://") && slash > 0) {
            int end = url.indexOf('?', slash);
            database = url.substring(slash + 1, end < 0 ? url.length() : end);
        }
        return new TableNamespace(database == null || database.isEmpty() ? null : database, "public");
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        return execute(request, sink, request.schema());
    }

    /**
     * Runs a call whose tables were checked against {@code schema}: as {@link #execute(QueryRequest, RowSink)}, with
     * {@code SET LOCAL search_path = "<schema>", pg_temp} in the message ({@link QueryRequest#schema()} carries it
     * from the service).
     *
     * @param request the request
     * @param sink where the result goes
     * @param schema the schema to pin, or null
     * @return counts for the finished call
     * @throws DialectException when the statement fails, times out, is cancelled or cannot reach the database
     */
    public QueryStats execute(QueryRequest request, RowSink sink, String schema) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        ensureOpen();
        SessionPlan plan;
        try {
            plan = sessionStrategy.plan(request, schema);
        } catch (IllegalArgumentException e) {
            throw new DialectException(DialectError.SYNTAX, "invalid schema to pin: " + e.getMessage());
        }
        Connection connection = borrow(deadline, request.timeout());
        Call call = new Call(request, plan, sink, connection, deadline, false);
        try {
            return call.run();
        } finally {
            call.release();
        }
    }

    /** {@code PostgreSQL} and the server's {@code server_version}, such as {@code PostgreSQL 15.18 (Debian ...)}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** The databases this user may connect to, templates left out. */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code pg_class}, {@code pg_attribute}, {@code pg_index} and {@code obj_description}/{@code
     * col_description}, in a read call: the tables (partitioned ones as one table, their partitions left out),
     * views, materialized views ({@link SchemaTable.Kind#VIEW}) and foreign tables ({@link SchemaTable.Kind#OTHER})
     * of every schema but {@code information_schema} and the {@code pg_*} ones, that the user may read (USAGE on the
     * schema, SELECT on the table or one of its columns). The type name is {@code format_type}'s ({@code
     * character varying(100)}), the JDBC type pgjdbc's for the type (a domain's base type). At most {@value
     * CatalogueSink#MAX_TABLES} tables and {@value CatalogueSink#MAX_COLUMNS} columns.
     *
     * <p>A session sees its own database's catalogue only: another database is refused ({@link
     * DialectError#SYNTAX}); browse it with a connection to that database.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        if (database.isPresent()) {
            Parameter named = new Parameter("database", database.get(), JDBCType.VARCHAR);
            List<String> isCurrent = CatalogueSink.firstColumn(this,
                    QueryRequest.read(IS_CURRENT_DATABASE, List.of(named), timeout, 1));
            if (isCurrent.isEmpty()) {
                throw new DialectException(DialectError.SYNTAX, "no database named '" + database.get()
                        + "' that connection '" + context.connectionName() + "' may connect to");
            }
            if (!CatalogueSink.flag(isCurrent.get(0))) {
                throw new DialectException(DialectError.SYNTAX, "database '" + database.get() + "' is not the one"
                        + " connection '" + context.connectionName() + "' uses: a PostgreSQL session reads only its"
                        + " own database's catalogue; browse it with a connection to that database");
            }
        }
        CatalogueSink sink = new CatalogueSink(PostgresDialect::catalogueColumn);
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        execute(QueryRequest.read(CATALOGUE, List.of(), left, CatalogueSink.maxRows()), sink);
        return Optional.of(sink.tables());
    }

    private static SchemaColumn catalogueColumn(Object[] row) {
        return new SchemaColumn(row[5].toString(), row[6].toString(), jdbcType(row[7].toString(), row[8].toString()),
                CatalogueSink.nullability(row[9]), CatalogueSink.flag(row[10]), CatalogueSink.text(row[11]));
    }

    /**
     * The JDBC type pgjdbc reports for a column of a type, from {@code pg_type}'s name and category (a domain's
     * base type's): {@code bool} is {@link JDBCType#BIT}, an array type (category {@code A}) {@link
     * JDBCType#ARRAY}, the rest as pgjdbc's type table has them.
     */
    static JDBCType jdbcType(String typname, String category) {
        if (category.equals("A")) {
            return JDBCType.ARRAY;
        }
        return switch (typname) {
            case "bool" -> JDBCType.BIT;
            case "text", "name", "varchar" -> JDBCType.VARCHAR;
            case "oid" -> JDBCType.BIGINT;
            case "money" -> JDBCType.DOUBLE;
            case "xml" -> JDBCType.SQLXML;
            case "json", "jsonb", "uuid", "interval", "inet", "cidr", "macaddr", "point", "tsvector" -> JDBCType.OTHER;
            default -> category.equals("E") ? JDBCType.VARCHAR : SqlTypeNames.nearest(typname);
        };
    }

    /**
     * pgjdbc's Parse and Describe of the statement ({@code PreparedStatement.getMetaData()} before it ran), as
     * {@link PostgresSessionStrategy#describePlan} plans it: nothing is planned or run, in a read-only transaction
     * that is rolled back. The parameters are bound as typed NULLs first, so that a {@code ?} has its declared type
     * ({@code ? AS p} is {@code varchar} for a text parameter). Nullability is what pgjdbc reads from the catalog:
     * {@link Nullability#NO_NULLS} for a {@code NOT NULL} table column, {@link Nullability#NULLABLE} for another
     * table column, {@link Nullability#UNKNOWN} for an expression.
     *
     * <p>In simple query mode pgjdbc cannot describe a statement without running it (it sends a Query message), so
     * the describe opens a connection of its own in extended mode for the one call, and closes it after.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        ensureOpen();
        SessionPlan plan;
        try {
            plan = sessionStrategy.describePlan(request, request.schema());
        } catch (IllegalArgumentException e) {
            throw new DialectException(DialectError.SYNTAX, "invalid schema to pin: " + e.getMessage());
        }
        boolean ownConnection = config.queryMode() == QueryMode.SIMPLE;
        Connection connection = ownConnection ? connectInExtendedMode() : borrow(deadline, request.timeout());
        Call call = new Call(request, plan, null, connection, deadline, true);
        try {
            return Optional.of(call.describe());
        } finally {
            if (ownConnection) {
                closeQuietly(connection);
            } else {
                call.release();
            }
        }
    }

    /** The plan's ROLLBACK, and autocommit back on; false when the connection is unusable. */
    private static boolean endTransaction(Connection connection) {
        try {
            if (!connection.isClosed() && !connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** A pgjdbc connection of the describe's own, in extended mode, for a dialect in simple mode. */
    private Connection connectInExtendedMode() {
        try {
            Connection connection = new org.postgresql.Driver().connect(url, extendedModeProperties);
            if (connection == null) {
                throw unavailable("pgjdbc does not accept the URL", null);
            }
            return connection;
        } catch (SQLException e) {
            throw unavailable("cannot connect to describe a statement: " + errors.translate(e).getMessage(), e);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // a connection of its own, used once: nothing to report
        }
    }

    /** Why a call the time limit or a cancel stopped failed: closed, timed out, or cancelled. */
    private DialectException stopped(TimeLimit limit, Canceller canceller, QueryRequest request, SQLException cause) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "PostgreSQL connection '"
                    + context.connectionName() + "' was closed while the statement ran", null, cause);
        }
        if (limit.timedOut()) {
            return new DialectException(DialectError.TIMEOUT, "the statement exceeded its time limit of "
                    + request.timeout().toMillis() + " ms and was cancelled"
                    + (canceller.aborted() ? " (the server did not answer; the connection was dropped)" : ""),
                    cause == null ? null : cause.getSQLState(), cause);
        }
        return new DialectException(DialectError.CANCELLED, "the statement was cancelled",
                cause == null ? null : cause.getSQLState(), cause);
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        ensureOpen();
        Duration limit = timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout;
        long deadline = System.nanoTime() + saturatedNanos(limit);
        Connection connection = borrow(deadline, limit);
        boolean broken = true;
        AtomicReference<Statement> current = new AtomicReference<>();
        try (Statement statement = connection.createStatement()) {
            current.set(statement);
            // at the deadline: cancel and drop the connection at once, the check has failed either way
            Canceller canceller = new Canceller(current, connection, 0);
            try (TimeLimit timeLimit = TimeLimit.start(Duration.ofNanos(deadline - System.nanoTime()), canceller)) {
                Object answer = null;
                try (ResultSet result = statement.executeQuery("SELECT 1")) {
                    if (result.next()) {
                        answer = result.getObject(1);
                    }
                } catch (SQLException e) {
                    throw unavailable("health check failed" + (timeLimit.timedOut() ? " (no answer within "
                            + limit.toMillis() + " ms)" : "") + ": " + errors.translate(e).getMessage(), e);
                }
                if (!(answer instanceof Number one) || one.intValue() != 1) {
                    throw unavailable("health check returned " + answer + " for SELECT 1", null);
                }
                broken = canceller.aborted();
            }
        } catch (SQLException e) {
            throw unavailable("health check failed: " + errors.translate(e).getMessage(), e);
        } finally {
            if (!broken) {
                markAlive(connection);
            }
            giveBack(connection, broken);
        }
    }

    /** Superuser, BYPASSRLS, CREATEROLE, REPLICATION and powerful predefined roles ({@link PostgresPrivileges}). */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        return PostgresPrivileges.check(this, timeout);
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        gate.close();
        for (TimeLimit limit : running) {
            limit.cancel();
        }
        try {
            pool.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "PostgresDialect[" + context.connectionName() + ", " + context.url() + ", mode="
                + config.queryMode().pgjdbcValue() + ", pool=" + context.poolSize() + "]";
    }

    // ---------------------------------------------------------------- one call

    /** What a call does on its connection under the call's time limit. */
    @FunctionalInterface
    private interface OnConnection<T> {
        T run(Call call, BaseConnection pg) throws SQLException;
    }

    /** One call on one borrowed connection; used by the calling thread only (the canceller excepted). */
    private final class Call {
        private final QueryRequest request;
        private final SessionPlan plan;
        private final RowSink sink;
        private final Connection connection;
        private final long deadline;
        private final AtomicReference<Statement> current = new AtomicReference<>();
        private final Canceller canceller;
        private final boolean describing;
        private TimeLimit limit;
        private BaseConnection pg;
        private boolean broken;

        Call(QueryRequest request, SessionPlan plan, RowSink sink, Connection connection, long deadline,
                boolean describing) {
            this.request = request;
            this.plan = plan;
            this.sink = sink;
            this.connection = connection;
            this.deadline = deadline;
            this.describing = describing;
            this.canceller = new Canceller(current, connection, config.timeoutMargin().toNanos());
        }

        QueryStats run() {
            boolean streaming = request.streaming() && request.mode() == AccessMode.READ;
            // a single message is limited by the server; the client steps in a margin later. A stream is limited
            // as a whole by the client (the server's statement_timeout applies to each FETCH).
            long clientLimit = deadline - System.nanoTime() + (streaming ? 0 : config.timeoutMargin().toNanos());
            OnConnection<QueryStats> work = streaming ? Call::stream
                    : request.maxAffectedRows() > 0 ? Call::ceilingMessage : Call::message;
            return within(clientLimit, work);
        }

        /** The statement's result columns, from pgjdbc's Parse and Describe, inside the plan's transaction. */
        List<ColumnInfo> describe() {
            return within(deadline - System.nanoTime() + config.timeoutMargin().toNanos(), Call::columns);
        }

        /**
         * Runs {@code work} under the call's time limit: the connection is marked broken when the failure says it
         * is unusable or the canceller had to abort it. A describe also ends its transaction before the limit is
         * lifted, and does not trust its connection after an unexpected failure.
         */
        private <T> T within(long clientLimitNanos, OnConnection<T> work) {
            limit = TimeLimit.start(Duration.ofNanos(clientLimitNanos), canceller);
            running.add(limit);
            try {
                if (closed) {
                    throw closedException();
                }
                BaseConnection pg = connection.unwrap(BaseConnection.class);
                this.pg = pg;
                T result = work.run(this, pg);
                throwIfStopped();
                return result;
            } catch (SQLException e) {
                DialectException translated = translate(e);
                broken = translated.error() == DialectError.UNAVAILABLE;
                throw translated;
            } catch (DialectException e) {
                broken = e.error() == DialectError.UNAVAILABLE;
                throw e;
            } catch (RuntimeException e) {
                broken |= describing;
                throw e;
            } finally {
                if (describing) {
                    broken |= !endTransaction(connection);
                }
                limit.close();
                running.remove(limit);
                broken |= canceller.aborted();
            }
        }

        void release() {
            if (!broken) {
                markAlive(connection);
            }
            giveBack(connection, broken);
        }

        private List<ColumnInfo> columns(BaseConnection pg) throws SQLException {
            int statements;
            try {
                statements = PostgresStatements.count(plan.statement(), pg.getStandardConformingStrings());
            } catch (IllegalArgumentException e) {
                throw new DialectException(DialectError.SYNTAX, e.getMessage());
            }
            if (statements != 1) {
                throw new DialectException(DialectError.SYNTAX, "the SQL must be exactly one statement (" + statements
                        + " statements); nothing was sent");
            }
            connection.setAutoCommit(false); // pgjdbc sends the plan's BEGIN with the first message
            try (Statement settings = connection.createStatement()) {
                current.set(settings);
                settings.execute(String.join("; ", plan.before().subList(1, plan.before().size())));
            }
            try (PreparedStatement statement = connection.prepareStatement(plan.statement())) {
                current.set(statement);
                binder.bindAll(statement, request.parameters());
                return reader.describe(statement.getMetaData());
            } finally {
                current.set(null);
            }
        }

        /** A read or a write: one message, its results walked to the user's statement. */
        private QueryStats message(BaseConnection pg) throws SQLException {
            List<String> before = plan.before();
            int userIndex = before.size();
            try (Message message = prepare(pg, before, plan.statement(), plan.after())) {
                Statement statement = message.statement();
                if (request.mode() == AccessMode.READ) {
                    statement.setMaxRows(maxRowsPlusOne(request.maxRows()));
                }
                sink.onCancellable(limit::cancel);
                throwIfStopped();
                boolean isResult = message.execute();
                QueryStats stats = null;
                for (int index = 0; isResult || statement.getUpdateCount() != -1; index++) {
                    if (index == userIndex) {
                        stats = isResult ? readResult(statement.getResultSet()) : updated(statement.getLargeUpdateCount());
                    }
                    isResult = statement.getMoreResults();
                }
                if (stats == null) {
                    throw new DialectException(DialectError.INTERNAL, "the server returned fewer results than the "
                            + (before.size() + 1 + plan.after().size()) + " statements sent");
                }
                return stats;
            }
        }

        /**
         * A write with a ceiling of affected rows: the same message inside an explicit transaction (pgjdbc's BEGIN
         * with it), committed when the statement changed at most the ceiling, else rolled back; autocommit is on
         * again before the connection goes back. A rollback undoes the message's own reset too, so the plan's
         * {@code after} is sent once more, in autocommit, before the refusal.
         */
        private QueryStats ceilingMessage(BaseConnection pg) throws SQLException {
            connection.setAutoCommit(false);
            try {
                QueryStats stats = message(pg);
                if (stats.updateCount() > request.maxAffectedRows()) {
                    connection.rollback();
                    connection.setAutoCommit(true);
                    try (Statement reset = connection.createStatement()) {
                        current.set(reset);
                        reset.execute(String.join("; ", plan.after()));
                    } finally {
                        current.set(null);
                    }
                    throw new AffectedRowsExceeded(stats.updateCount(), request.maxAffectedRows());
                }
                connection.commit();
                return stats;
            } finally {
                if (!connection.isClosed() && !connection.getAutoCommit()) {
                    connection.rollback(); // a failure inside the transaction
                    connection.setAutoCommit(true);
                }
            }
        }

        /** A streaming read: BEGIN (pgjdbc), the message with DECLARE and the first FETCH, more FETCHes, ROLLBACK. */
        private QueryStats stream(BaseConnection pg) throws SQLException {
            List<String> before = plan.before().subList(1, plan.before().size()); // BEGIN is pgjdbc's, below
            String firstFetch = plan.after().get(0);
            connection.setAutoCommit(false);
            try {
                long delivered = 0;
                boolean truncated = false;
                try (Message message = prepare(pg, before, plan.statement(), List.of(firstFetch))) {
                    Statement statement = message.statement();
                    sink.onCancellable(limit::cancel);
                    throwIfStopped();
                    boolean isResult = message.execute();
                    int fetchIndex = before.size() + 1;
                    ResultSet batch = null;
                    for (int index = 0; index < fetchIndex && (isResult || statement.getUpdateCount() != -1); index++) {
                        isResult = statement.getMoreResults();
                    }
                    if (isResult) {
                        batch = statement.getResultSet();
                    }
                    if (batch == null) {
                        throw new DialectException(DialectError.INTERNAL, "the server returned no rows for the cursor");
                    }
                    List<ColumnInfo> columns = reader.columns(batch, pg);
                    ColumnReader[] readers = reader.readers(columns);
                    Object[] values = new Object[readers.length];
                    sink.columns(columns);
                    long asked = sessionStrategy.fetchRows(request.maxRows(), 0);
                    Statement fetchStatement = null;
                    try {
                        while (true) {
                            long inBatch = 0;
                            boolean stop = false;
                            while (!limit.stopped() && batch.next()) {
                                inBatch++;
                                if (delivered == request.maxRows()) {
                                    truncated = true;
                                    stop = true;
                                    break;
                                }
                                for (int i = 0; i < readers.length; i++) {
                                    values[i] = readers[i].read(batch, i + 1);
                                }
                                delivered++;
                                if (!sink.row(values)) {
                                    stop = true;
                                    break;
                                }
                            }
                            batch.close();
                            if (stop || limit.stopped() || inBatch < asked) {
                                break;
                            }
                            asked = sessionStrategy.fetchRows(request.maxRows(), delivered);
                            if (fetchStatement == null) {
                                fetchStatement = connection.createStatement();
                            }
                            current.set(fetchStatement);
                            throwIfStopped();
                            batch = fetchStatement.executeQuery(PostgresSessionStrategy.fetch(asked));
                        }
                    } finally {
                        if (fetchStatement != null) {
                            current.set(null);
                            fetchStatement.close();
                        }
                    }
                }
                throwIfStopped();
                return QueryStats.read(delivered, truncated);
            } finally {
                endStream();
            }
        }

        private void endStream() {
            try {
                if (!connection.isClosed()) {
                    connection.rollback();
                    connection.setAutoCommit(true);
                }
            } catch (SQLException e) {
                // the connection is unusable; HikariCP would otherwise reset it, evict it instead
                broken = true;
            }
        }

        /** The statement for one message: prepared with bound parameters, or (simple mode) rendered by pgjdbc. */
        private Message prepare(BaseConnection pg, List<String> before, String userStatement, List<String> after)
                throws SQLException {
            boolean scs = pg.getStandardConformingStrings();
            if (config.queryMode() == QueryMode.EXTENDED) {
                String text = PostgresSessionStrategy.message(before, userStatement, after);
                checkOneStatement(text, userStatement, before.size() + 1 + after.size(), scs);
                PreparedStatement statement = connection.prepareStatement(text);
                try {
                    binder.bindAll(statement, request.parameters());
                } catch (SQLException | RuntimeException e) {
                    statement.close();
                    throw e;
                }
                current.set(statement);
                return new Message(statement, null);
            }
            // simple mode: a PreparedStatement with several statements would go out as one Query message per
            // statement, each its own transaction (read-only and the time limit would not reach the user's SQL);
            // so the user's statement is rendered with pgjdbc's literal quoting and the message sent as one string
            String rendered;
            try (PreparedStatement user = connection.prepareStatement(userStatement)) {
                binder.bindAll(user, request.parameters());
                // pgjdbc's PgPreparedStatement renders its SQL with the bound values (HikariCP's proxy does not)
                rendered = user.unwrap(PreparedStatement.class).toString();
            }
            String text = PostgresSessionStrategy.message(before, rendered, after);
            checkOneStatement(text, rendered, before.size() + 1 + after.size(), scs);
            Statement statement = connection.createStatement();
            current.set(statement);
            return new Message(statement, text);
        }

        private void checkOneStatement(String text, String userStatement, int expected, boolean scs) {
            int statements;
            try {
                statements = PostgresStatements.split(text, scs).size();
            } catch (IllegalArgumentException e) {
                throw new DialectException(DialectError.SYNTAX, e.getMessage());
            }
            if (statements != expected) {
                int user;
                try {
                    user = PostgresStatements.count(userStatement, scs);
                } catch (IllegalArgumentException e) {
                    user = -1;
                }
                throw new DialectException(DialectError.SYNTAX, "the SQL must be exactly one statement, but pgjdbc"
                        + " would not send it as one (" + (user == 1 ? "it hides a statement of this dialect's message"
                        : user + " statements") + "); nothing was sent");
            }
        }

        private QueryStats readResult(ResultSet result) throws SQLException {
            try (result) {
                if (request.mode() == AccessMode.READ) {
                    return reader.read(result, pg, sink, request.maxRows(), limit::stopped);
                }
                // a write with RETURNING: its rows, and their count as the update count
                QueryStats delivered = reader.read(result, pg, sink, request.maxRows(), limit::stopped);
                long total = delivered.rows();
                if (delivered.truncated()) {
                    total++; // the row that told read() there was more
                    while (result.next()) {
                        total++;
                    }
                }
                return new QueryStats(delivered.rows(), total, delivered.truncated());
            }
        }

        private QueryStats updated(long updateCount) {
            sink.columns(List.of());
            return new QueryStats(0, request.mode() == AccessMode.WRITE ? Math.max(0, updateCount) : -1, false);
        }

        private void throwIfStopped() {
            if (limit.stopped()) {
                throw stoppedException(null);
            }
        }

        private DialectException translate(SQLException e) {
            if (limit.stopped()) {
                return stoppedException(e);
            }
            return errors.translate(e);
        }

        private DialectException stoppedException(SQLException cause) {
            return stopped(limit, canceller, request, cause);
        }
    }

    /**
     * The JDBC statement of one message and how to send it: a prepared statement (extended mode) or a plain one
     * with its text (simple mode).
     */
    private record Message(Statement statement, String simpleText) implements AutoCloseable {
        boolean execute() throws SQLException {
            return simpleText == null ? ((PreparedStatement) statement).execute() : statement.execute(simpleText);
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }

    // ---------------------------------------------------------------- pool

    /**
     * A pooled connection by {@code deadline}; at once {@link DialectError#UNAVAILABLE} while the database cannot be
     * reached ({@link ConnectGate}), instead of waiting the whole time for a connection that cannot be made.
     */
    private Connection borrow(long deadline, Duration timeout) {
        try {
            return gate.borrow(pool::getConnection, deadline);
        } catch (SQLException e) {
            if (closed) {
                throw closedException();
            }
            SQLException cause = e.getNextException();
            throw unavailable("no connection available within " + timeout.toMillis() + " ms (pool size "
                    + context.poolSize() + ")" + (cause == null ? "" : ": " + errors.translate(cause).getMessage()), e);
        }
    }

    private void giveBack(Connection connection, boolean evict) {
        if (evict) {
            pool.evictConnection(connection);
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // HikariCP's close returns the connection to the pool; a failing reset evicts it there
        }
    }

    private static void markAlive(Connection connection) {
        try {
            connection.unwrap(IdleValidatingDataSource.AliveTracking.class).markAlive();
        } catch (SQLException notOurs) {
            // not from this dialect's data source; nothing to record
        }
    }

    // ---------------------------------------------------------------- helpers

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "PostgreSQL connection '" + context.connectionName()
                + "' is closed");
    }

    private DialectException unavailable(String message, SQLException cause) {
        return new DialectException(DialectError.UNAVAILABLE, "PostgreSQL connection '" + context.connectionName()
                + "': " + message, cause == null ? null : cause.getSQLState(), cause);
    }

    private static int maxRowsPlusOne(long maxRows) {
        return (int) Math.min(Integer.MAX_VALUE, maxRows + 1);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    /**
     * pgjdbc properties the dialect sets itself, refused in the URL (where pgjdbc would let them win): the query
     * mode decides the capabilities, the application name is a property, the startup parameters must be what
     * RESET ALL returns to, and autosave would add SAVEPOINTs to a stream's transaction.
     */
    static final Set<String> URL_PROPERTIES_SET_BY_THE_DIALECT =
            Set.of("preferquerymode", "applicationname", "assumeminserverversion", "autosave");

    /**
     * Checks the configured URL.
     *
     * @param url the URL from YAML
     * @return the URL
     * @throws IllegalArgumentException naming {@code url} when it is not a pgjdbc URL or sets a property the
     *     dialect sets ({@link #URL_PROPERTIES_SET_BY_THE_DIALECT})
     */
    static String checkUrl(String url) {
        String text = url.strip();
        if (!text.startsWith(URL_PREFIX)) {
            throw new IllegalArgumentException("url: expected a " + URL_PREFIX + "//host:port/database URL, got '"
                    + url + "'");
        }
        int query = text.indexOf('?');
        if (query >= 0) {
            for (String pair : text.substring(query + 1).split("&")) {
                String key = pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair;
                if (URL_PROPERTIES_SET_BY_THE_DIALECT.contains(key.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("url: the dialect sets " + key + " itself"
                            + (key.equalsIgnoreCase("preferQueryMode") ? " (use " + PostgresDialectConfig.PREFER_QUERY_MODE + ")"
                            : key.equalsIgnoreCase("ApplicationName") ? " (use " + PostgresDialectConfig.APPLICATION_NAME + ")"
                            : "") + "; remove it from the URL");
                }
            }
        }
        try {
            new URI(text.substring("jdbc:".length()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url: not a valid URL: '" + url + "'", e);
        }
        return text;
    }

    /**
     * Cancels the running statement ({@code Statement.cancel()}, which pgjdbc ignores unless a query is running, so
     * it is safe to repeat); once {@code abortAfterNanos} have passed since the first attempt without the call
     * ending, aborts the connection so that a thread waiting for a server that never answers is released.
     */
    private static final class Canceller implements TimeLimit.Canceller {
        private final AtomicReference<Statement> current;
        private final Connection connection;
        private final long abortAfterNanos;
        private long firstAttempt; // guarded by TimeLimit's lock
        private boolean attempted; // guarded by TimeLimit's lock
        private volatile boolean aborted;

        Canceller(AtomicReference<Statement> current, Connection connection, long abortAfterNanos) {
            this.current = current;
            this.connection = connection;
            this.abortAfterNanos = abortAfterNanos;
        }

        @Override
        public void cancel() throws SQLException {
            long now = System.nanoTime();
            if (!attempted) {
                attempted = true;
                firstAttempt = now;
            }
            Statement statement = current.get();
            if (statement != null && !aborted) {
                statement.cancel();
            }
            if (!aborted && now - firstAttempt >= abortAfterNanos) {
                aborted = true;
                connection.unwrap(BaseConnection.class).abort(ABORTER);
            }
        }

        boolean aborted() {
            return aborted;
        }
    }
}
