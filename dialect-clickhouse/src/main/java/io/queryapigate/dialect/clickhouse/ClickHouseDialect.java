package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.CatalogueSink;
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
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The ClickHouse dialect: ClickHouse's HTTP interface, spoken with the JDK's {@link HttpClient} (HTTP/1.1,
 * keep-alive), one POST per call. No driver: the official JDBC driver and client-v2 (0.10.0) do not work against the
 * 18.16 servers Debian ships (see docs/adr/0001-clickhouse-over-http.md), while the plain HTTP interface works on old
 * and current servers alike.
 *
 * <p>Every call carries its limits as URL settings ({@link ClickHouseSessionStrategy}): {@code readonly=1} for
 * reads, {@code max_execution_time}, {@code max_result_rows} with {@code result_overflow_mode=break}, {@code
 * extremes=0}, {@code database}, and a fresh {@code query_id}. A timer at the exact time limit, and the sink's cancel
 * callback, abort the HTTP exchange and kill the query on the server with {@code KILL QUERY WHERE query_id = ...}
 * sent on a separate request over a connection of its own (the pooled ones may be the ones that stopped answering);
 * {@code execute} returns once that kill was acknowledged.
 *
 * <p>Rows are read incrementally from {@code TabSeparatedWithNamesAndTypes} ({@link Tsv}) and converted by the
 * column types the server names ({@link ClickHouseType}). When a query fails after its first bytes were sent, the
 * server appends its error text to the rows and still answers 200; a line starting {@code Code: <n>,} is therefore
 * checked: with the wrong number of fields it is the error, and with the right number (a one-column result) it is
 * the error when the response ends within 64 KiB after it and that text names an exception.
 *
 * <p>Concurrency is bounded by {@code clickhouse.max_concurrent} (default: the pool size); a call waits for a slot up
 * to its time limit and then fails {@link DialectError#UNAVAILABLE}.
 */
public final class ClickHouseDialect implements Dialect {
    private static final System.Logger LOG = System.getLogger(ClickHouseDialect.class.getName());

    /** How much may follow a line that looks like a server error for it to be taken as one. */
    static final int ERROR_TAIL = 64 * 1024;
    /** Bytes read and dropped to finish a response whose reading stopped early, before killing the query instead. */
    static final long DRAIN_BUDGET = 1 << 20;
    /** The most an error body or a write's answer is read. */
    static final int MAX_BODY = 1 << 20;
    /** How long the dialect waits for the answer to its {@code KILL QUERY}. */
    static final Duration KILL_TIMEOUT = Duration.ofSeconds(2);
    /** Headroom of the HTTP request timeout over the call's time limit (the timer normally fires first). */
    private static final Duration REQUEST_HEADROOM = Duration.ofSeconds(5);

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.SERVER_ENFORCED_READ_ONLY, Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION,
            Capability.STREAMING));
    private static final Pattern WRITTEN_ROWS = Pattern.compile("\"written_rows\"\\s*:\\s*\"?(\\d+)");
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final String SERVER_VERSION = "SELECT concat('ClickHouse ', version())";
    private static final String DATABASES = "SELECT name FROM system.databases"
            + " WHERE name NOT IN ('system', 'information_schema', 'INFORMATION_SCHEMA') ORDER BY name";
    /** Whether {@code system.tables} has table comments (ClickHouse 21.6 on). */
    private static final String HAS_TABLE_COMMENTS = "SELECT count() FROM system.columns"
            + " WHERE database = 'system' AND table = 'tables' AND name = 'comment'";
    private static final String TABLES = "SELECT name, engine, %s FROM system.tables"
            + " WHERE database = ? AND NOT is_temporary AND NOT startsWith(name, '.inner')";
    /** In declared order within each table: {@code system.columns} lists a table's columns that way. */
    private static final String COLUMNS = "SELECT table, name, type, comment, is_in_sorting_key FROM system.columns"
            + " WHERE database = ?";

    private final DialectContext context;
    private final ClickHouseDialectConfig config;
    private final URI base;
    private final ClickHouseSessionStrategy strategy;
    private final List<String> authHeaders;
    private final ExecutorService httpExecutor;
    private final HttpClient client;
    private final ScheduledThreadPoolExecutor timer;
    private final Semaphore slots;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicReference<ZoneId> serverZone = new AtomicReference<>();
    private volatile boolean closed;
    private volatile Boolean tableComments; // null until asked

    /**
     * Creates the dialect. Nothing is sent until the first call.
     *
     * @param context the connection's settings
     * @param config the validated {@code clickhouse.*} properties
     * @throws IllegalArgumentException when the URL is not {@code http(s)://host[:port]}, or the user or password
     *     cannot travel in an HTTP header
     */
    public ClickHouseDialect(DialectContext context, ClickHouseDialectConfig config) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        this.base = checkUrl(context.url());
        this.strategy = new ClickHouseSessionStrategy(config.database(),
                config.compression() == ClickHouseDialectConfig.Compression.GZIP);
        this.authHeaders = authHeaders(context, config.auth());
        String prefix = "qag-clickhouse-" + context.connectionName() + "-" + INSTANCES.incrementAndGet();
        this.httpExecutor = Executors.newCachedThreadPool(daemon(prefix + "-http"));
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(httpExecutor)
                .build();
        this.timer = new ScheduledThreadPoolExecutor(1, daemon(prefix + "-timer"));
        this.timer.setRemoveOnCancelPolicy(true);
        this.slots = new Semaphore(config.maxConcurrent().orElse(context.poolSize()), true);
    }

    /**
     * Checks a connection URL: {@code http://host[:port]} or {@code https://host[:port]}, optionally ending in
     * {@code /}. Credentials, a path, a query or a fragment are refused (the message never repeats the URL, which
     * might hold a password).
     *
     * @param url the configured URL
     * @return the base URI
     * @throws IllegalArgumentException when the URL is not of that form
     */
    static URI checkUrl(String url) {
        requireNonNull(url, "url is null");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url: not a URL; the clickhouse dialect needs http(s)://host:port");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("url: the clickhouse dialect needs http://host:port or https://host:port"
                    + " (ClickHouse's HTTP interface, usually port 8123 or 8443)");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("url: credentials do not belong in the URL; set the connection's user"
                    + " and password");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("url: no host in the URL; expected http(s)://host:port");
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("url: expected http(s)://host:port without a path, query or fragment;"
                    + " ClickHouse settings are properties (clickhouse.*), not URL parameters");
        }
        try {
            return new URI(scheme, null, uri.getHost(), uri.getPort(), "/", null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url: not a valid http(s)://host:port URL");
        }
    }

    private static List<String> authHeaders(DialectContext context, ClickHouseDialectConfig.Auth auth) {
        if (context.user().isEmpty()) {
            return List.of();
        }
        String user = context.user().get();
        String password = context.password().orElse("");
        checkHeaderValue("user", user);
        checkHeaderValue("password", password);
        if (auth == ClickHouseDialectConfig.Auth.BASIC) {
            String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            return List.of("Authorization", "Basic " + token);
        }
        return password.isEmpty()
                ? List.of("X-ClickHouse-User", user)
                : List.of("X-ClickHouse-User", user, "X-ClickHouse-Key", password);
    }

    private static void checkHeaderValue(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7F || c > 0xFF) {
                throw new IllegalArgumentException(what + ": holds a character that cannot travel in an HTTP header"
                        + " (control character or beyond Latin-1)");
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
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
        return "clickhouse";
    }

    /**
     * ClickHouse has no catalogs; an unqualified table name resolves in the configured {@code clickhouse.database},
     * which every call sends as its {@code database} setting.
     */
    @Override
    public TableNamespace defaultNamespace() {
        return new TableNamespace(null, config.database());
    }

    /**
     * The configuration this dialect runs with.
     *
     * @return the configuration
     */
    public ClickHouseDialectConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- execute

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        if (closed) {
            throw closedException();
        }
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        ClickHouseSessionStrategy.Prepared prepared = strategy.prepare(request, true);
        return inSlot(prepared, request, sink, deadline);
    }

    /**
     * {@code DESCRIBE TABLE (<the statement>)} ({@link ClickHouseSessionStrategy#describing}), one POST with a
     * read's settings and its own {@code query_id}, killed like a call at the time limit. ClickHouse analyses the
     * subquery without running it, but evaluates constant expressions and scalar subqueries while it analyses
     * ({@code intDiv(1, 0)} fails, {@code (SELECT count() FROM t)} is counted), as it does before any run. A
     * statement that returns no rows has no columns, without a request; {@code SHOW}, {@code EXPLAIN} and the other
     * row-returning statements that cannot be a subquery answer empty. Nullability is exact: a column is nullable
     * exactly when its type is {@code Nullable(...)}.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        requireNonNull(request, "request is null");
        if (closed) {
            throw closedException();
        }
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        ClickHouseSessionStrategy.Prepared prepared = strategy.describing(request);
        if (prepared.body() == null) {
            return prepared.returnsRows() ? Optional.empty() : Optional.of(List.of());
        }
        QueryRequest read = ClickHouseSessionStrategy.describeRequest(request);
        DescribedColumns described = new DescribedColumns();
        if (inSlot(prepared, read, described, deadline).truncated()) {
            return Optional.empty();
        }
        return Optional.of(described.columns());
    }

    /** {@code ClickHouse} and the server's {@code version()}, such as {@code ClickHouse 18.16.1}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        return CatalogueSink.firstValue(this, SERVER_VERSION, timeout);
    }

    /** The databases the user can see, {@code system} and {@code information_schema} left out. */
    @Override
    public List<String> databases(Duration timeout) {
        return CatalogueSink.sortedNames(this, DATABASES, timeout);
    }

    /**
     * From {@code system.tables} and {@code system.columns}, in read calls: the tables, views and materialized views
     * ({@link SchemaTable.Kind#VIEW}; their {@code .inner} tables left out) and dictionaries ({@link
     * SchemaTable.Kind#OTHER}) of one database, {@code clickhouse.database} when {@code database} is empty, else
     * the one named (any of {@link #databases}: a ClickHouse database is a schema). ClickHouse has no primary key
     * constraint: a column is marked as part of the key when it is in the table's sorting key ({@code
     * is_in_sorting_key}). A column is nullable exactly when its type is {@code Nullable(...)}. Column comments from
     * {@code system.columns.comment}; table comments from {@code system.tables.comment} where the server has them
     * (21.6 on; older servers report none). At most {@value CatalogueSink#MAX_TABLES} tables and {@value
     * CatalogueSink#MAX_COLUMNS} columns.
     */
    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        requireNonNull(database, "database is null");
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        String name = database.orElse(config.database());
        if (database.isPresent() && !databases(timeout).contains(name)) {
            throw new DialectException(DialectError.SYNTAX, "no database named '" + name + "' that connection '"
                    + context.connectionName() + "' can see");
        }
        List<Parameter> named = List.of(new Parameter("database", name, JDBCType.VARCHAR));
        Map<String, String[]> relations = new LinkedHashMap<>();
        String tables = TABLES.formatted(hasTableComments(deadline) ? "comment" : "''");
        execute(QueryRequest.read(tables, named, left(deadline), CatalogueSink.MAX_TABLES + 1), new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                relations.put(values[0].toString(), new String[] {kind(values[1].toString()), values[2].toString()});
                return true;
            }
        });
        CatalogueSink sink = new CatalogueSink(this::catalogueColumn);
        Object[] row = new Object[9];
        execute(QueryRequest.read(COLUMNS, named, left(deadline), CatalogueSink.maxRows()), new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                String[] relation = relations.remove(values[0].toString());
                if (relation == null && !values[0].equals(row[2])) {
                    return true; // an .inner table, or one created since the tables were read
                }
                if (relation != null) {
                    fill(row, name, values[0], relation);
                }
                System.arraycopy(values, 1, row, 5, 4);
                return sink.row(row);
            }
        });
        for (Map.Entry<String, String[]> withoutColumns : relations.entrySet()) {
            fill(row, name, withoutColumns.getKey(), withoutColumns.getValue());
            Arrays.fill(row, 5, 9, null);
            sink.row(row);
        }
        return Optional.of(sink.tables());
    }

    private static void fill(Object[] row, String database, Object table, String[] relation) {
        row[0] = null;
        row[1] = database;
        row[2] = table;
        row[3] = relation[0];
        row[4] = relation[1];
    }

    private static String kind(String engine) {
        return switch (engine) {
            case "View", "MaterializedView", "LiveView", "WindowView" -> "VIEW";
            case "Dictionary" -> "OTHER";
            default -> "TABLE";
        };
    }

    private SchemaColumn catalogueColumn(Object[] row) {
        ClickHouseType type = ClickHouseType.parse(row[6].toString(), this::serverZone);
        return new SchemaColumn(row[5].toString(), type.name(), type.jdbcType(),
                type.nullable() ? Nullability.NULLABLE : Nullability.NO_NULLS, CatalogueSink.flag(row[8]),
                CatalogueSink.text(row[7]));
    }

    private boolean hasTableComments(long deadline) {
        Boolean known = tableComments;
        if (known == null) {
            List<String> count = CatalogueSink.firstColumn(this,
                    QueryRequest.read(HAS_TABLE_COMMENTS, List.of(), left(deadline), 1));
            known = !count.isEmpty() && !count.get(0).equals("0");
            tableComments = known;
        }
        return known;
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    /**
     * Runs one call in a call slot (waiting for one until the deadline) with the time left as its limit, in flight
     * while it runs so that {@link #close()} can abort it.
     */
    private QueryStats inSlot(ClickHouseSessionStrategy.Prepared prepared, QueryRequest request, RowSink sink,
            long deadline) {
        acquire(request, deadline);
        try {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new DialectException(DialectError.UNAVAILABLE,
                        "connection '" + context.connectionName() + "': no call slot was free within the time limit");
            }
            Call call = new Call(queryId(request.requestId()));
            inFlight.add(call);
            try {
                return run(call, prepared, request, sink, left);
            } finally {
                inFlight.remove(call);
            }
        } finally {
            slots.release();
        }
    }

    /** Collects {@code DESCRIBE}'s rows (name, type, ...) as columns. */
    private final class DescribedColumns implements RowSink {
        private final List<ColumnInfo> columns = new ArrayList<>();

        @Override
        public void columns(List<ColumnInfo> describeColumns) {}

        @Override
        public boolean row(Object[] values) {
            ClickHouseType type = ClickHouseType.parse((String) values[1], ClickHouseDialect.this::serverZone);
            columns.add(new ColumnInfo((String) values[0], type.name(), type.jdbcType(),
                    type.nullable() ? Nullability.NULLABLE : Nullability.NO_NULLS));
            return true;
        }

        List<ColumnInfo> columns() {
            return List.copyOf(columns);
        }
    }

    private void acquire(QueryRequest request, long deadline) {
        try {
            if (!slots.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                        + "': no call slot was free within the time limit (" + ClickHouseDialectConfig.MAX_CONCURRENT
                        + " = " + config.maxConcurrent().orElse(context.poolSize()) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for a call slot");
        }
        if (closed) {
            slots.release();
            throw closedException();
        }
    }

    private QueryStats run(Call call, ClickHouseSessionStrategy.Prepared prepared, QueryRequest request, RowSink sink,
            long leftNanos) {
        Map<String, String> settings = new java.util.LinkedHashMap<>(prepared.settings());
        settings.put("max_execution_time", Long.toString(ClickHouseSessionStrategy.seconds(Duration.ofNanos(leftNanos))));
        settings.put("query_id", call.queryId);
        HttpRequest http = post(settings, prepared.body(), Duration.ofNanos(leftNanos).plus(REQUEST_HEADROOM));

        ScheduledFuture<?> timeout;
        try {
            timeout = timer.schedule(() -> call.abort(Call.State.TIMED_OUT), leftNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            throw closedException(); // closed concurrently
        }
        boolean consumed = false;
        try {
            sink.onCancellable(() -> call.abort(Call.State.CANCELLED));
            CompletableFuture<HttpResponse<InputStream>> exchange =
                    client.sendAsync(http, HttpResponse.BodyHandlers.ofInputStream());
            call.attach(exchange);
            HttpResponse<InputStream> response = exchange.get();
            InputStream raw = response.body();
            call.attach(raw);
            InputStream body = decoded(response, raw);
            if (response.statusCode() != 200) {
                String text = readUpTo(body, MAX_BODY);
                consumed = true;
                throw ClickHouseErrors.fromServer(context.connectionName(), text, response.statusCode());
            }
            if (!prepared.returnsRows()) {
                String text = readUpTo(body, MAX_BODY);
                consumed = true;
                if (ClickHouseErrors.code(text) >= 0 && text.startsWith("Code: ")) {
                    throw ClickHouseErrors.fromServer(context.connectionName(), text, 200);
                }
                sink.columns(List.of());
                return request.mode() == AccessMode.READ ? QueryStats.read(0, false)
                        : new QueryStats(0, writtenRows(response), false);
            }
            Rows rows = readRows(body, request, sink);
            consumed = rows.reachedEnd();
            if (!consumed) {
                call.closeStream();
            }
            return request.mode() == AccessMode.READ ? QueryStats.read(rows.count(), rows.truncated())
                    : new QueryStats(rows.count(), 0, rows.truncated());
        } catch (DialectException e) {
            if (call.aborted()) {
                throw stopped(call, e);
            }
            if (e.sqlState() != null) {
                consumed = true; // the server reported the failure: the query is over
            }
            throw e;
        } catch (ExecutionException e) {
            if (call.aborted()) {
                throw stopped(call, e.getCause());
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
                consumed = true; // never connected: there is no query to kill
            }
            throw transport(cause);
        } catch (CancellationException e) {
            throw stopped(call, e);
        } catch (IOException e) {
            if (call.aborted()) {
                throw stopped(call, e);
            }
            throw transport(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.abort(Call.State.CANCELLED);
            throw stopped(call, e);
        } catch (RuntimeException e) {
            if (call.aborted() || closed) {
                throw stopped(call, e);
            }
            throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                    + "': unexpected failure: " + e, null, e);
        } finally {
            timeout.cancel(false);
            boolean aborted = !call.finish();
            call.closeStream();
            if (aborted || !consumed) {
                kill(call);
            }
        }
    }

    private DialectException stopped(Call call, Throwable cause) {
        boolean timedOut = call.state() == Call.State.TIMED_OUT;
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "': the dialect was closed while the call ran", null, cause);
        }
        return new DialectException(timedOut ? DialectError.TIMEOUT : DialectError.CANCELLED,
                "connection '" + context.connectionName() + "': " + (timedOut
                        ? "the statement exceeded its time limit and was killed (query_id " + call.queryId + ")"
                        : "the statement was cancelled and killed (query_id " + call.queryId + ")"),
                null, cause);
    }

    private DialectException transport(Throwable e) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "': the dialect is closed", null, e);
        }
        if (e instanceof HttpTimeoutException && !(e instanceof HttpConnectTimeoutException)) {
            return new DialectException(DialectError.TIMEOUT, "connection '" + context.connectionName()
                    + "': no answer within the time limit", null, e);
        }
        String what = e instanceof ConnectException || e instanceof HttpConnectTimeoutException
                ? "cannot reach ClickHouse at " + base.getHost() + ":" + port()
                : "the connection to ClickHouse at " + base.getHost() + ":" + port() + " failed";
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName() + "': "
                + what + " (" + detail + ")", null, e);
    }

    private int port() {
        return base.getPort() >= 0 ? base.getPort() : ("https".equals(base.getScheme()) ? 443 : 80);
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                + "': the dialect is closed");
    }

    // ---------------------------------------------------------------- rows

    private record Rows(long count, boolean truncated, boolean reachedEnd) {}

    private Rows readRows(InputStream body, QueryRequest request, RowSink sink) throws IOException {
        Tsv.Reader reader = new Tsv.Reader(body);
        if (!reader.nextLine()) {
            throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                    + "': the server answered 200 with an empty body where column names were expected");
        }
        failIfError(reader, -1);
        int n = reader.fieldCount();
        List<String> names = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            names.add(reader.text(c));
        }
        if (!reader.nextLine() || reader.fieldCount() != n) {
            failIfError(reader, -1);
            throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                    + "': the response has no type line matching its " + n + " column names");
        }
        ClickHouseType[] types = new ClickHouseType[n];
        List<ColumnInfo> columns = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            types[c] = ClickHouseType.parse(reader.text(c), this::serverZone);
            columns.add(new ColumnInfo(names.get(c), types[c].name(), types[c].jdbcType()));
        }
        sink.columns(columns);

        long maxRows = request.maxRows();
        long count = 0;
        Object[] values = new Object[n];
        while (true) {
            if (!reader.nextLine()) {
                return new Rows(count, false, true);
            }
            if (reader.looksLikeError() || reader.fieldCount() != n) {
                failIfError(reader, n);
            }
            if (reader.fieldCount() != n) {
                throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                        + "': a row with " + reader.fieldCount() + " fields for " + n + " columns");
            }
            if (count >= maxRows) {
                return new Rows(count, true, finishEarly(reader));
            }
            for (int c = 0; c < n; c++) {
                values[c] = value(reader, c, types[c], names.get(c));
            }
            count++;
            if (!sink.row(values)) {
                return new Rows(count, false, finishEarly(reader));
            }
        }
    }

    /**
     * Throws the server's error when the current line is one (see the class comment).
     *
     * @param reader the reader, at the suspicious line
     * @param columns the result's column count, or -1 for a header line
     */
    private void failIfError(Tsv.Reader reader, int columns) throws IOException {
        if (!reader.looksLikeError()) {
            return;
        }
        String text = reader.lineAndRestIfEndsWithin(ERROR_TAIL);
        boolean malformed = columns >= 0 && reader.fieldCount() != columns;
        if (malformed) {
            throw ClickHouseErrors.fromServer(context.connectionName(), text != null ? text : reader.line(), 200);
        }
        if (text != null && text.contains("Exception")) {
            throw ClickHouseErrors.fromServer(context.connectionName(), text, 200);
        }
    }

    private Object value(Tsv.Reader reader, int c, ClickHouseType type, String column) {
        if (type.nullable() && reader.isNull(c)) {
            return null;
        }
        String text = type.composite() ? reader.raw(c) : reader.text(c);
        try {
            return type.fromText(text);
        } catch (RuntimeException e) {
            throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                    + "': column " + column + ": cannot read '" + abbreviate(text) + "' as " + type.name(), null, e);
        }
    }

    /** After reading stopped early: read what is left up to a budget; true when the response ended. */
    private static boolean finishEarly(Tsv.Reader reader) {
        try {
            return reader.drain(DRAIN_BUDGET);
        } catch (IOException e) {
            return false;
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    private ZoneId serverZone() {
        ZoneId zone = serverZone.get();
        if (zone != null) {
            return zone;
        }
        String text = simpleQuery("SELECT timezone()", Duration.ofSeconds(10)).strip();
        try {
            zone = ZoneId.of(text);
        } catch (RuntimeException e) {
            throw new DialectException(DialectError.INTERNAL, "connection '" + context.connectionName()
                    + "': the server's time zone '" + abbreviate(text) + "' is not known to Java", null, e);
        }
        serverZone.compareAndSet(null, zone);
        return zone;
    }

    // ---------------------------------------------------------------- HTTP

    private HttpRequest post(Map<String, String> settings, String sql, Duration timeout) {
        StringBuilder q = new StringBuilder();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (!q.isEmpty()) {
                q.append('&');
            }
            q.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "?" + q))
                .timeout(timeout)
                .header("Content-Type", "text/plain; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
        for (int i = 0; i < authHeaders.size(); i += 2) {
            b.header(authHeaders.get(i), authHeaders.get(i + 1));
        }
        if ("1".equals(settings.get("enable_http_compression"))) {
            b.header("Accept-Encoding", "gzip");
        }
        return b.build();
    }

    private static InputStream decoded(HttpResponse<InputStream> response, InputStream raw) throws IOException {
        Optional<String> encoding = response.headers().firstValue("Content-Encoding");
        if (encoding.isPresent() && encoding.get().equalsIgnoreCase("gzip")) {
            return new GZIPInputStream(raw, 1 << 16);
        }
        return raw;
    }

    private static String readUpTo(InputStream in, int max) throws IOException {
        byte[] bytes = in.readNBytes(max);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static long writtenRows(HttpResponse<?> response) {
        // X-ClickHouse-Summary exists from ClickHouse 19.x on; 18.16 does not say how many rows a write changed
        Optional<String> summary = response.headers().firstValue("X-ClickHouse-Summary");
        if (summary.isPresent()) {
            Matcher m = WRITTEN_ROWS.matcher(summary.get());
            if (m.find()) {
                try {
                    return Long.parseLong(m.group(1));
                } catch (NumberFormatException ignored) {
                    // fall through
                }
            }
        }
        return QueryStats.UNKNOWN_UPDATE_COUNT;
    }

    /** A short query the dialect itself sends (health, time zone, kill): text answer, or an exception. */
    private String simpleQuery(String sql, Duration timeout) {
        if (closed) {
            throw closedException();
        }
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        settings.put("readonly", "1");
        settings.put("max_execution_time", Long.toString(ClickHouseSessionStrategy.seconds(timeout)));
        return send(settings, sql, timeout);
    }

    private String send(Map<String, String> settings, String sql, Duration timeout) {
        return send(client, settings, sql, timeout);
    }

    /**
     * A kill on a connection of its own: a client made for it and shut down after. The pool's idle connections may
     * be the ones that stopped answering (a frozen network: the call being killed timed out on one of them), and a
     * {@code KILL QUERY} sent on one would wait {@link #KILL_TIMEOUT} for nothing.
     */
    private String sendOnFreshConnection(String sql) {
        HttpClient fresh = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(KILL_TIMEOUT.compareTo(config.connectTimeout()) < 0 ? KILL_TIMEOUT
                        : config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(httpExecutor)
                .build();
        try {
            return send(fresh, Map.of(), sql, KILL_TIMEOUT);
        } finally {
            fresh.shutdownNow();
        }
    }

    private String send(HttpClient via, Map<String, String> settings, String sql, Duration timeout) {
        CompletableFuture<HttpResponse<InputStream>> exchange =
                via.sendAsync(post(settings, sql, timeout), HttpResponse.BodyHandlers.ofInputStream());
        try {
            HttpResponse<InputStream> response = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            try (InputStream body = decoded(response, response.body())) {
                String text = readUpTo(body, MAX_BODY);
                if (response.statusCode() != 200) {
                    throw ClickHouseErrors.fromServer(context.connectionName(), text, response.statusCode());
                }
                return text;
            }
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "': ClickHouse did not answer within " + timeout.toMillis() + " ms", null, e);
        } catch (ExecutionException e) {
            DialectException d = transport(e.getCause() == null ? e : e.getCause());
            throw d.error() == DialectError.TIMEOUT
                    ? new DialectException(DialectError.UNAVAILABLE, d.getMessage(), null, e.getCause()) : d;
        } catch (IOException e) {
            throw transport(e);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted", null, e);
        }
    }

    /**
     * Kills the call's query on the server: {@code KILL QUERY WHERE query_id = '...' ASYNC}, on its own request over
     * a connection of its own ({@link #sendOnFreshConnection}).
     * When nothing was found and the call never got its response headers, the query may not have been registered
     * yet: one more attempt follows 100 ms later. Never throws.
     */
    private void kill(Call call) {
        if (closed) {
            return;
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                String killed = sendOnFreshConnection("KILL QUERY WHERE query_id = "
                        + ClickHouseLiterals.quote(call.queryId) + " ASYNC FORMAT TabSeparated");
                if (!killed.isBlank() || call.headersReceived) {
                    return;
                }
                Thread.sleep(100);
            } catch (DialectException e) {
                LOG.log(System.Logger.Level.WARNING, "clickhouse dialect: killing query " + call.queryId + " of"
                        + " connection '" + context.connectionName() + "' failed: " + e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** {@code qag-<request id, sanitized>-<random UUID>}: unique, and traceable to the request in system.processes. */
    static String queryId(String requestId) {
        StringBuilder b = new StringBuilder("qag-");
        for (int i = 0; i < requestId.length() && b.length() < 44; i++) {
            char c = requestId.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
                b.append(c);
            }
        }
        if (b.length() > 4) {
            b.append('-');
        }
        return b.append(UUID.randomUUID()).toString();
    }

    // ---------------------------------------------------------------- health and close

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        if (closed) {
            throw closedException();
        }
        String answer = simpleQuery("SELECT 1", timeout);
        if (!answer.strip().equals("1")) {
            throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "': unexpected answer to SELECT 1: " + abbreviate(answer.strip()));
        }
    }

    /** A profile that lets write calls run DDL ({@link ClickHousePrivileges}). */
    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        return ClickHousePrivileges.check(this, timeout);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true; // from here on new calls fail, and calls that end report UNAVAILABLE
        List<String> running = new ArrayList<>();
        for (Call call : inFlight) {
            if (call.abort(Call.State.CANCELLED)) {
                running.add(ClickHouseLiterals.quote(call.queryId));
            }
        }
        if (!running.isEmpty()) {
            try {
                sendOnFreshConnection("KILL QUERY WHERE query_id IN (" + String.join(", ", running) + ") ASYNC");
            } catch (DialectException e) {
                LOG.log(System.Logger.Level.WARNING, "clickhouse dialect: killing " + running.size()
                        + " running queries of connection '" + context.connectionName() + "' at close failed: "
                        + e.getMessage());
            }
        }
        client.shutdownNow();
        timer.shutdownNow();
        httpExecutor.shutdownNow();
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    // ---------------------------------------------------------------- one call

    /**
     * One call in flight: its query id, its HTTP exchange and body, and how it ended. {@link #abort} may be called
     * from any thread (the timer, the service's cancel callback, {@link #close}); it closes the exchange so that the
     * calling thread, blocked on the response, wakes up at once.
     */
    static final class Call {
        enum State { RUNNING, DONE, TIMED_OUT, CANCELLED }

        final String queryId;
        private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
        private volatile CompletableFuture<?> exchange;
        private volatile InputStream body;
        volatile boolean headersReceived;

        Call(String queryId) {
            this.queryId = queryId;
        }

        void attach(CompletableFuture<?> f) {
            exchange = f;
            if (state.get() != State.RUNNING && state.get() != State.DONE) {
                f.cancel(true);
            }
        }

        void attach(InputStream in) {
            body = in;
            headersReceived = true;
            if (aborted()) {
                closeQuietly(in);
            }
        }

        boolean abort(State why) {
            if (!state.compareAndSet(State.RUNNING, why)) {
                return false;
            }
            CompletableFuture<?> f = exchange;
            if (f != null) {
                f.cancel(true);
            }
            InputStream in = body;
            if (in != null) {
                closeQuietly(in);
            }
            return true;
        }

        State state() {
            return state.get();
        }

        boolean aborted() {
            State s = state.get();
            return s == State.TIMED_OUT || s == State.CANCELLED;
        }

        /** Marks the call done; false when it was aborted first. */
        boolean finish() {
            return state.compareAndSet(State.RUNNING, State.DONE) || state.get() == State.DONE;
        }

        void closeStream() {
            InputStream in = body;
            if (in != null) {
                closeQuietly(in);
            }
            CompletableFuture<?> f = exchange;
            if (f != null && !f.isDone()) {
                f.cancel(true);
            }
        }

        private static void closeQuietly(InputStream in) {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
