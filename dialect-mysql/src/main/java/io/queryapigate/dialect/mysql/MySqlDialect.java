package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import com.mysql.cj.jdbc.JdbcConnection;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.pool.HikariPool;
import io.queryapigate.dialect.jdbc.CatalogueSink;
import io.queryapigate.dialect.jdbc.ConnectGate;
import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.jdbc.SqlTypeNames;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
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
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The MySQL / MariaDB dialect: Connector/J connections in two HikariCP pools (reads, and writes once the first
 * write arrives), each connection living in a chained transaction of its pool's access mode.
 *
 * <p>A read sends the statement (with its time limit inside it where the server allows) and then {@code ROLLBACK
 * AND CHAIN}: 2 round trips, of which only the first is on the caller's path: the release is sent after the rows
 * were read, from a thread of its own, while the caller's answer goes out. After the release the server's status
 * flags (sent with every reply, so free) must show a read-only transaction, autocommit and the backslash-escape mode
 * as at open; otherwise the connection is closed instead of reused; until then it stays out of the pool. See
 * {@link MySqlSessionStrategy} for the plans and docs/dialects/mysql.md for what is proven.
 *
 * <p>Rows are always read as a Connector/J streaming result (fetch size {@code Integer.MIN_VALUE}): memory stays
 * flat whatever the result size, and reading stops at {@code maxRows}. Streaming costs no extra round trip because
 * {@code netTimeoutForStreamingResults} is 0 (otherwise Connector/J sends {@code SET net_write_timeout} first).
 * When a read stops early with more rows pending, up to {@value #DRAIN_BUDGET} further rows are skipped; beyond that
 * the statement is killed and the connection closed.
 *
 * <p>Once an attempt to connect has failed with a connect-class error (the server is stopped or unreachable), calls
 * fail at once with {@link DialectError#UNAVAILABLE} instead of waiting their time limit for a pooled connection,
 * while the pool's filler tries again every 200 ms; the first success lets calls through again ({@link ConnectGate}).
 */
public final class MySqlDialect implements Dialect {
    private static final System.Logger LOG = System.getLogger(MySqlDialect.class.getName());

    /** "This command is not supported in the prepared statement protocol yet". */
    private static final int ER_UNSUPPORTED_PS = 1295;
    /** "Cannot execute statement in a READ ONLY transaction": MariaDB refuses to prepare a write in one. */
    private static final int ER_READ_ONLY_TRANSACTION = 1792;

    /** Rows skipped to finish a stopped streaming read before killing it instead. */
    static final int DRAIN_BUDGET = 10_000;

    /** The least time between two attempts to connect while the server cannot be reached ({@link ConnectGate}). */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(200);

    /**
     * How long after the client's time limit a statement that a kill did not stop has its socket closed: a kill is
     * answered within milliseconds by a server that answers at all, and a caller of a frozen network should get its
     * 504 soon after its limit.
     */
    static final Duration ABORT_AFTER = Duration.ofSeconds(1);

    /** URL properties refused because they weaken the session strategy or add round trips. */
    static final Set<String> FORBIDDEN_URL_PROPERTIES = Set.of(
            "allowmultiqueries", "allowloadlocalinfile", "allowloadlocalinfileinpath", "allowurlinlocalinfile",
            "autoreconnect", "autoreconnectforpools", "useserverprepstmts", "usecursorfetch",
            "nettimeoutforstreamingresults", "uselocalsessionstate", "readonlypropagatestoserver");

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.SERVER_ENFORCED_READ_ONLY, Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION,
            Capability.STREAMING, Capability.AFFECTED_ROWS_CEILING));

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final String SERVER_VERSION = "SELECT VERSION()";
    private static final String DATABASES = "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA"
            + " WHERE SCHEMA_NAME NOT IN ('information_schema', 'mysql', 'performance_schema', 'sys')"
            + " ORDER BY SCHEMA_NAME";
    /**
     * One row per column of every table and view of one schema, in the {@link CatalogueSink} layout; {@code %1$s}
     * is the schema ({@code DATABASE()} or {@code ?}), compared in each view's own condition so that the server
     * opens that schema's tables only.
     */
    private static final String CATALOGUE = "SELECT NULL, t.TABLE_SCHEMA, t.TABLE_NAME,"
            + " CASE WHEN t.TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') THEN 'TABLE'"
            + " WHEN t.TABLE_TYPE = 'VIEW' THEN 'VIEW' ELSE 'OTHER' END,"
            // a view's TABLE_COMMENT is the word VIEW
            + " CASE WHEN t.TABLE_TYPE = 'VIEW' THEN NULL ELSE t.TABLE_COMMENT END,"
            + " c.COLUMN_NAME, c.COLUMN_TYPE, c.DATA_TYPE, c.IS_NULLABLE, k.COLUMN_NAME IS NOT NULL, c.COLUMN_COMMENT"
            + " FROM information_schema.TABLES t"
            + " LEFT JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = %1$s AND c.TABLE_NAME = t.TABLE_NAME"
            + " LEFT JOIN information_schema.KEY_COLUMN_USAGE k ON k.TABLE_SCHEMA = %1$s"
            + " AND k.TABLE_NAME = c.TABLE_NAME AND k.COLUMN_NAME = c.COLUMN_NAME AND k.CONSTRAINT_NAME = 'PRIMARY'"
            + " WHERE t.TABLE_SCHEMA = %1$s ORDER BY t.TABLE_NAME, c.ORDINAL_POSITION";

    private final DialectContext context;
    private final MySqlDialectConfig config;
    private final String url;
    private final Properties driverProperties;
    private final MySqlErrorMapper errors = new MySqlErrorMapper();
    private final ParameterBinder binder = new ParameterBinder();
    private final ResultSetReader reader = new MySqlResultSetReader();
    private final ExecutorService killExecutor;
    private final QueryKiller killer;
    private final ConnectGate gate;
    private final HikariPool readPool;
    private final Object writePoolLock = new Object();
    private volatile HikariPool writePool;
    private final AtomicReference<MySqlSessionStrategy> lastStrategy = new AtomicReference<>();
    private final String poolPrefix;
    private final AtomicInteger pendingReleases = new AtomicInteger();
    private volatile boolean closed;
    // the per-call work as fields: a method reference evaluated per call would allocate
    private final OnSession<QueryStats> statementWork = this::run;
    private final OnSession<Optional<List<ColumnInfo>>> describeWork = this::prepareOnly;

    /**
     * Creates the dialect; connections are opened in the background by the pool (and on first use).
     *
     * @param context the connection's settings
     * @param config the validated {@code mysql.*} properties
     * @throws IllegalArgumentException when the URL is not a Connector/J URL or sets a refused property
     */
    public MySqlDialect(DialectContext context, MySqlDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.url = checkUrl(context.url());
        this.driverProperties = driverProperties(context, config);
        this.poolPrefix = "qag-mysql-" + context.connectionName() + "-" + INSTANCES.incrementAndGet();
        this.killExecutor = Executors.newCachedThreadPool(runnable -> {
            Thread t = new Thread(runnable, poolPrefix + "-kill");
            t.setDaemon(true);
            return t;
        });
        this.killer = new QueryKiller(url, driverProperties, killExecutor);
        this.gate = new ConnectGate("connection '" + context.connectionName() + "'", PROBE_INTERVAL);
        this.readPool = newPool(AccessMode.READ, context.poolSize());
    }

    static String checkUrl(String url) {
        requireNonNull(url, "url is null");
        if (!url.startsWith("jdbc:mysql://")) {
            throw new IllegalArgumentException("url: the mysql dialect needs a jdbc:mysql:// URL (MySQL Connector/J),"
                    + " got '" + redactUrl(url) + "'");
        }
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                String key = pair.split("=", 2)[0].strip();
                if (FORBIDDEN_URL_PROPERTIES.contains(key.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("url: the Connector/J property '" + key + "' is set by the"
                            + " mysql dialect itself and may not appear in the URL");
                }
            }
        }
        return url;
    }

    private static String redactUrl(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q) + "?...";
    }

    static Properties driverProperties(DialectContext context, MySqlDialectConfig config) {
        Properties p = new Properties();
        context.user().ifPresent(u -> p.setProperty("user", u));
        context.password().ifPresent(pw -> p.setProperty("password", pw));
        p.setProperty("connectTimeout", Long.toString(config.connectTimeout().toMillis()));
        p.setProperty("allowMultiQueries", "false");
        p.setProperty("allowLoadLocalInfile", "false");
        p.setProperty("allowUrlInLocalInfile", "false");
        p.setProperty("autoReconnect", "false");
        p.setProperty("useServerPrepStmts", "false");
        p.setProperty("useCursorFetch", "false");
        // otherwise every streaming read is preceded by SET net_write_timeout=600: one more round trip
        p.setProperty("netTimeoutForStreamingResults", "0");
        // the driver answers getAutoCommit/getTransactionIsolation from its own state instead of querying
        p.setProperty("useLocalSessionState", "true");
        p.setProperty("readOnlyPropagatesToServer", "false");
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("zeroDateTimeBehavior", "CONVERT_TO_NULL");
        p.setProperty("yearIsDateType", "false");
        return p;
    }

    private HikariPool newPool(AccessMode access, int size) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName(poolPrefix + "-" + access.name().toLowerCase(Locale.ROOT));
        hc.setDataSource(new SessionDataSource(url, driverProperties, access, config, this::serverSeen, gate));
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(size);
        hc.setAutoCommit(true); // Hikari then never calls rollback() on return; the SQL chain manages transactions
        hc.setInitializationFailTimeout(-1); // create the dialect even while the database is down
        hc.setConnectionTimeout(Math.max(250, context.defaultTimeout().toMillis()));
        hc.setValidationTimeout(Math.max(250, config.connectTimeout().toMillis()));
        hc.setMaxLifetime(config.maxLifetime().toMillis());
        hc.setKeepaliveTime(0);
        hc.setRegisterMbeans(false);
        hc.validate();
        return new HikariPool(hc);
    }

    private void serverSeen(MySqlSessionStrategy strategy) {
        lastStrategy.set(strategy);
    }

    private HikariPool writePool() {
        HikariPool pool = writePool;
        if (pool == null) {
            synchronized (writePoolLock) {
                pool = writePool;
                if (pool == null) {
                    if (closed) {
                        throw new DialectException(DialectError.UNAVAILABLE, "the dialect is closed");
                    }
                    pool = newPool(AccessMode.WRITE, config.writePoolSize().orElse(context.poolSize()));
                    writePool = pool;
                }
            }
        }
        return pool;
    }

    @Override
    public java.util.Map<String, Number> metrics() {
        HikariPool writes = writePool;
        return java.util.Map.of("pool.active", readPool.getActiveConnections(), "pool.idle",
                readPool.getIdleConnections(), "pool.total", readPool.getTotalConnections(), "pool.waiting",
                readPool.getThreadsAwaitingConnection(), "write_pool.total",
                writes == null ? 0 : writes.getTotalConnections());
    }

    @Override
    public String sqlFamily() {
        return "mysql";
    }

    /**
     * The database named in the URL ({@code jdbc:mysql://host/crm} resolves {@code customer} as {@code
     * crm.customer}); MySQL has no catalogs. Without a database in the URL, unqualified names fail on the server
     * ("No database selected") and the namespace is {@link TableNamespace#UNKNOWN}.
     */
    @Override
    public TableNamespace defaultNamespace() {
        String database = databaseOf(url);
        return database == null ? TableNamespace.UNKNOWN : new TableNamespace(null, database);
    }

    static String databaseOf(String url) {
        String rest = url.substring("jdbc:mysql://".length());
        int query = rest.indexOf('?');
        if (query >= 0) {
            rest = rest.substring(0, query);
        }
        int slash = rest.indexOf('/');
        if (slash < 0 || slash == rest.length() - 1) {
            return null;
        }
        String db = java.net.URLDecoder.decode(rest.substring(slash + 1), java.nio.charset.StandardCharsets.UTF_8);
        return db.isBlank() ? null : db;
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /**
     * The strategy of the server the dialect last opened a connection to (or of the pinned flavour before that).
     * Before any connection was opened, this waits up to {@code mysql.connect_timeout} for the pool's first one; if
     * the server cannot be reached and no flavour is pinned, the returned strategy's {@code plan} fails with {@link
     * DialectError#UNAVAILABLE}: what is sent depends on the flavour.
     */
    @Override
    public SessionStrategy sessionStrategy() {
        MySqlSessionStrategy strategy = lastStrategy.get();
        if (strategy != null) {
            return strategy;
        }
        if (config.flavor().isPresent()) {
            return new MySqlSessionStrategy(ServerInfo.nominal(config.flavor().get()), config.timeLimitMode());
        }
        if (!closed) {
            // the pool opens its connections in the background; wait for one, at most the connect timeout
            try {
                closeQuietly(borrow(readPool, config.connectTimeout()));
            } catch (DialectException notYet) {
                // the returned strategy reports it when asked for a plan
            }
            strategy = lastStrategy.get();
            if (strategy != null) {
                return strategy;
            }
        }
        return request -> {
            MySqlSessionStrategy now = lastStrategy.get();
            if (now == null) {
                throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                        + "': no server reached yet, so its flavour (MySQL or MariaDB) is unknown");
            }
            return now.plan(request);
        };
    }

    /**
     * The server the dialect last connected to, if any.
     *
     * @return the server, or null
     */
    public ServerInfo server() {
        MySqlSessionStrategy strategy = lastStrategy.get();
        return strategy == null ? null : strategy.server();
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        refuseEarly(request);
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        HikariPool pool = request.mode() == AccessMode.WRITE ? writePool() : readPool;
        // the caller of a read has its rows: the release need not delay its answer
        return onSession(pool, request, sink, deadline, request.mode() == AccessMode.READ, "statement", statementWork);
    }

    /**
     * The product and {@code VERSION()}, such as {@code MariaDB 10.11.19-MariaDB-0+deb12u1} or {@code MySQL 8.4.3}:
     * MariaDB when the version says so.
     */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout)
                .map(v -> (v.toLowerCase(Locale.ROOT).contains("mariadb") ? "MariaDB " : "MySQL ") + v);
    }

    /** The schemas (MySQL's databases) the user can see, the server's own four left out. */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code information_schema.TABLES}, {@code COLUMNS} and {@code KEY_COLUMN_USAGE} (the {@code PRIMARY}
     * key), in a read call: the tables and views of one schema, the URL's database when {@code database} is empty,
     * else the schema named (any of {@link #databases}: a MySQL database is a schema, one session reads them all).
     * {@code TABLE_COMMENT} and {@code COLUMN_COMMENT} are the comments; the type name is {@code COLUMN_TYPE}
     * ({@code varchar(40)}, {@code int(10) unsigned}), the JDBC type Connector/J's for it ({@code tinyint(1)} is
     * {@link JDBCType#BIT}). What the user cannot see, the server leaves out. At most {@value
     * CatalogueSink#MAX_TABLES} tables and {@value CatalogueSink#MAX_COLUMNS} columns.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        List<Parameter> parameters = List.of();
        String schema = "DATABASE()";
        if (database.isPresent()) {
            if (!databases(timeout).contains(database.get())) {
                throw new DialectException(DialectError.SYNTAX, "no database (schema) named '" + database.get()
                        + "' that connection '" + context.connectionName() + "' can see");
            }
            Parameter named = new Parameter("database", database.get(), JDBCType.VARCHAR);
            parameters = List.of(named, named, named);
            schema = "?";
        }
        CatalogueSink sink = new CatalogueSink(MySqlDialect::catalogueColumn);
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        execute(QueryRequest.read(CATALOGUE.formatted(schema), parameters, left, CatalogueSink.maxRows()), sink);
        return Optional.of(sink.tables());
    }

    private static SchemaColumn catalogueColumn(Object[] row) {
        String columnType = row[6].toString();
        return new SchemaColumn(row[5].toString(), columnType, jdbcType(row[7].toString(), columnType),
                CatalogueSink.nullability(row[8]), CatalogueSink.flag(row[9]), CatalogueSink.text(row[10]));
    }

    /**
     * The JDBC type Connector/J reports in a run for a column of {@code DATA_TYPE} and {@code COLUMN_TYPE}: {@code
     * tinyint(1)} is {@link JDBCType#BIT} (tinyInt1isBit), unsigned integers widen, text and blob types are the
     * LONG ones, {@code year} a {@link JDBCType#DATE}, {@code enum} and {@code set} {@link JDBCType#CHAR}.
     */
    static JDBCType jdbcType(String dataType, String columnType) {
        String type = dataType.toLowerCase(Locale.ROOT);
        boolean unsigned = columnType.toLowerCase(Locale.ROOT).contains("unsigned");
        return switch (type) {
            case "tinyint" -> columnType.toLowerCase(Locale.ROOT).startsWith("tinyint(1)") ? JDBCType.BIT
                    : unsigned ? JDBCType.SMALLINT : JDBCType.TINYINT;
            case "smallint" -> unsigned ? JDBCType.INTEGER : JDBCType.SMALLINT;
            case "int", "mediumint" -> type.equals("int") && unsigned ? JDBCType.BIGINT : JDBCType.INTEGER;
            case "bigint" -> JDBCType.BIGINT;
            case "float" -> JDBCType.REAL;
            case "text", "tinytext", "mediumtext", "longtext", "json" -> JDBCType.LONGVARCHAR;
            case "blob", "tinyblob", "mediumblob", "longblob" -> JDBCType.LONGVARBINARY;
            case "year" -> JDBCType.DATE;
            case "enum", "set" -> JDBCType.CHAR;
            case "geometry", "point", "linestring", "polygon" -> JDBCType.BINARY;
            default -> SqlTypeNames.nearest(type);
        };
    }

    /**
     * The server's own prepare ({@code COM_STMT_PREPARE}, through Connector/J's {@code serverPrepareStatement}),
     * whose answer carries the result's column definitions; the statement is parsed and resolved, never run, and is
     * closed ({@code COM_STMT_CLOSE}) at once. MariaDB refuses to prepare a write in the read-only transaction; such
     * a write has no columns ({@link #refusedWrite}). Not {@code getMetaData()} of the pool's client-side prepared
     * statements: Connector/J answers that by running the statement with {@code SQL_SELECT_LIMIT=1} and every
     * parameter NULL (measured: 1 044 ms for {@code SELECT sleep(1) FROM} a one-row table, 4 ms server-prepared).
     * It runs on a read connection, inside its read-only transaction, released with {@code ROLLBACK AND CHAIN} as
     * a read is; the time limit kills the prepare like a statement. A statement the server cannot prepare (error
     * 1295) answers empty. Nullability is the server's NOT NULL flag, also for expressions.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        refuseEarly(request);
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        return onSession(readPool, request.withMode(AccessMode.READ), null, deadline, false, "describe",
                describeWork);
    }

    private void refuseEarly(QueryRequest request) {
        if (closed) {
            throw new DialectException(DialectError.UNAVAILABLE, "the dialect is closed");
        }
        String refusal = MySqlSessionStrategy.refusal(request.sql());
        if (refusal != null) {
            throw new DialectException(DialectError.SYNTAX, refusal);
        }
    }

    /** What one call does on its borrowed session, with the plan for the time left; the kill is registered. */
    @FunctionalInterface
    private interface OnSession<T> {
        T run(Connection connection, PooledSession session, MySqlSessionStrategy.Planned planned, QueryRequest request,
                RowSink sink, long leftNanos, QueryKiller.Kill kill);
    }

    /**
     * Borrows a session of {@code pool}, runs {@code work} on it and gives it back: reused only after a release
     * whose status flags pass, and only when no kill was sent and the transaction chain still holds; a failure
     * other than {@link DialectError#UNAVAILABLE} is released with {@code ROLLBACK AND CHAIN}. With {@code handOver}
     * a successful call's release is sent by {@link #releaseLater}, which gives the connection back itself.
     */
    private <T> T onSession(HikariPool pool, QueryRequest request, RowSink sink, long deadline, boolean handOver,
            String what, OnSession<T> work) {
        Connection connection = borrow(pool, request.timeout());
        PooledSession session;
        try {
            session = connection.unwrap(PooledSession.class);
        } catch (SQLException e) {
            pool.evictConnection(connection);
            throw errors.translate(e, DialectError.INTERNAL);
        }
        boolean reuse = false;
        boolean handedOver = false;
        QueryKiller.Kill kill = killer.forThread(session.threadId());
        try {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                reuse = true;
                throw new DialectException(DialectError.UNAVAILABLE,
                        "no pooled session of connection '" + context.connectionName() + "' was free in time");
            }
            MySqlSessionStrategy.Planned planned = session.strategy().planned(request.withTimeout(Duration.ofNanos(left)));
            T result = work.run(connection, session, planned, request, sink, left, kill);
            if (!kill.requested() && chainHeld(session, what)) {
                if (handOver) {
                    releaseLater(pool, connection, session, planned.plan().after(), kill);
                    handedOver = true;
                } else {
                    reuse = release(connection, session, planned.plan().after());
                }
            }
            return result;
        } catch (DialectException e) {
            if (!reuse && !kill.requested() && e.error() != DialectError.UNAVAILABLE) {
                // an error reply carries no status flags: the release's reply is what decides
                reuse = release(connection, session, List.of(session.strategy().releaseAfterFailure()));
            }
            throw e;
        } catch (RuntimeException e) {
            throw new DialectException(DialectError.INTERNAL, "unexpected failure: " + e, null, e);
        } finally {
            if (!handedOver) {
                giveBack(pool, connection, session, reuse);
            }
        }
    }

    private Optional<List<ColumnInfo>> prepareOnly(Connection connection, PooledSession session,
            MySqlSessionStrategy.Planned planned, QueryRequest request, RowSink sink, long leftNanos,
            QueryKiller.Kill kill) {
        return serverPrepared(session, request.sql(), Duration.ofNanos(leftNanos), kill);
    }

    private Optional<List<ColumnInfo>> serverPrepared(PooledSession session, String sql, Duration limit,
            QueryKiller.Kill kill) {
        try (TimeLimit timeLimit = killAt(limit, session, kill)) {
            try {
                List<ColumnInfo> columns;
                JdbcConnection jdbc = session.physical().unwrap(JdbcConnection.class);
                try (PreparedStatement prepared = jdbc.serverPrepareStatement(sql)) {
                    columns = reader.describe(prepared.getMetaData());
                }
                if (timeLimit.stopped()) {
                    throw stopped(timeLimit, null);
                }
                return Optional.of(columns);
            } catch (SQLException e) {
                if (timeLimit.stopped()) {
                    throw stopped(timeLimit, e);
                }
                if (e.getErrorCode() == ER_UNSUPPORTED_PS) {
                    return Optional.empty();
                }
                if (e.getErrorCode() == ER_READ_ONLY_TRANSACTION) {
                    return refusedWrite(session.strategy().server(), sql);
                }
                throw errors.translate(e);
            }
        }
    }

    /**
     * The columns of a write that the read-only transaction refused to prepare (MariaDB checks at prepare): none on
     * MySQL, whose writes never return rows; on MariaDB none either unless the statement may carry {@code RETURNING}
     * (10.5+), whose columns a read-only session cannot learn: then unknown.
     */
    static Optional<List<ColumnInfo>> refusedWrite(ServerInfo server, String sql) {
        boolean mayReturnRows = server.flavor() == ServerInfo.Flavor.MARIADB
                && sql.toUpperCase(Locale.ROOT).contains("RETURNING");
        return mayReturnRows ? Optional.empty() : Optional.of(List.of());
    }

    private static void giveBack(HikariPool pool, Connection connection, PooledSession session, boolean reuse) {
        session.markUsed();
        if (reuse) {
            closeQuietly(connection);
        } else {
            pool.evictConnection(connection);
        }
    }

    /**
     * Sends a read's release ({@code ROLLBACK AND CHAIN}) from a virtual thread of its own, so that the caller's
     * answer goes out while it travels: one round trip on the caller's path instead of two. The connection stays
     * borrowed until the release has come back with status flags that pass {@link PooledSession#checkReusable()}, so
     * no other call can get it before its session is read-only again; a release that fails closes it instead.
     */
    private void releaseLater(HikariPool pool, Connection connection, PooledSession session, List<String> after,
            QueryKiller.Kill kill) {
        pendingReleases.incrementAndGet();
        try {
            Thread.ofVirtual().name(poolPrefix + "-release").start(() -> {
                boolean reuse = false;
                try {
                    reuse = release(connection, session, after) && !kill.requested();
                } finally {
                    giveBack(pool, connection, session, reuse);
                    pendingReleases.decrementAndGet();
                }
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            pendingReleases.decrementAndGet();
            giveBack(pool, connection, session, release(connection, session, after));
        }
    }

    /** Waits until every release sent by {@link #releaseLater} has given its connection back (tests, close). */
    void awaitReleases(Duration timeout) {
        long end = System.nanoTime() + saturatedNanos(timeout);
        while (pendingReleases.get() > 0) {
            if (System.nanoTime() - end >= 0) {
                LOG.log(System.Logger.Level.WARNING, "mysql dialect: " + pendingReleases.get()
                        + " release(s) still running after " + timeout);
                return;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The time limit of a statement on {@code session}: at {@code limit} it sends {@code KILL QUERY}, and if the
     * statement is still running {@link #ABORT_AFTER} later (the server is unreachable, so the kill cannot arrive) it
     * closes the socket.
     */
    private static TimeLimit killAt(Duration limit, PooledSession session, QueryKiller.Kill kill) {
        long abortAt = System.nanoTime() + saturatedNanos(limit.plus(ABORT_AFTER));
        return TimeLimit.start(limit, () -> {
            kill.request();
            if (System.nanoTime() - abortAt >= 0) {
                abort(session);
            }
        });
    }

    /** Closes the socket under a session whose server does not answer; what is blocked on it fails at once. */
    private static void abort(PooledSession session) {
        try {
            session.physical().abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "mysql dialect: aborting connection " + session.threadId()
                    + " failed: " + e);
        }
    }

    /**
     * Runs the plan and reads the rows. The time limit ({@link #killAt}) covers all of it: the time left, plus
     * {@code mysql.client_cancel_grace} when the server enforces the limit itself. That is the only timeout on the
     * socket's reads: a read timeout on a virtual thread arms and cancels a timer per read, which costs more than the
     * read itself.
     */
    private QueryStats run(Connection connection, PooledSession session, MySqlSessionStrategy.Planned planned,
            QueryRequest request, RowSink sink, long leftNanos, QueryKiller.Kill kill) {
        SessionPlan plan = planned.plan();
        Duration clientLimit = Duration.ofNanos(leftNanos)
                .plus(planned.serverEnforcesLimit() ? config.clientCancelGrace() : Duration.ZERO);
        try (TimeLimit limit = killAt(clientLimit, session, kill)) {
            try {
                for (String sql : plan.before()) {
                    try (Statement st = connection.createStatement()) {
                        st.execute(sql);
                    }
                }
                boolean read = request.mode() == AccessMode.READ;
                try (PreparedStatement ps = connection.prepareStatement(
                        plan.statement(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                    ps.setFetchSize(Integer.MIN_VALUE); // Connector/J streaming result: row by row off the socket
                    binder.bindAll(ps, request.parameters());
                    sink.onCancellable(limit::cancel);
                    boolean hasResult = ps.execute();
                    QueryStats stats;
                    if (hasResult) {
                        ResultSet rs = ps.getResultSet();
                        QueryStats read0;
                        try {
                            read0 = reader.read(rs, sink, request.maxRows(), limit::stopped);
                            if (!limit.stopped()) {
                                finishOrKill(rs, kill);
                            }
                        } finally {
                            closeResult(rs, kill);
                        }
                        stats = read ? read0 : new QueryStats(read0.rows(), read0.rows(), read0.truncated());
                    } else {
                        sink.columns(List.<ColumnInfo>of());
                        long count = ps.getLargeUpdateCount();
                        stats = read ? QueryStats.read(0, false) : new QueryStats(0, Math.max(count, 0), false);
                    }
                    if (limit.stopped()) {
                        throw stopped(limit, null);
                    }
                    if (request.maxAffectedRows() > 0 && stats.updateCount() > request.maxAffectedRows()) {
                        // released as every failed write is: ROLLBACK AND CHAIN, so nothing it changed is kept
                        throw new AffectedRowsExceeded(stats.updateCount(), request.maxAffectedRows());
                    }
                    return stats;
                }
            } catch (SQLException e) {
                if (limit.stopped()) {
                    throw stopped(limit, e);
                }
                throw errors.translate(e);
            }
        }
    }

    /** After a read stopped early: skip a bounded number of pending rows, else kill the rest. */
    private static void finishOrKill(ResultSet rs, QueryKiller.Kill kill) throws SQLException {
        for (int i = 0; i < DRAIN_BUDGET; i++) {
            if (!rs.next()) {
                return;
            }
        }
        kill.request(); // closing the result would otherwise read every remaining row
    }

    /** Closes a result; after our own kill the driver reports the interruption while draining, which is expected. */
    private static void closeResult(ResultSet rs, QueryKiller.Kill kill) throws SQLException {
        try {
            rs.close();
        } catch (SQLException e) {
            if (!kill.requested()) {
                throw e;
            }
        }
    }

    private DialectException stopped(TimeLimit limit, SQLException cause) {
        DialectError error = limit.timedOut() ? DialectError.TIMEOUT : DialectError.CANCELLED;
        String message = limit.timedOut() ? "the statement exceeded its time limit and was killed"
                : "the statement was cancelled";
        return cause == null ? new DialectException(error, message) : errors.translate(cause, error);
    }

    /** After the statement: the transaction it ran in must still be open (nothing ended the chain). */
    private static boolean chainHeld(PooledSession session, String what) {
        int flags = session.statusFlags();
        if ((flags & PooledSession.IN_TRANS) == 0) {
            LOG.log(System.Logger.Level.WARNING, "mysql dialect: the " + what + " ended the session's transaction"
                    + " (status flags 0x" + Integer.toHexString(flags) + "); closing connection " + session.threadId());
            return false;
        }
        return true;
    }

    /**
     * Sends the release statements; true when the connection may go back to the pool. A server that does not answer
     * within the connect timeout has the connection's socket closed (the socket itself has no read timeout).
     */
    private boolean release(Connection connection, PooledSession session, List<String> after) {
        try (TimeLimit limit = TimeLimit.start(config.connectTimeout(), () -> abort(session));
                Statement st = connection.createStatement()) {
            for (String sql : after) {
                st.execute(sql);
            }
            if (limit.stopped()) {
                return false;
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "mysql dialect: release failed, closing the connection: " + e);
            return false;
        }
        String why = session.checkReusable();
        if (why != null) {
            LOG.log(System.Logger.Level.WARNING, "mysql dialect: not reusing connection " + session.threadId()
                    + ": " + why);
            return false;
        }
        return true;
    }

    /**
     * A session of {@code pool} within {@code timeout}; at once {@link DialectError#UNAVAILABLE} while the server
     * cannot be reached ({@link ConnectGate}), instead of waiting the whole time for a connection that cannot be made.
     */
    private Connection borrow(HikariPool pool, Duration timeout) {
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        try {
            return gate.borrow(pool::getConnection, deadline);
        } catch (SQLException e) {
            DialectError error = errors.classify(e);
            if (error != DialectError.PERMISSION_DENIED) {
                error = DialectError.UNAVAILABLE;
            }
            String detail = e.getCause() instanceof SQLException cause ? cause.getMessage() : e.getMessage();
            throw new DialectException(error, "connection '" + context.connectionName() + "': " + detail,
                    e.getSQLState(), e);
        } catch (DialectException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DialectException(DialectError.UNAVAILABLE,
                    "connection '" + context.connectionName() + "': " + e.getMessage(), null, e);
        }
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        if (closed) {
            throw new DialectException(DialectError.UNAVAILABLE, "the dialect is closed");
        }
        Connection connection = borrow(readPool, timeout);
        boolean ok = false;
        try {
            PooledSession session = connection.unwrap(PooledSession.class);
            int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000));
            if (!session.physical().isValid(seconds)) {
                throw new DialectException(DialectError.UNAVAILABLE,
                        "connection '" + context.connectionName() + "': the server did not answer a ping");
            }
            session.markUsed();
            ok = true;
        } catch (SQLException e) {
            throw errors.translate(e, DialectError.UNAVAILABLE);
        } finally {
            if (ok) {
                closeQuietly(connection);
            } else {
                readPool.evictConnection(connection);
            }
        }
    }

    /** Global privileges beyond reading (ALL, SUPER, FILE, PROCESS, ...) from SHOW GRANTS ({@link MySqlPrivileges}). */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        return MySqlPrivileges.check(this, timeout);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        gate.close();
        awaitReleases(config.connectTimeout());
        shutdown(readPool);
        synchronized (writePoolLock) {
            if (writePool != null) {
                shutdown(writePool);
            }
        }
        killExecutor.shutdown();
    }

    private static void shutdown(HikariPool pool) {
        try {
            pool.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "mysql dialect: returning a connection failed: " + e);
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 2;
        }
    }

    /** Connector/J specifics: MySQL TIME spans -838:59:59 to 838:59:59, beyond {@link LocalTime}. */
    private static final class MySqlResultSetReader extends ResultSetReader {
        @Override
        protected ColumnReader readerFor(ColumnInfo column) {
            if (column.type() == java.sql.JDBCType.TIME) {
                return (rs, i) -> {
                    String text = rs.getString(i);
                    if (text == null) {
                        return null;
                    }
                    try {
                        return LocalTime.parse(text);
                    } catch (java.time.format.DateTimeParseException outOfRange) {
                        return text;
                    }
                };
            }
            return super.readerFor(column);
        }
    }
}
