package io.queryapigate.queries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.errors.ApiException;
import io.queryapigate.events.EventLog;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.ExampleDao;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.QueryDao;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import io.queryapigate.store.UniqueViolation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Saving, versioning, publishing and filing saved queries. A version's SQL, parameters and connection never change;
 * its cache TTL and MCP flag may. A draft may be saved that cannot run yet ({@link Definition#problems()}), but no
 * such version is published. Every change tells the metadata cache, and moves the query's {@code updated_at}
 * forward, so the call path prepares its versions again. A version's result columns are asked of its database as it
 * is saved ({@link ResultColumns}); a database that cannot answer leaves them unknown, and the save goes on. A query
 * a configuration-as-code directory owns changes only through an apply (409 {@code managed_by_file} otherwise).
 */
public final class SavedQueries {
    /** A query name, as the Python original allows: letters, digits, spaces, '.', '_', '-'; not starting with '.'. */
    public static final Pattern NAME = Pattern.compile("(?!\\.)[A-Za-z0-9_ .-]{1,100}");
    /** A collection name: lower case, as the original allows. */
    public static final Pattern COLLECTION = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

    private final Store store;
    private final MetadataCache cache;
    private final Definitions definitions;
    private final EventLog events;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final ManagedObjects managed;
    private final AuditLog audit;

    public SavedQueries(Store store, MetadataCache cache, Definitions definitions, EventLog events,
            ObjectMapper mapper, Clock clock, ManagedObjects managed, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.managed = managed;
        this.cache = cache;
        this.definitions = definitions;
        this.events = events;
        this.mapper = mapper;
        this.clock = clock;
    }

    public Definitions definitions() {
        return definitions;
    }

    /**
     * A new query from a request body: name, collection and version 1, published when the body says so (and then
     * only when it can run). Returns the version's definition (its warnings, when saved as a draft that cannot run).
     */
    public Definition create(JsonNode body, String caller) {
        ObjectNode o = Definitions.object(body);
        String name = o.path("name").isTextual() ? o.get("name").textValue() : null;
        checkName(name);
        if (store.queries().findByName(name).isPresent()) {
            throw exists(name);
        }
        boolean publish = publishFlag(o);
        Definition d = definitions.check(definitions.read(o, Definitions.QUERY_FIELDS, caller, null));
        String collection = o.hasNonNull("collection") ? checkCollection(o.get("collection")) : null;
        if (publish) {
            d.requireRunnable();
        }
        create(name, d, collection, publish);
        return d;
    }

    /**
     * A query as a configuration-as-code file declares it: a new query's fields but {@code publish} (what a file
     * declares is published), read and checked as creating it through the API reads and checks them, and runnable.
     *
     * @param body the file's fields, {@code name} and {@code collection} included (checked by the caller)
     * @param author the author when the file names none
     */
    public Definition declared(JsonNode body, String author) {
        ObjectNode o = Definitions.object(body);
        Set<String> fields = new java.util.HashSet<>(Definitions.QUERY_FIELDS);
        fields.remove("publish");
        Definition d = definitions.check(definitions.read(o, fields, author, null));
        d.requireRunnable();
        return d;
    }

    /** Creates a query with version 1 (the seed queries, the examples and {@link #create(JsonNode, String)}). */
    public void create(String name, Definition d, String collection, boolean publish) {
        checkName(name);
        String columns = describe(name, d);
        long now = clock.millis();
        try {
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                if (dao.findByName(name).isPresent()) {
                    throw exists(name);
                }
                long id = dao.insertQuery(name, now, collection, Scope.current());
                dao.insertVersion(row(id, 1, d, now, columns));
                if (publish) {
                    dao.publish(id, 1, now);
                }
                audit.append("save_query", name, saved(1, d, publish, collection));
            });
        } catch (UnableToExecuteStatementException e) {
            if (UniqueViolation.in(e)) {
                throw exists(name);
            }
            throw e;
        } finally {
            cache.invalidateQuery(name);
        }
    }

    /**
     * The next version from a request body; its connection defaults to the latest version's. Published when the
     * body says so (and then only when it can run).
     *
     * @return the version's number and definition
     */
    public Map.Entry<Integer, Definition> addVersion(String name, JsonNode body, String caller) {
        ObjectNode o = Definitions.object(body);
        SavedQueryRow q = get(name);
        managed.check(ManagedObjects.QUERIES, name);
        if (o.has("name") || o.has("collection")) {
            throw new ApiException(400, "invalid_body", "A new version can't change the query's name or collection"
                    + " - PATCH the query for its collection");
        }
        boolean publish = publishFlag(o);
        List<QueryVersionRow> versions = versions(q.id());
        String latest = versions.isEmpty() ? null : versions.get(versions.size() - 1).connectionName();
        Definition d = definitions.check(definitions.read(o, Definitions.VERSION_FIELDS, caller, latest));
        if (publish) {
            d.requireRunnable();
        }
        return Map.entry(addVersion(name, d, publish), d);
    }

    /** Stores {@code d} as the query's next version, published when {@code publish}; returns its number. */
    public int addVersion(String name, Definition d, boolean publish) {
        get(name); // another workspace's query is not found before anything else is said of it
        managed.check(ManagedObjects.QUERIES, name);
        String columns = describe(name, d);
        try {
            return store.jdbi().inTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow current = dao.findByName(name).filter(row -> Scope.owns(row.workspace()))
                        .orElseThrow(() -> notFound(name));
                int next = dao.maxVersion(current.id()) + 1;
                long now = next(current);
                dao.insertVersion(row(current.id(), next, d, now, columns));
                dao.publish(current.id(), publish ? Integer.valueOf(next) : current.publishedVersion(), now);
                audit.append("save_query", name, saved(next, d, publish, current.collection()));
                return next;
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    /** Serves {@code version} (publishing a draft or rolling back), once it is checked to run as it is now. */
    public void publish(String name, JsonNode body) {
        SavedQueryRow q = get(name);
        managed.check(ManagedObjects.QUERIES, name);
        JsonNode v = Definitions.object(body).get("version");
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ApiException(400, "invalid_body", "version must be an integer");
        }
        int version = v.intValue();
        QueryVersionRow row = version(q, version);
        Definitions.Input in = new Definitions.Input(row.sqlText(), parameters(row), row.connectionName(),
                row.description(), row.author(), row.cacheTtl(), List.of(), details(row));
        definitions.check(in).requireRunnable();
        change(name, "publish_query", (dao, current, now) -> {
            dao.publish(current.id(), version, now);
            return Map.of("version", fromTo(current.publishedVersion(), version));
        });
    }

    public void unpublish(String name) {
        get(name); // another workspace's query is not found before anything else is said of it
        managed.check(ManagedObjects.QUERIES, name);
        change(name, "unpublish_query", (dao, current, now) -> {
            dao.publish(current.id(), null, now);
            return Map.of("version", fromTo(current.publishedVersion(), null));
        });
    }

    /** Files the query under a collection, or under none ({@code null}). */
    public void setCollection(String name, JsonNode collection) {
        String to = collection == null || collection.isNull() ? null : checkCollection(collection);
        get(name); // another workspace's query is not found before anything else is said of it
        managed.check(ManagedObjects.QUERIES, name);
        change(name, "move_query", (dao, current, now) -> {
            dao.setCollection(current.id(), to, now);
            return Map.of("collection", fromTo(current.collection(), to));
        });
    }

    /** A version's cache TTL and MCP flag, the two things that change in place; either may be absent (null). */
    public void patchVersion(String name, int version, JsonNode cacheTtl, JsonNode mcp) {
        SavedQueryRow q = get(name);
        QueryVersionRow row = version(q, version);
        managed.check(ManagedObjects.QUERIES, name);
        Integer ttl = cacheTtl == null ? null : Definitions.cacheTtl(cacheTtl);
        ObjectNode details = details(row);
        if (mcp != null) {
            if (!mcp.isBoolean()) {
                throw new ApiException(400, "invalid_body", "mcp must be true or false");
            }
            if (mcp.booleanValue()) {
                details.remove("mcp");
            } else {
                details.put("mcp", false);
            }
        }
        String detailsJson = details.isEmpty() ? null : details.toString();
        change(name, null, (dao, current, now) -> {
            if (ttl != null) {
                dao.setCacheTtl(current.id(), version, ttl);
                audit.append("set_cache_ttl", name, Map.of("version", version, "cache_ttl", fromTo(row.cacheTtl(),
                        ttl)));
            }
            if (mcp != null) {
                dao.setDetails(current.id(), version, detailsJson);
                audit.append("set_mcp", name, Map.of("version", version, "mcp", mcp.booleanValue()));
            }
            dao.publish(current.id(), current.publishedVersion(), now);
            return null;
        });
    }

    /** Deletes the query with its versions and run history. */
    public void delete(String name) {
        get(name); // another workspace's query is not found before anything else is said of it
        managed.check(ManagedObjects.QUERIES, name);
        try {
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).filter(row -> Scope.owns(row.workspace()))
                        .orElseThrow(() -> notFound(name));
                h.attach(HistoryDao.class).deleteForQuery(q.id());
                dao.deleteVersions(q.id());
                dao.deleteQuery(q.id());
                audit.append("delete_query", name, null);
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    /**
     * Deletes one version and its runs; the query goes with its last version. Deleting the published version serves
     * the newest older one, or nothing. Returns whether the query still exists.
     */
    public boolean deleteVersion(String name, int version) {
        get(name); // another workspace's query is not found before anything else is said of it
        managed.check(ManagedObjects.QUERIES, name);
        try {
            return store.jdbi().inTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).filter(row -> Scope.owns(row.workspace()))
                        .orElseThrow(() -> notFound(name));
                if (dao.findVersion(q.id(), version).isEmpty()) {
                    throw versionNotFound(version);
                }
                HistoryDao history = h.attach(HistoryDao.class);
                audit.append("delete_query", name, Map.of("version", version));
                history.deleteForVersion(q.id(), version);
                dao.deleteVersion(q.id(), version);
                if (dao.maxVersion(q.id()) == 0) {
                    history.deleteForQuery(q.id());
                    dao.deleteQuery(q.id());
                    return false;
                }
                long now = next(q);
                dao.fallBackFrom(q.id(), version, now);
                dao.publish(q.id(), dao.findByName(name).orElseThrow().publishedVersion(), now);
                return true;
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    /** Re-files every query of collection {@code from} under {@code to}; returns the names moved. */
    public List<String> moveCollection(String from, String to) {
        List<String> moved = list().stream().filter(q -> from.equals(q.collection())).map(SavedQueryRow::name)
                .toList();
        moved.forEach(name -> managed.check(ManagedObjects.QUERIES, name));
        store.jdbi().useTransaction(h -> {
            h.attach(QueryDao.class).moveCollection(from, to, clock.millis(), Scope.current());
            audit.append("rename_collection", from, Map.of("to", to, "moved", moved));
        });
        moved.forEach(cache::invalidateQuery);
        return moved;
    }

    /** The query of that name in the workspace this thread acts in ({@link Scope}); another's is 404 as a missing one. */
    public SavedQueryRow get(String name) {
        return store.queries().findByName(name).filter(q -> Scope.owns(q.workspace()))
                .orElseThrow(() -> notFound(name));
    }

    public List<QueryVersionRow> versions(long queryId) {
        return store.queries().versions(queryId);
    }

    /** A version of the query, or 404 {@code version_not_found}. */
    public QueryVersionRow version(SavedQueryRow q, int version) {
        return store.queries().findVersion(q.id(), version).orElseThrow(() -> versionNotFound(version));
    }

    /** The queries of the workspace this thread acts in. */
    public List<SavedQueryRow> list() {
        return store.queries().list().stream().filter(q -> Scope.owns(q.workspace())).toList();
    }

    /** Every version of every query, by query id, oldest version first. */
    public Map<Long, List<QueryVersionRow>> allVersions() {
        Map<Long, List<QueryVersionRow>> out = new java.util.LinkedHashMap<>();
        for (QueryVersionRow v : store.queries().allVersions()) {
            out.computeIfAbsent(v.queryId(), k -> new java.util.ArrayList<>()).add(v);
        }
        return out;
    }

    /** When each query last ran (its run history, the runs still queued included), by query id. */
    public Map<Long, Long> lastRuns() {
        events.flushAll();
        return store.history().lastRuns();
    }

    /** When one query last ran (the runs still queued included), or null. */
    public Long lastRun(long queryId) {
        events.flushAll();
        return store.history().lastRun(queryId);
    }

    /** How many runs of each version of one query are kept, by version (the runs still queued included). */
    public Map<Integer, Long> runCounts(long queryId) {
        events.flushAll();
        return store.history().runCounts(queryId);
    }

    /** The names of the queries the examples installed. */
    public Set<String> exampleNames() {
        return Set.copyOf(store.examples().names(ExampleDao.QUERY));
    }

    public JsonNode parameters(QueryVersionRow row) {
        return json(row.parameters());
    }

    /** A version's details (columns, mcp) as a new object of its own. */
    public ObjectNode details(QueryVersionRow row) {
        JsonNode d = row.details() == null ? null : json(row.details());
        return d instanceof ObjectNode o ? o.deepCopy() : mapper.createObjectNode();
    }

    /** A version's tags. */
    public List<String> tags(QueryVersionRow row) {
        return row.tags() == null ? List.of() : Definitions.tags(json(row.tags()));
    }

    private JsonNode json(String text) {
        try {
            return mapper.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One change to an existing query, in a transaction, with the time it happens at (after the last change). */
    /** A change to a query, returning what its audit entry records (null: it appended its own). */
    private interface Change {
        Map<String, Object> apply(QueryDao dao, SavedQueryRow current, long now);
    }

    private void change(String name, String action, Change change) {
        try {
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow current = dao.findByName(name).filter(row -> Scope.owns(row.workspace()))
                        .orElseThrow(() -> notFound(name));
                Map<String, Object> changes = change.apply(dao, current, next(current));
                if (action != null) {
                    audit.append(action, name, changes);
                }
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    private static Map<String, Object> saved(int version, Definition d, boolean published, String collection) {
        Map<String, Object> changes = new java.util.TreeMap<>();
        changes.put("version", version);
        changes.put("connection_name", d.connection());
        changes.put("sql", d.sql());
        changes.put("published", published);
        changes.put("collection", collection);
        return changes;
    }

    private static Map<String, Object> fromTo(Object from, Object to) {
        Map<String, Object> change = new java.util.LinkedHashMap<>();
        change.put("from", from);
        change.put("to", to);
        return change;
    }

    /** Now, or just after the query's last change: {@code updated_at} always moves forward. */
    private long next(SavedQueryRow current) {
        return Math.max(clock.millis(), current.updatedAt() + 1);
    }

    /**
     * The result columns of a version about to be stored, asked of its database outside the store's transaction
     * (it may take {@link ResultColumns#TIME_LIMIT}); null when unknown. A draft that cannot run is not described.
     */
    private String describe(String name, Definition d) {
        return d.runnable() ? definitions.resultColumns().describe(name, d.sql(), d.parameters(), d.connection()).json()
                : null;
    }

    /**
     * Describes the published versions whose result columns are unknown (saved while their database was down, or
     * before versions were described) and stores what their databases answer; those that still cannot be described
     * stay unknown until the next start. Run once in the background at startup.
     *
     * @return how many versions were described
     */
    public int describeUnknown() {
        Map<Long, List<QueryVersionRow>> versions = allVersions();
        int described = 0;
        for (SavedQueryRow q : list()) {
            if (q.publishedVersion() == null) {
                continue;
            }
            for (QueryVersionRow v : versions.getOrDefault(q.id(), List.of())) {
                if (v.version() != q.publishedVersion() || v.resultColumns() != null
                        || definitions.connectionProblem(v.connectionName()) != null) {
                    continue;
                }
                String columns = definitions.resultColumns().describe(q.name(), v.sqlText(), parameters(v),
                        v.connectionName()).json();
                if (columns != null && store.queries().describedLater(q.id(), v.version(), columns) > 0) {
                    cache.invalidateQuery(q.name());
                    described++;
                }
            }
        }
        return described;
    }

    /**
     * A version's result columns as its database described them when it was saved: for its API description.
     *
     * @return the columns (none for a statement that returns no rows); empty when unknown
     */
    public Optional<List<ColumnInfo>> resultColumns(QueryVersionRow row) {
        return ResultColumns.fromJson(row.resultColumns());
    }

    private QueryVersionRow row(long id, int version, Definition d, long now, String columns) {
        try {
            return new QueryVersionRow(id, version, d.sql(), mapper.writeValueAsString(d.parameters()),
                    d.connection(), d.description(), d.author(), d.cacheTtl(), now, UUID.randomUUID().toString(),
                    d.tags().isEmpty() ? null : mapper.writeValueAsString(d.tags()),
                    d.details() == null || d.details().isEmpty() ? null : d.details().toString(), columns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean publishFlag(ObjectNode o) {
        JsonNode p = o.get("publish");
        if (p == null || p.isNull()) {
            return false;
        }
        if (!p.isBoolean()) {
            throw new ApiException(400, "invalid_body", "publish must be true or false");
        }
        return p.booleanValue();
    }

    /** A query name, or 400 {@code invalid_name}. */
    public static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new ApiException(400, "invalid_name", "Filename may only contain letters, digits, spaces, '.', '_'"
                    + " and '-'", Map.of("name", "is not a valid query name"));
        }
    }

    /** A collection name, or 400 {@code invalid_name}. */
    public static String checkCollection(JsonNode name) {
        if (name == null || !name.isTextual() || !COLLECTION.matcher(name.textValue()).matches()) {
            throw new ApiException(400, "invalid_name", "A collection name must be 1-63 characters: lowercase"
                    + " letters, digits, '.', '_' and '-', starting with a letter or digit");
        }
        return name.textValue();
    }

    private static ApiException exists(String name) {
        return new ApiException(409, "query_exists", "A saved query named '" + name + "' already exists - add a"
                + " version to it instead");
    }

    static ApiException notFound(String name) {
        return ApiException.notFound("query_not_found", "Saved query '" + name + "' not found");
    }

    static ApiException versionNotFound(int version) {
        return ApiException.notFound("version_not_found", "Version " + version + " not found");
    }
}
