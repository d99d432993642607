package io.queryapigate.dialect.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoQueryException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.MongoQueryGuard;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bson.Document;
import org.bson.UuidRepresentation;
import org.bson.json.JsonParseException;

/**
 * One MongoDB connection: a driver client (its own pool of {@code poolSize} connections) and the database the
 * queries' collections are in.
 *
 * <p>A statement ({@link QueryRequest#sql()}) is a query document in JSON, a find or an aggregation (see {@link
 * MongoQueryGuard}), whose string leaves {@code ":name"} are replaced by the named parameters' values as BSON values
 * (never as text: a value that reads {@code {"$gt": ""}} stays a string; a map is refused). It is checked by {@link
 * MongoQueryGuard} after that, runs as one {@code find} or {@code aggregate} with {@code maxTimeMS}, and its cursor
 * is closed after {@code maxRows} documents.
 *
 * <p>Read-only by construction: the dialect issues no command but {@code find}, {@code aggregate}, {@code ping},
 * {@code buildInfo} and {@code listDatabases}; the guard refuses the stages that write ({@code $out}, {@code
 * $merge}) and the operators that run JavaScript. MongoDB has no read-only session, so {@link
 * Capability#SERVER_ENFORCED_READ_ONLY} is not claimed: give the connection a user with the {@code read} role only.
 *
 * <p>Columns: documents have no fixed shape, so a result's columns are the union of its documents' top-level keys in
 * first-seen order (those of the first batch for a stream: a key first seen later is left out of a stream's rows).
 */
final class MongoDialect implements Dialect {
    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.BIND_PARAMETERS,
            Capability.SERVER_SIDE_TIMEOUT, Capability.STREAMING));
    /** How much longer than the server's limit the client waits for an answer before it gives up. */
    private static final Duration CLIENT_GRACE = Duration.ofSeconds(2);

    private final MongoClient client;
    private final String database;
    private final MongoDialectConfig config;
    private final SessionStrategy strategy = new MongoSessionStrategy();
    private final AtomicBoolean closed = new AtomicBoolean();

    MongoDialect(DialectContext context, MongoDialectConfig config) {
        this.config = config;
        ConnectionString url;
        try {
            url = new ConnectionString(context.url());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("url: expected a MongoDB connection string such as"
                    + " mongodb://host:27017/database (" + e.getMessage().replaceAll("://[^@/]*@", "://****@") + ")");
        }
        String db = config.database().orElse(url.getDatabase());
        if (db == null || db.isBlank()) {
            throw new IllegalArgumentException(MongoDialectConfig.DATABASE + ": required when the url names no"
                    + " database (mongodb://host:27017/database)");
        }
        if (!MongoDialectConfig.validDatabase(db)) {
            throw new IllegalArgumentException("url: '" + db + "' is not a valid database name");
        }
        this.database = db;
        MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(url)
                .uuidRepresentation(UuidRepresentation.STANDARD)
                .applicationName("queryapigate:" + context.connectionName())
                .applyToClusterSettings(b -> b.serverSelectionTimeout(
                        config.serverSelectionTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .applyToConnectionPoolSettings(b -> b.maxSize(context.poolSize()));
        if (context.user().isPresent() && !context.user().get().isEmpty()) {
            String source = url.getCredential() != null ? url.getCredential().getSource() : "admin";
            settings.credential(MongoCredential.createCredential(context.user().get(), source,
                    context.password().orElse("").toCharArray()));
        }
        this.client = MongoClients.create(settings.build());
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
    public String queryLanguage() {
        return "mongo";
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        open();
        if (request.mode() != AccessMode.READ) {
            throw new DialectException(DialectError.NOT_READ_ONLY, "MongoDB connections are read-only.");
        }
        Document query = bound(request);
        long timeoutMs = Math.max(1, request.timeout().toMillis());
        MongoCollection<Document> collection = db(request.timeout().plus(CLIENT_GRACE))
                .getCollection(query.getString("collection"));
        long maxRows = request.maxRows();
        long limit = query.get("limit") instanceof Number n ? n.longValue() : 0;
        long skip = query.get("skip") instanceof Number n ? n.longValue() : 0;
        // one more than the caller may have, to tell a truncated result from a complete one
        long fetch = maxRows == Long.MAX_VALUE ? 0 : maxRows + 1;
        long cap = limit > 0 && (fetch == 0 || limit < fetch) ? limit : fetch;
        try (MongoCursor<Document> cursor = cursor(collection, query, skip, cap, timeoutMs)) {
            return read(cursor, sink, maxRows, request.streaming());
        } catch (MongoException e) {
            throw failure(e);
        }
    }

    /** The query document with its parameters bound, checked. */
    private static Document bound(QueryRequest request) {
        Document template;
        try {
            template = Document.parse(request.sql());
        } catch (JsonParseException | org.bson.BSONException | IllegalArgumentException | ClassCastException e) {
            throw new DialectException(DialectError.SYNTAX, "The MongoDB query is not a JSON object: "
                    + e.getMessage());
        }
        Map<String, Object> values = new HashMap<>();
        for (Parameter p : request.parameters()) {
            try {
                values.put(p.name(), MongoValues.toBson(p.name(), p.value()));
            } catch (IllegalArgumentException e) {
                throw new DialectException(DialectError.SYNTAX, e.getMessage());
            }
        }
        Document query = (Document) substitute(template, values);
        try {
            MongoQueryGuard.check(query);
        } catch (MongoQueryGuard.Refused e) {
            throw new DialectException(e.code().equals("invalid_query") ? DialectError.SYNTAX
                    : DialectError.PERMISSION_DENIED, e.getMessage());
        }
        return query;
    }

    private static Object substitute(Object node, Map<String, Object> values) {
        if (node instanceof String s) {
            String name = MongoQueryGuard.placeholder(s);
            if (name == null) {
                return s;
            }
            if (!values.containsKey(name)) {
                throw new DialectException(DialectError.SYNTAX, "No value provided for placeholder(s): " + name);
            }
            return values.get(name);
        }
        if (node instanceof Map<?, ?> map) {
            Document out = new Document();
            map.forEach((k, v) -> out.put(String.valueOf(k), substitute(v, values)));
            return out;
        }
        if (node instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(substitute(v, values)));
            return out;
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    private MongoCursor<Document> cursor(MongoCollection<Document> collection, Document query, long skip, long cap,
            long timeoutMs) {
        if (query.containsKey("pipeline")) {
            List<Document> stages = new ArrayList<>((List<Document>) query.get("pipeline"));
            if (skip > 0) {
                stages.add(new Document("$skip", skip));
            }
            if (cap > 0) {
                stages.add(new Document("$limit", cap));
            }
            return collection.aggregate(stages).allowDiskUse(false).maxTime(timeoutMs, TimeUnit.MILLISECONDS)
                    .batchSize(config.batchSize()).cursor();
        }
        var find = collection.find(query.get("filter", new Document()))
                .maxTime(timeoutMs, TimeUnit.MILLISECONDS).batchSize(config.batchSize());
        if (query.get("projection") != null) {
            find = find.projection(query.get("projection", Document.class));
        }
        if (query.get("sort") != null) {
            find = find.sort(query.get("sort", Document.class));
        }
        if (skip > 0) {
            find = find.skip((int) Math.min(skip, Integer.MAX_VALUE));
        }
        if (cap > 0) {
            find = find.limit((int) Math.min(cap, Integer.MAX_VALUE));
        }
        return find.cursor();
    }

    /**
     * The cursor's documents to the sink: all of them (at most {@code maxRows}) buffered to know the columns, or for a
     * stream the first batch only.
     */
    private QueryStats read(MongoCursor<Document> cursor, RowSink sink, long maxRows, boolean streaming) {
        long buffered = streaming ? Math.min(maxRows, config.batchSize()) : maxRows;
        List<Document> head = new ArrayList<>();
        while (head.size() < buffered && cursor.hasNext()) {
            head.add(cursor.next());
        }
        Map<String, List<Object>> seen = new LinkedHashMap<>();
        for (Document d : head) {
            d.forEach((k, v) -> seen.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        List<String> names = List.copyOf(seen.keySet());
        List<ColumnInfo> columns = new ArrayList<>(names.size());
        seen.forEach((name, values) -> columns.add(MongoValues.column(name, values)));
        sink.columns(columns);
        long rows = 0;
        Object[] row = new Object[names.size()];
        for (Document d : head) {
            rows++;
            if (!sink.row(values(d, names, row))) {
                return QueryStats.read(rows, false);
            }
        }
        while (rows < maxRows && cursor.hasNext()) {
            rows++;
            if (!sink.row(values(cursor.next(), names, row))) {
                return QueryStats.read(rows, false);
            }
        }
        return QueryStats.read(rows, rows >= maxRows && cursor.hasNext());
    }

    private static Object[] values(Document d, List<String> names, Object[] row) {
        for (int i = 0; i < names.size(); i++) {
            row[i] = MongoValues.toRow(d.get(names.get(i)));
        }
        return row;
    }

    /** The database, with the driver's client-side operation timeout. */
    private MongoDatabase db(Duration clientTimeout) {
        return client.getDatabase(database).withTimeout(clientTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The driver's failure as the SPI's; a timeout with no server known to answer is the server's absence. */
    private DialectException failure(MongoException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        boolean noServer = client.getClusterDescription().getServerDescriptions().stream()
                .noneMatch(com.mongodb.connection.ServerDescription::isOk);
        return switch (e) {
            case MongoExecutionTimeoutException t -> new DialectException(DialectError.TIMEOUT,
                    "The query ran past its time limit.", null, e);
            case MongoOperationTimeoutException t when noServer || t.getCause() instanceof MongoTimeoutException ->
                    new DialectException(DialectError.UNAVAILABLE, "The MongoDB server cannot be reached.", null, e);
            case MongoOperationTimeoutException t -> new DialectException(DialectError.TIMEOUT,
                    "The query ran past its time limit.", null, e);
            case MongoTimeoutException t -> new DialectException(DialectError.UNAVAILABLE,
                    "The MongoDB server cannot be reached.", null, e);
            case MongoSocketException t -> new DialectException(DialectError.UNAVAILABLE,
                    "The MongoDB server cannot be reached.", null, e);
            case MongoSecurityException t -> new DialectException(DialectError.UNAVAILABLE,
                    "The MongoDB server refused the connection's credentials.", null, e);
            case MongoInterruptedException t -> new DialectException(DialectError.CANCELLED,
                    "The query was cancelled.", null, e);
            case MongoQueryException q -> new DialectException(q.getErrorCode() == 13 ? DialectError.PERMISSION_DENIED
                    : DialectError.SYNTAX, q.getErrorMessage(), Integer.toString(q.getErrorCode()), e);
            case MongoCommandException c -> new DialectException(c.getErrorCode() == 13
                    ? DialectError.PERMISSION_DENIED : DialectError.SYNTAX, c.getErrorMessage(),
                    Integer.toString(c.getErrorCode()), e);
            default -> new DialectException(DialectError.INTERNAL, message, null, e);
        };
    }

    @Override
    public Optional<String> serverVersion(Duration timeout) {
        open();
        try {
            Document info = db(timeout).runCommand(new Document("buildInfo", 1));
            String ferret = info.getString("ferretdbVersion");
            return Optional.of(ferret != null ? "FerretDB " + ferret + " (MongoDB " + info.getString("version") + ")"
                    : "MongoDB " + info.getString("version"));
        } catch (MongoException e) {
            throw failure(e);
        }
    }

    @Override
    public List<String> databases(Duration timeout) {
        open();
        try {
            List<String> names = new ArrayList<>();
            client.withTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).listDatabaseNames().into(names);
            names.removeAll(List.of("admin", "local", "config"));
            names.sort(null);
            return names;
        } catch (MongoException e) {
            throw failure(e);
        }
    }

    @Override
    public void checkHealth(Duration timeout) {
        open();
        try {
            db(timeout).runCommand(new Document("ping", 1));
        } catch (MongoException e) {
            throw failure(e);
        }
    }

    private void open() {
        if (closed.get()) {
            throw new DialectException(DialectError.UNAVAILABLE, "The connection is closed.");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            client.close();
        }
    }
}
