package io.queryapigate.dialect.trino;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.CatalogueSink;
import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.spi.AccessMode;
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
import io.trino.jdbc.TrinoConnection;
import io.trino.jdbc.TrinoDriver;
import java.io.IOException;
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
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Trino dialect: trino-jdbc 476 over HTTP, a new (network-free) trino-jdbc connection per call, at most {@code
 * poolSize} calls at once.
 *
 * <p>A call: takes one of {@code poolSize} permits (waiting at most the call's time limit, else {@link
 * DialectError#UNAVAILABLE}); opens a trino-jdbc connection carrying the session of {@link TrinoSessionStrategy}'s
 * plan (catalog, schema, time zone, source, client tags, trace token = request id, and the time limit as the
 * session properties {@code query_max_run_time} and {@code query_max_execution_time}); for a read turns auto-commit
 * off and read-only on, so that the driver starts a {@code READ ONLY} transaction; runs the statement; streams the
 * rows page by page into the sink; closes the result (which cancels the query on the coordinator when rows were
 * left unread); and returns. The read's {@code ROLLBACK} and the connection's close run right after, on a
 * background thread that still holds the call's permit, so they cost the caller no latency but still count
 * against {@code poolSize}.
 *
 * <p>Time limit: Trino enforces the session properties itself (its coordinator checks about once a second,
 * measured 0.1-2.7 s late on this machine), and the call also cancels its query from the client ({@link
 * Statement#cancel()}, an HTTP {@code DELETE} of the query) when the limit plus {@code trino.client_cancel_grace}
 * has passed: the caller hears {@link DialectError#TIMEOUT} at most about that long after the limit, and the query
 * is {@code FAILED} on the coordinator. {@link RowSink#onCancellable} cancels the same way ({@link
 * DialectError#CANCELLED}). The cancel's HTTP request is sent from a background thread (trino-jdbc sends it
 * synchronously), so the JVM-wide time-limit timer is never held up by a slow coordinator.
 */
public final class TrinoDialect implements Dialect {
    private static final System.Logger LOG = System.getLogger(TrinoDialect.class.getName());

    /**
     * trino-jdbc's retry budget for a failing HTTP request of a call (its network timeout, counted from the start
     * of the request that failed): a connection refused or reset is retried for about this long, then the call
     * fails {@link DialectError#UNAVAILABLE}. Short, so that a coordinator that went away fails the calls in flight
     * fast instead of keeping them until their time limit (measured: 10 s for a 10 s limit with the former budget
     * of limit + 10 s); a blip of less than a second is still retried.
     */
    static final Duration RETRY_BUDGET = Duration.ofSeconds(1);

    /**
     * trino-jdbc's connect and read timeout (its {@code timeout} property; 30 s by default): how long one HTTP
     * request may wait for the coordinator's next bytes. The coordinator answers a poll within about 1 s (its long
     * poll), so silence beyond this is a network that stopped answering; without it a frozen connection kept a
     * call's thread 30 s past its time limit, since trino-jdbc's cancel does not interrupt a blocked read.
     */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    /** trino-jdbc's retry budget for the ROLLBACK (and close) after a call. */
    private static final Duration RELEASE_NETWORK_TIMEOUT = Duration.ofSeconds(1);

    /** How long {@link #close()} waits for background releases (ROLLBACK) still running. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.SERVER_ENFORCED_READ_ONLY, Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION,
            Capability.STREAMING));

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final String SERVER_VERSION = "SELECT 'Trino ' || version()";
    private static final String CATALOGS = "SELECT catalog_name FROM system.metadata.catalogs"
            + " WHERE catalog_name <> 'system' ORDER BY catalog_name";
    /**
     * One row per column of every table and view of one catalog ({@code ?}, bound thrice so that each catalogue
     * table is asked for that catalog only), in the {@link CatalogueSink} layout.
     */
    private static final String CATALOGUE = "SELECT t.table_cat, t.table_schem, t.table_name,"
            + " CASE t.table_type WHEN 'TABLE' THEN 'TABLE' WHEN 'VIEW' THEN 'VIEW' ELSE 'OTHER' END,"
            + " m.comment, c.column_name, c.type_name, c.is_nullable, c.remarks"
            + " FROM system.jdbc.tables t"
            + " LEFT JOIN system.metadata.table_comments m ON m.catalog_name = ? AND m.catalog_name = t.table_cat"
            + " AND m.schema_name = t.table_schem AND m.table_name = t.table_name"
            + " LEFT JOIN system.jdbc.columns c ON c.table_cat = ? AND c.table_cat = t.table_cat"
            + " AND c.table_schem = t.table_schem AND c.table_name = t.table_name"
            + " WHERE t.table_cat = ? AND t.table_schem <> 'information_schema'"
            + " ORDER BY t.table_schem, t.table_name, c.ordinal_position";

    private final DialectContext context;
    private final TrinoDialectConfig config;
    private final TrinoUrl url;
    private final Optional<String> catalog;
    private final Optional<String> schema;
    private final Properties baseProperties;
    private final TrinoSessionStrategy strategy;
    private final TrinoDriver driver;
    private final Semaphore permits;
    private final ExecutorService background;
    private final TrinoErrorMapper errors = new TrinoErrorMapper();
    private final ParameterBinder binder = new TrinoParameterBinder();
    private final ResultSetReader reader = new TrinoResultSetReader();
    private final Object closeLock = new Object();
    private volatile boolean closed;
    // the per-call work as fields: a method reference evaluated per call would allocate
    private final OnSession<QueryStats> statementWork = this::run;
    private final OnSession<Optional<List<ColumnInfo>>> describeWork = this::describeOutput;

    /**
     * Creates the dialect. Opens nothing: trino-jdbc connects on the first query.
     *
     * @param context the connection's settings
     * @param config the validated {@code trino.*} properties
     * @throws IllegalArgumentException when the URL, the user or the TLS settings are unusable; the message names
     *     the key
     */
    public TrinoDialect(DialectContext context, TrinoDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.url = TrinoUrl.parse(context.url());
        this.catalog = agree("trino.catalog", config.catalog(), url.catalog());
        this.schema = agree("trino.schema", config.schema(), url.schema());
        if (schema.isPresent() && catalog.isEmpty()) {
            throw new IllegalArgumentException("trino.schema: a schema needs a catalog (trino.catalog or the URL's"
                    + " first path segment)");
        }
        if (context.user().isEmpty() || context.user().get().isBlank()) {
            throw new IllegalArgumentException("user: Trino needs a user name for every query");
        }
        if (context.password().isPresent() && !config.ssl()) {
            throw new IllegalArgumentException("trino.ssl: a password is configured, and trino-jdbc sends passwords"
                    + " over HTTPS only; set trino.ssl=true");
        }
        this.baseProperties = driverProperties(context, config, catalog, schema);
        this.strategy = new TrinoSessionStrategy(catalog, schema, config.timeZone(), config.source(),
                config.clientTags());
        this.driver = new TrinoDriver();
        this.permits = new Semaphore(context.poolSize(), true);
        String threadName = "qag-trino-" + context.connectionName() + "-" + INSTANCES.incrementAndGet();
        this.background = Executors.newCachedThreadPool(runnable -> {
            Thread t = new Thread(runnable, threadName);
            t.setDaemon(true);
            return t;
        });
        // let the driver check the URL and every property now (no network: validateConnection stays off)
        try (Connection probe = driver.connect(url.driverUrl(), baseProperties)) {
            if (probe == null) {
                throw new IllegalArgumentException("url: trino-jdbc does not accept '" + TrinoUrl.redact(context.url())
                        + "'");
            }
        } catch (SQLException e) {
            closeDriver();
            throw new IllegalArgumentException("url: trino-jdbc refuses the connection settings: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeDriver();
            throw e;
        }
    }

    private static Optional<String> agree(String key, Optional<String> configured, Optional<String> fromUrl) {
        if (configured.isPresent() && fromUrl.isPresent() && !configured.equals(fromUrl)) {
            throw new IllegalArgumentException(key + ": '" + configured.get() + "' contradicts the URL's '"
                    + fromUrl.get() + "'; set it in one place");
        }
        return configured.isPresent() ? configured : fromUrl;
    }

    static Properties driverProperties(DialectContext context, TrinoDialectConfig config, Optional<String> catalog,
            Optional<String> schema) {
        Properties p = new Properties();
        p.setProperty("user", context.user().orElseThrow());
        context.password().ifPresent(pw -> p.setProperty("password", pw));
        catalog.ifPresent(c -> p.setProperty("catalog", c));
        schema.ifPresent(s -> p.setProperty("schema", s));
        p.setProperty("source", config.source());
        if (!config.clientTags().isEmpty()) {
            p.setProperty("clientTags", String.join(",", config.clientTags()));
        }
        p.setProperty("timezone", config.timeZone().getId());
        p.setProperty("timeout", READ_TIMEOUT.toMillis() + "ms");
        // EXECUTE IMMEDIATE: one query per parameterised call instead of PREPARE + EXECUTE (measured: 2x faster)
        p.setProperty("explicitPrepare", "false");
        if (config.ssl()) {
            p.setProperty("SSL", "true");
            p.setProperty("SSLVerification", config.sslVerification().name());
            config.sslTrustStorePath().ifPresent(v -> p.setProperty("SSLTrustStorePath", v));
            config.sslTrustStorePassword().ifPresent(v -> p.setProperty("SSLTrustStorePassword", v));
            config.sslTrustStoreType().ifPresent(v -> p.setProperty("SSLTrustStoreType", v));
        }
        return p;
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return strategy;
    }

    @Override
    public String sqlFamily() {
        return "trino";
    }

    /**
     * The session catalog and schema: {@code trino.catalog}/{@code trino.schema}, else the URL's path. A bare name
     * resolves to {@code catalog.schema.name}, a two-part {@code s.t} to {@code catalog.s.t}; without a catalog
     * Trino refuses both ({@code MISSING_CATALOG_NAME}), without a schema the bare one ({@code
     * MISSING_SCHEMA_NAME}).
     */
    @Override
    public TableNamespace defaultNamespace() {
        return new TableNamespace(catalog.orElse(null), schema.orElse(null));
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        return onSession(request, sink, false, statementWork);
    }

    /**
     * The coordinator's {@code DESCRIBE OUTPUT} of the statement ({@code PREPARE} first, kept by this call's own
     * trino-jdbc session), which analyses it but neither plans nor runs it, inside a {@code READ ONLY} transaction
     * rolled back after, with the call's time limit as on a read. Trino refuses to analyse a write in a read-only
     * transaction ({@code READ_ONLY_VIOLATION}), and a procedure in any: neither returns rows (a run reports a
     * write's row count as the update count), so that refusal answers no columns. The type name is the
     * coordinator's ({@code timestamp(3)}, {@code array(integer)}), the JDBC type trino-jdbc's for it ({@link
     * #jdbcType}). {@code DESCRIBE OUTPUT} cannot take the parameters' declared types: Trino types a {@code ?} from
     * where it stands ({@code ? + 1} is an {@code integer}), and one that only its value could type is {@code
     * unknown}. Nullability is unknown: Trino does not say.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        return onSession(request.withMode(AccessMode.READ), null, true, describeWork);
    }

    /** {@code Trino} and the coordinator's {@code version()}, such as {@code Trino 476}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** The catalogs ({@code system.metadata.catalogs}) the user may see, Trino's own {@code system} left out. */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, CATALOGS, timeout);
    }

    /**
     * From {@code system.jdbc.tables}, {@code system.jdbc.columns} (column comments in {@code remarks}) and {@code
     * system.metadata.table_comments}, in a read call: the tables and views of every schema of one catalog but
     * {@code information_schema}; the session catalog when {@code database} is empty, else the catalog named (any
     * of {@link #databases}). Trino has no primary keys: no column is marked as part of one. The type name is
     * Trino's ({@code varchar(100)}), the JDBC type trino-jdbc's ({@link #jdbcType}). What the connector and the
     * access control leave out is not listed. At most {@value CatalogueSink#MAX_TABLES} tables and {@value
     * CatalogueSink#MAX_COLUMNS} columns: a catalog of a large external metastore lists its first tables.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        String name;
        if (database.isPresent()) {
            name = database.get();
            if (!databases(timeout).contains(name)) {
                throw new DialectException(DialectError.SYNTAX, "no catalog named '" + name + "' that connection '"
                        + context.connectionName() + "' can see");
            }
        } else if (catalog.isPresent()) {
            name = catalog.get();
        } else {
            checkOpen();
            throw new DialectException(DialectError.SYNTAX, "connection '" + context.connectionName() + "' has no"
                    + " session catalog: name the catalog to describe");
        }
        Parameter named = new Parameter("catalog", name, JDBCType.VARCHAR);
        CatalogueSink sink = new CatalogueSink(TrinoDialect::catalogueColumn);
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        execute(QueryRequest.read(CATALOGUE, List.of(named, named, named), left, CatalogueSink.maxRows()), sink);
        return Optional.of(sink.tables());
    }

    private static SchemaColumn catalogueColumn(Object[] row) {
        // as DESCRIBE OUTPUT's types: without the blank after each comma
        String type = row[6].toString().replace(", ", ",");
        Nullability nullability = "".equals(row[7]) ? Nullability.UNKNOWN : CatalogueSink.nullability(row[7]);
        return new SchemaColumn(row[5].toString(), type, jdbcType(type), nullability, false,
                CatalogueSink.text(row[8]));
    }

    /** What one call does on its own Trino session, with the request limited to the time left. */
    @FunctionalInterface
    private interface OnSession<T> {
        T run(TrinoConnection connection, SessionPlan plan, QueryRequest request, RowSink sink);
    }

    /**
     * Takes a permit (waiting at most the call's time limit), opens the call's own Trino session with the plan for
     * the time left and runs {@code work} on it; {@link #releaseLater} then ends the session and gives the permit
     * back. A call that succeeded is rolled back when it was a read; a failed one when {@code rollbackAfterFailure}
     * (else {@code close()} sends the ROLLBACK if a transaction is still open).
     */
    private <T> T onSession(QueryRequest request, RowSink sink, boolean rollbackAfterFailure, OnSession<T> work) {
        checkOpen();
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        acquire(request.timeout());
        boolean permitHandedOver = false;
        try {
            checkOpen();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                        + "': no Trino session was free within the call's time limit");
            }
            QueryRequest limited = request.withTimeout(Duration.ofNanos(left));
            SessionPlan plan = strategy.plan(limited);
            TrinoConnection connection = open(plan);
            boolean done = false;
            try {
                T result = work.run(connection, plan, limited, sink);
                done = true;
                return result;
            } finally {
                permitHandedOver = releaseLater(connection, done ? !plan.before().isEmpty() : rollbackAfterFailure);
            }
        } finally {
            if (!permitHandedOver) {
                permits.release();
            }
        }
    }

    /** The name the describe prepares its statement under, in its own session. */
    private static final String DESCRIBED = "qag_described";

    private Optional<List<ColumnInfo>> describeOutput(TrinoConnection connection, SessionPlan plan,
            QueryRequest request, RowSink sink) {
        Duration clientLimit = request.timeout().plus(config.clientCancelGrace());
        TimeLimit limit = null;
        try (Statement statement = connection.createStatement()) {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis(clientLimit));
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            limit = TimeLimit.start(clientLimit, cancelInBackground(statement));
            statement.execute("PREPARE " + DESCRIBED + " FROM " + request.sql());
            List<ColumnInfo> columns = new ArrayList<>();
            try (ResultSet output = statement.executeQuery("DESCRIBE OUTPUT " + DESCRIBED)) {
                while (output.next()) {
                    // trino-jdbc names a run's map and row types without the blank after each comma
                    String type = output.getString("Type").replace(", ", ",");
                    columns.add(new ColumnInfo(output.getString("Column Name"), type, jdbcType(type)));
                }
            }
            if (limit.stopped()) {
                throw stopped(limit, null);
            }
            return Optional.of(List.copyOf(columns));
        } catch (SQLException e) {
            if (limit != null && limit.stopped()) {
                throw stopped(limit, e);
            }
            if (errors.classify(e) == DialectError.NOT_READ_ONLY || TrinoErrorMapper.refusedByTransaction(e)) {
                return Optional.of(List.of()); // a write, a procedure: no rows
            }
            throw errors.translate(e);
        } catch (RuntimeException e) {
            if (e instanceof DialectException d) {
                throw d;
            }
            throw new DialectException(DialectError.INTERNAL, "unexpected failure: " + e, null, e);
        } finally {
            if (limit != null) {
                limit.close();
            }
        }
    }

    /**
     * The JDBC type trino-jdbc reports for a Trino type (its {@code ColumnInfo}), from the type's name without its
     * parameters: {@code timestamp(3) with time zone} is {@link JDBCType#TIMESTAMP_WITH_TIMEZONE}, {@code
     * decimal(12,2)} {@link JDBCType#DECIMAL}, {@code unknown} (an untyped {@code ?} or NULL) {@link JDBCType#NULL},
     * a type trino-jdbc has no JDBC type for ({@code row}, {@code map}, {@code json}, {@code uuid}, intervals) {@link
     * JDBCType#JAVA_OBJECT}.
     *
     * @param type the type as {@code DESCRIBE OUTPUT} writes it
     * @return the JDBC type
     */
    static JDBCType jdbcType(String type) {
        String raw = type.replaceAll("\\(.*?\\)", "").strip().toLowerCase(Locale.ROOT);
        return switch (raw) {
            case "array" -> JDBCType.ARRAY;
            case "boolean" -> JDBCType.BOOLEAN;
            case "bigint" -> JDBCType.BIGINT;
            case "integer" -> JDBCType.INTEGER;
            case "smallint" -> JDBCType.SMALLINT;
            case "tinyint" -> JDBCType.TINYINT;
            case "real" -> JDBCType.REAL;
            case "double" -> JDBCType.DOUBLE;
            case "varchar" -> JDBCType.VARCHAR;
            case "char" -> JDBCType.CHAR;
            case "varbinary" -> JDBCType.VARBINARY;
            case "time" -> JDBCType.TIME;
            case "time with time zone" -> JDBCType.TIME_WITH_TIMEZONE;
            case "timestamp" -> JDBCType.TIMESTAMP;
            case "timestamp with time zone" -> JDBCType.TIMESTAMP_WITH_TIMEZONE;
            case "date" -> JDBCType.DATE;
            case "decimal" -> JDBCType.DECIMAL;
            case "unknown" -> JDBCType.NULL;
            default -> JDBCType.JAVA_OBJECT;
        };
    }

    private TrinoConnection open(SessionPlan plan) {
        Properties properties = new Properties();
        properties.putAll(baseProperties);
        String traceToken = plan.settings().get("X-Trino-Trace-Token");
        if (traceToken != null) {
            properties.setProperty("traceToken", traceToken);
        }
        Connection c = null;
        try {
            // a Java object over the driver's shared HTTP client: no network (46-74 µs measured)
            c = driver.connect(url.driverUrl(), properties);
            TrinoConnection connection = c.unwrap(TrinoConnection.class);
            for (Map.Entry<String, String> setting : plan.settings().entrySet()) {
                if (!setting.getKey().startsWith("X-Trino-")) {
                    connection.setSessionProperty(setting.getKey(), setting.getValue());
                }
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // nothing was sent on it
                }
            }
            if (e instanceof SQLException sql) {
                throw errors.translate(sql, DialectError.UNAVAILABLE);
            }
            throw new DialectException(DialectError.INTERNAL, "trino-jdbc refused the session: " + e, null, e);
        }
    }

    private QueryStats run(TrinoConnection connection, SessionPlan plan, QueryRequest request, RowSink sink) {
        boolean read = !plan.before().isEmpty();
        Duration clientLimit = request.timeout().plus(config.clientCancelGrace());
        TimeLimit limit = null;
        Statement statement = null;
        try {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis(clientLimit));
            if (read) {
                // trino-jdbc then sends TrinoSessionStrategy.START_READ_ONLY before the statement
                connection.setAutoCommit(false);
                connection.setReadOnly(true);
            }
            boolean hasResult;
            if (request.parameters().isEmpty()) {
                statement = connection.createStatement();
                limit = TimeLimit.start(clientLimit, cancelInBackground(statement));
                sink.onCancellable(limit::cancel);
                if (limit.stopped()) {
                    throw stopped(limit, null); // cancelled before anything was sent
                }
                hasResult = statement.execute(request.sql());
            } else {
                PreparedStatement prepared = connection.prepareStatement(request.sql());
                statement = prepared;
                binder.bindAll(prepared, request.parameters());
                limit = TimeLimit.start(clientLimit, cancelInBackground(statement));
                sink.onCancellable(limit::cancel);
                if (limit.stopped()) {
                    throw stopped(limit, null);
                }
                hasResult = prepared.execute();
            }
            QueryStats stats;
            if (hasResult) {
                try (ResultSet rs = statement.getResultSet()) {
                    // closing a result with rows left cancels the query on the coordinator (USER_CANCELED)
                    QueryStats read0 = reader.read(rs, sink, request.maxRows(), limit::stopped);
                    stats = read ? read0 : new QueryStats(read0.rows(), read0.rows(), read0.truncated());
                }
            } else {
                sink.columns(List.<ColumnInfo>of());
                long count = statement.getLargeUpdateCount();
                stats = read ? QueryStats.read(0, false) : new QueryStats(0, Math.max(count, 0), false);
            }
            if (limit.stopped()) {
                throw stopped(limit, null);
            }
            return stats;
        } catch (SQLException e) {
            if (limit != null && limit.stopped()) {
                throw stopped(limit, e);
            }
            DialectError error = errors.classify(e);
            if (read && error == DialectError.SYNTAX && TrinoErrorMapper.refusedByTransaction(e)) {
                error = DialectError.NOT_READ_ONLY;
            }
            throw errors.translate(e, error);
        } catch (DialectException e) {
            throw e;
        } catch (RuntimeException e) {
            if (limit != null && limit.stopped()) {
                throw new DialectException(limit.timedOut() ? DialectError.TIMEOUT : DialectError.CANCELLED,
                        stoppedMessage(limit), null, e);
            }
            throw new DialectException(DialectError.INTERNAL, "unexpected failure: " + e, null, e);
        } finally {
            if (limit != null) {
                limit.close();
            }
            if (statement != null) {
                try {
                    statement.close();
                } catch (SQLException | RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "trino dialect: closing a statement failed: " + e);
                }
            }
        }
    }

    /**
     * A canceller for {@link TimeLimit} that hands {@link Statement#cancel()} to a background thread: trino-jdbc's
     * cancel sends the query's HTTP {@code DELETE} synchronously (measured 30-250 ms here, longer on a bad network),
     * and {@link TimeLimit} runs cancellers on one timer thread shared by every call in the JVM. At most one cancel
     * per call is in flight; {@link TimeLimit} repeats it every 100 ms until the call ends, which also catches a
     * query that starts after a cancel landed on its {@code START TRANSACTION}.
     */
    private TimeLimit.Canceller cancelInBackground(Statement statement) {
        AtomicBoolean inFlight = new AtomicBoolean();
        return () -> {
            if (!inFlight.compareAndSet(false, true)) {
                return;
            }
            try {
                background.execute(() -> {
                    try {
                        statement.cancel();
                    } catch (SQLException | RuntimeException e) {
                        LOG.log(System.Logger.Level.DEBUG, "trino dialect: cancel failed: " + e);
                    } finally {
                        inFlight.set(false);
                    }
                });
            } catch (RejectedExecutionException closing) {
                inFlight.set(false);
                statement.cancel();
            }
        };
    }

    private DialectException stopped(TimeLimit limit, SQLException cause) {
        DialectError error = limit.timedOut() ? DialectError.TIMEOUT : DialectError.CANCELLED;
        return cause == null ? new DialectException(error, stoppedMessage(limit))
                : new DialectException(error, stoppedMessage(limit) + " (" + cause.getMessage() + ")",
                        errors.translate(cause, error).sqlState(), cause);
    }

    private static String stoppedMessage(TimeLimit limit) {
        return limit.timedOut() ? "the query exceeded its time limit and was cancelled on the Trino coordinator"
                : "the query was cancelled on the Trino coordinator";
    }

    /**
     * Ends the call's Trino session on a background thread that keeps the call's permit: a read's {@code ROLLBACK}
     * (also after a failure: Trino keeps an aborted transaction until it is rolled back or idles out), then
     * {@code close()}. Runs inline when the executor is gone.
     *
     * @return true when the permit was handed to the background task
     */
    private boolean releaseLater(TrinoConnection connection, boolean rollback) {
        Runnable release = () -> {
            try {
                end(connection, rollback);
            } finally {
                permits.release();
            }
        };
        synchronized (closeLock) {
            if (!closed) {
                try {
                    background.execute(release);
                    return true;
                } catch (RejectedExecutionException e) {
                    // shutting down: release inline below
                }
            }
        }
        end(connection, rollback);
        return false;
    }

    private static void end(TrinoConnection connection, boolean rollback) {
        try {
            // trino-jdbc retries a failing request until this budget is spent; a ROLLBACK normally takes 10-70 ms
            connection.setNetworkTimeout(Runnable::run, (int) RELEASE_NETWORK_TIMEOUT.toMillis());
            if (rollback) {
                connection.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "trino dialect: ROLLBACK failed (the coordinator drops the"
                    + " transaction after transaction.idle-timeout): " + e);
        }
        try {
            // sends ROLLBACK itself only if a transaction is still open (after a failed rollback)
            connection.close();
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "trino dialect: closing a connection failed: " + e);
        }
    }

    private void acquire(Duration timeout) {
        try {
            if (!permits.tryAcquire(Math.max(1, saturatedNanos(timeout)), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                        + "': all " + context.poolSize() + " Trino sessions stayed busy for the call's time limit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for a Trino session");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new DialectException(DialectError.UNAVAILABLE, "the dialect is closed");
        }
    }

    /**
     * Runs {@code SELECT 1} as a query of its own (no transaction), limited to {@code timeout} on the coordinator
     * and on the client. It does not wait for a permit: a busy gateway is not an unhealthy Trino.
     */
    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        checkOpen();
        QueryRequest probe = new QueryRequest("SELECT 1", List.of(), AccessMode.WRITE, timeout, 1, false,
                "health-check");
        SessionPlan plan = strategy.plan(probe);
        TrinoConnection connection = open(plan);
        try (Statement statement = connection.createStatement();
                TimeLimit limit = TimeLimit.start(timeout, cancelInBackground(statement))) {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis(timeout));
            try (ResultSet rs = statement.executeQuery(probe.sql())) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new DialectException(DialectError.UNAVAILABLE,
                            "connection '" + context.connectionName() + "': SELECT 1 did not return 1");
                }
            } catch (SQLException e) {
                String why = limit.timedOut() ? "no answer within " + timeout.toMillis() + " ms" : e.getMessage();
                throw new DialectException(DialectError.UNAVAILABLE,
                        "connection '" + context.connectionName() + "': " + why, errors.translate(e).sqlState(), e);
            }
        } catch (SQLException e) {
            throw errors.translate(e, DialectError.UNAVAILABLE);
        } finally {
            end(connection, false);
        }
    }

    /** Waits up to 5 s for background releases, then closes the driver's HTTP client. Idempotent. */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            background.shutdown();
        }
        try {
            if (!background.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "trino dialect: background ROLLBACKs still running at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeDriver();
    }

    private void closeDriver() {
        try {
            driver.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "trino dialect: closing the driver failed: " + e);
        }
    }

    /** The retry budget of a call's requests: {@link #RETRY_BUDGET}, never more than the client-side limit. */
    private static int networkTimeoutMillis(Duration clientLimit) {
        long ms = Math.min(clientLimit.toMillis(), RETRY_BUDGET.toMillis());
        return (int) Math.max(1, ms);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 2;
        }
    }
}
