package io.queryapigate.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Grants;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.errors.ApiException;
import io.queryapigate.importer.ImportPlan.Action;
import io.queryapigate.importer.ImportPlan.KeyItem;
import io.queryapigate.importer.ImportPlan.QueryItem;
import io.queryapigate.importer.ImportPlan.VersionDef;
import io.queryapigate.importer.PythonStore.Contents;
import io.queryapigate.importer.PythonStore.PyKey;
import io.queryapigate.importer.PythonStore.PyQuery;
import io.queryapigate.importer.PythonStore.PyRun;
import io.queryapigate.importer.PythonStore.PyVersion;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.queries.Definition;
import io.queryapigate.queries.Definitions;
import io.queryapigate.queries.ResultColumns;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.ApiKeyDao;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.QueryDao;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.RunRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Moves the Python original's saved queries (every version, which one is published, descriptions, authors, parameter
 * rules, cache settings), API keys (their secrets' SHA-256, so every secret keeps working; grants made explicit with
 * the same effective rights) and, optionally, run history into this gateway's store, and writes its connections as a
 * YAML fragment. It first makes a plan: each query and key is created, unchanged (already here with the same
 * content: a second import changes nothing), a conflict (its name is taken here by other content), skipped, or
 * blocked (it cannot work here: why is said). Then, unless it is a dry run or the plan has conflicts or blocked items
 * that were not waived, it writes the plan in one transaction.
 */
public final class PythonImporter {
    private static final Pattern BRACE_PLACEHOLDER = Pattern.compile("\\{(\\w+)}");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int MAX_CACHE_TTL = 86_400;
    private static final String IMPORTED_KEY_PREFIX = "sk_";

    /** What to do with a name that exists here with other content. */
    public enum OnConflict { FAIL, SKIP, RENAME }

    /**
     * @param from the original's home folder, its {@code queryapigate.db}, or its PostgreSQL store's URL
     * @param zone the time zone the original's server ran in (its stored times are wall-clock times there)
     * @param skipInvalid import the rest when some queries or keys cannot be imported (else nothing is written)
     * @param connectionsOut where to write the connections fragment; null prints it
     */
    public record Options(String from, String workspace, ZoneId zone, boolean dryRun, boolean withHistory,
            OnConflict onConflict, boolean skipInvalid, Path connectionsOut) {}

    /** How many of each were written (all zero for a dry run or when everything was already here). */
    public record Result(int queries, int versions, int keys, int runs) {}

    private final Store store;
    private final AuditLog audit;
    private final Definitions definitions;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final String adminKeyHash;
    private final boolean maskingKey;
    private final int historyPerVersion;

    /**
     * @param definitions checks each version as saving it here would (the SQL guard, the rules, its connection)
     * @param adminKeyHash the SHA-256 of this gateway's administrator key: a key with that secret is not imported
     */
    public PythonImporter(Store store, Definitions definitions, ObjectMapper mapper, Clock clock, String adminKeyHash,
            boolean maskingKey, int historyPerVersion, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.definitions = definitions;
        this.mapper = mapper;
        this.clock = clock;
        this.adminKeyHash = adminKeyHash;
        this.maskingKey = maskingKey;
        this.historyPerVersion = historyPerVersion;
    }

    /**
     * Reads the original's store, prints the plan to {@code out}, and writes it unless told not to.
     *
     * @throws ImportException when the plan has conflicts (and {@code --on-conflict fail}) or blocked items (without
     *     {@code --skip-invalid}); nothing was written then
     */
    public Result run(Options o, PrintStream out) {
        ImportPlan plan = plan(o);
        plan.print(out, o, historyPerVersion);
        if (o.connectionsOut() != null) {
            write(o.connectionsOut(), plan.connections().text());
        }
        plan.checkCanProceed(o.skipInvalid());
        if (o.dryRun()) {
            out.println("Dry run: nothing was written.");
            return new Result(0, 0, 0, 0);
        }
        if (plan.writesNothing()) {
            out.println("Nothing to import: everything is already here.");
            return new Result(0, 0, 0, 0);
        }
        Result result = apply(plan);
        out.println("Imported " + count(result.queries(), "saved query", "saved queries") + " ("
                + count(result.versions(), "version", "versions") + "), " + count(result.keys(), "API key", "API keys")
                + " and " + count(result.runs(), "run", "runs") + ".");
        return result;
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** Reads the original's store and decides, against this store, what happens to each query, key and run. */
    private ImportPlan plan(Options o) {
        Contents source = PythonStore.read(o.from(), o.workspace(), o.zone(), o.withHistory());
        ConnectionsYaml yaml = ConnectionsYaml.of(source.connections(), source.home(),
                source.description() + ", workspace '" + o.workspace() + "'");
        Map<String, String> connectionNames = yaml.names();

        Set<String> assigned = new HashSet<>();
        List<QueryItem> queries = new ArrayList<>();
        for (PyQuery q : validNamesFirst(source.queries(), q -> Names.validQuery(q.name()).equals(q.name()))) {
            queries.add(resolve(convert(q, connectionNames), o.onConflict(), assigned));
        }
        queries.sort(Comparator.comparing(QueryItem::name));
        Map<String, String> queryNames = new LinkedHashMap<>();
        for (QueryItem q : queries) {
            // a conflict stops the import: keys are planned as if it were resolved, so only its cause is reported
            queryNames.put(q.source(), q.here() || q.action() == Action.CONFLICT ? q.name() : null);
        }
        Map<String, List<String>> collections = new TreeMap<>();
        for (PyQuery q : source.queries()) {
            if (q.collection() != null) {
                collections.computeIfAbsent(q.collection(), c -> new ArrayList<>()).add(q.name());
            }
        }
        PythonGrants.Context context = new PythonGrants.Context(queryNames, collections, connectionNames, maskingKey);
        Set<String> assignedKeys = new HashSet<>();
        List<KeyItem> keys = new ArrayList<>();
        for (PyKey k : validNamesFirst(source.keys(), k -> Names.validKey(k.name()).equals(k.name()))) {
            keys.add(resolve(k, PythonGrants.convert(k, context), queries, o.onConflict(), assignedKeys, o.zone()));
        }
        keys.sort(Comparator.comparing(KeyItem::name));
        List<PyRun> runs = o.withHistory() ? newestRuns(source.runs(), queries) : List.of();
        return new ImportPlan(source, yaml, queries, keys, runs);
    }

    /** Names valid here keep them: those that must change ({@link Names}) come after, and yield. */
    private static <T> List<T> validNamesFirst(List<T> items, Predicate<T> validHere) {
        List<T> out = new ArrayList<>(items);
        out.sort(Comparator.comparing(t -> !validHere.test(t)));
        return out;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Saved queries

    private QueryItem convert(PyQuery q, Map<String, String> connectionNames) {
        String name = Names.validQuery(q.name());
        Set<String> notes = new LinkedHashSet<>();
        if (!name.equals(q.name())) {
            notes.add("named '" + name + "' here: callers of /q/" + q.name() + " must use /q/" + name);
        }
        if (q.versions().isEmpty()) {
            return blocked(q.name(), name, "it has no versions", notes);
        }
        String collection = null;
        if (q.collection() != null) {
            try {
                collection = SavedQueries.checkCollection(F.textNode(q.collection()));
            } catch (ApiException e) {
                notes.add("its collection '" + q.collection() + "' is not a valid collection name (the original"
                        + " reads it as none): none here");
            }
        }
        List<VersionDef> versions = new ArrayList<>();
        for (PyVersion v : q.versions()) {
            JsonNode f = v.fields();
            String at = "version " + v.version() + ": ";
            boolean mongo = "mongo".equals(f.path("query_type").asText());
            String sql;
            if (mongo) {
                try {
                    sql = MongoStatements.fromSavedFields(f::get);
                } catch (ApiException e) {
                    return blocked(q.name(), name, at + e.getMessage(), notes);
                }
            } else {
                sql = f.hasNonNull("sql_query") ? f.get("sql_query").asText() : null;
            }
            if (sql == null || sql.isBlank()) {
                return blocked(q.name(), name, at + "it has no SQL", notes);
            }
            if (f.path("mask").isArray() && !f.path("mask").isEmpty()) {
                return blocked(q.name(), name, at + "it masks columns for every caller; masks here belong to keys"
                        + " (a key's mask rules)", notes);
            }
            if (!mongo && BRACE_PLACEHOLDER.matcher(sql).find()) {
                return blocked(q.name(), name, at + "it substitutes {name} text placeholders into its SQL; write them"
                        + " as :name parameters (in the original, as a new version) and import again", notes);
            }
            String original = f.hasNonNull("connection_name") ? f.get("connection_name").asText() : null;
            if (original == null || original.isBlank()) {
                return blocked(q.name(), name, at + "it names no connection (callers had to give connection_name);"
                        + " here every version has its connection", notes);
            }
            String connection = connectionNames.getOrDefault(original, Names.valid(original));
            Set<String> markers = mongo ? MongoStatements.text(sql).markerNames()
                    : definitions.sqlText(sql, connection).markerNames();
            PythonParameters.Converted params = PythonParameters.convert(f.get("query_parameters"), markers);
            params.notes().forEach(n -> notes.add(at + n));
            if (params.blocker() != null) {
                return blocked(q.name(), name, at + params.blocker(), notes);
            }
            int ttl = Math.max(0, f.path("cache_ttl").asInt(0));
            if (ttl > MAX_CACHE_TTL) {
                notes.add(at + "cache_ttl " + ttl + " s lowered to " + MAX_CACHE_TTL + " s, the longest here");
                ttl = MAX_CACHE_TTL;
            }
            if (f.hasNonNull("agent_writes")) {
                notes.add(at + "agent_writes dropped (writes by AI agents over MCP; this gateway has no MCP server)");
            }
            ObjectNode body = F.objectNode();
            if (mongo) {
                body.put("query_type", "mongo");
                body.setAll(MongoStatements.savedFields(sql));
            } else {
                body.put("sql", sql);
            }
            body.set("parameters", params.rules());
            body.put("connection_name", connection);
            body.set("description", f.get("description"));
            body.put("author", author(f));
            body.set("tags", f.get("tags"));
            body.put("cache_ttl", ttl);
            body.set("columns", f.get("column_descriptions"));
            body.set("mcp", f.get("mcp"));
            Definition d;
            try {
                d = definitions.draft(body);
            } catch (ApiException e) {
                return blocked(q.name(), name, at + e.getMessage()
                        + (e.errors().isEmpty() ? "" : " " + e.errors()), notes);
            }
            if (!d.runnable()) {
                String problem = d.problems().get(0).getMessage();
                if (q.published() != null && v.version() == q.published()) {
                    return blocked(q.name(), name, at + "it is the published version, and " + problem + " Add the"
                            + " connection (see the connections fragment) and import again.", notes);
                }
                notes.add(at + problem + " It cannot run here until that is fixed.");
            }
            versions.add(new VersionDef(v.version(), d.sql(), json(d.parameters()), d.connection(), d.description(),
                    d.author(), d.cacheTtl(), v.createdAt() == null ? clock.millis() : v.createdAt(), v.uuid(),
                    d.tags().isEmpty() ? null : json(d.tags()),
                    d.details() == null || d.details().isEmpty() ? null : d.details().toString()));
        }
        Integer published = q.published() != null
                && versions.stream().anyMatch(v -> v.version() == q.published()) ? q.published() : null;
        return new QueryItem(q.name(), name, Action.CREATE, null, collection, versions, published,
                List.copyOf(notes));
    }

    /** The version's author, at most 100 characters as this store keeps it. */
    private static String author(JsonNode fields) {
        String author = fields.hasNonNull("author") ? fields.get("author").asText() : null;
        return author == null || author.length() <= 100 ? author : author.substring(0, 100);
    }

    private static QueryItem blocked(String source, String name, String reason, Set<String> notes) {
        return new QueryItem(source, name, Action.BLOCKED, reason, null, List.of(), null, List.copyOf(notes));
    }

    /** Decides what happens to a converted query given what this store holds under its name. */
    private QueryItem resolve(QueryItem q, OnConflict onConflict, Set<String> assigned) {
        if (q.action() == Action.BLOCKED) {
            return q;
        }
        String name = q.name();
        for (int n = 1; ; n++) {
            if (!assigned.contains(name)) {
                String difference = difference(q, name);
                if (difference == null || difference.isEmpty()) {
                    assigned.add(name);
                    List<String> notes = new ArrayList<>(q.notes());
                    if (!name.equals(q.name())) {
                        notes.add(0, "named '" + name + "' here: '" + q.name() + "' is taken by another query");
                    }
                    return new QueryItem(q.source(), name, difference == null ? Action.CREATE : Action.UNCHANGED,
                            null, q.collection(), q.versions(), q.published(), notes);
                }
                if (n == 1 && onConflict != OnConflict.RENAME) {
                    return new QueryItem(q.source(), name, onConflict == OnConflict.SKIP ? Action.SKIP
                            : Action.CONFLICT, "exists here with other content: " + difference, q.collection(),
                            q.versions(), q.published(), q.notes());
                }
            }
            name = Names.renamed(q.name(), n);
        }
    }

    /** Null when no query of that name is here, "" when it is here with the same content, else what differs. */
    private String difference(QueryItem q, String name) {
        Optional<SavedQueryRow> existing = store.queries().findByName(name);
        if (existing.isEmpty()) {
            return null;
        }
        List<QueryVersionRow> here = store.queries().versions(existing.get().id());
        if (here.size() != q.versions().size()) {
            return "it has " + here.size() + " versions here, " + q.versions().size() + " in the original";
        }
        for (int i = 0; i < here.size(); i++) {
            QueryVersionRow h = here.get(i);
            VersionDef v = q.versions().get(i);
            String what = h.version() != v.version() ? "number"
                    : !h.sqlText().equals(v.sql()) ? "SQL"
                    : !tree(h.parameters()).equals(tree(v.parameters())) ? "parameters"
                    : !h.connectionName().equals(v.connection()) ? "connection"
                    : !Objects.equals(h.description(), v.description()) ? "description"
                    : !Objects.equals(h.author(), v.author()) ? "author"
                    : h.cacheTtl() != v.cacheTtl() ? "cache_ttl"
                    : !Objects.equals(tree(h.tags()), tree(v.tags())) ? "tags"
                    : !Objects.equals(tree(h.details()), tree(v.details())) ? "columns or mcp" : null;
            if (what != null) {
                return "version " + v.version() + "'s " + what + " differs";
            }
        }
        if (!Objects.equals(existing.get().publishedVersion(), q.published())) {
            return "it publishes version " + existing.get().publishedVersion() + " here, " + q.published()
                    + " in the original";
        }
        if (!Objects.equals(existing.get().collection(), q.collection())) {
            return "it is filed under " + (existing.get().collection() == null ? "no collection"
                    : "'" + existing.get().collection() + "'") + " here";
        }
        return "";
    }

    // ---------------------------------------------------------------------------------------------------------------
    // API keys

    private KeyItem resolve(PyKey k, PythonGrants.Converted converted, List<QueryItem> queries,
            OnConflict onConflict, Set<String> assigned, ZoneId zone) {
        String wanted = Names.validKey(k.name());
        List<String> warnings = new ArrayList<>(converted.warnings());
        if (!wanted.equals(k.name())) {
            warnings.add(0, "named '" + wanted + "' here");
        }
        if (converted.blocker() != null) {
            return new KeyItem(k.name(), wanted, Action.BLOCKED, converted.blocker(), k, null, null, warnings);
        }
        if (k.hash().equals(adminKeyHash)) {
            return new KeyItem(k.name(), wanted, Action.BLOCKED, "its secret is this gateway's administrator key",
                    k, null, null, warnings);
        }
        Grants grants = converted.grants();
        warnIfEveryQuery(grants, queries, warnings);
        Long previous = previousUntil(k, zone);
        Optional<ApiKeyRow> holder = store.keys().findByHash(k.hash());
        if (holder.isPresent()) {
            // a secret names one key: the key holding it here is this one, imported before (perhaps renamed)
            String name = holder.get().name();
            String difference = difference(k, grants, previous, name);
            if (difference.isEmpty()) {
                assigned.add(name);
                return new KeyItem(k.name(), name, Action.UNCHANGED, null, k, grants, previous, warnings);
            }
            String reason = "its secret is key '" + name + "''s here, with " + difference;
            return switch (onConflict) {
                case FAIL -> new KeyItem(k.name(), name, Action.CONFLICT, reason, k, grants, previous, warnings);
                case SKIP -> new KeyItem(k.name(), name, Action.SKIP, reason, k, grants, previous, warnings);
                case RENAME -> new KeyItem(k.name(), name, Action.SKIP, reason + "; a secret names one key, so it"
                        + " is not imported again under another name", k, grants, previous, warnings);
            };
        }
        String name = wanted;
        for (int n = 1; ; n++) {
            if (!assigned.contains(name)) {
                if (store.keys().findByName(name).isEmpty()) {
                    assigned.add(name);
                    if (!name.equals(wanted)) {
                        warnings.add(0, "named '" + name + "' here: '" + wanted + "' is another key's");
                    }
                    return new KeyItem(k.name(), name, Action.CREATE, null, k, grants, previous, warnings);
                }
                if (n == 1 && onConflict != OnConflict.RENAME) {
                    return new KeyItem(k.name(), name, onConflict == OnConflict.SKIP ? Action.SKIP : Action.CONFLICT,
                            "exists here with another secret", k, grants, previous, warnings);
                }
            }
            name = Names.renamed(wanted, n);
        }
    }

    /** When the secret the key had before its last rotation stops working, if it still works now; else null. */
    private Long previousUntil(PyKey k, ZoneId zone) {
        Long until = k.previousHash() == null ? null : PythonStore.time(k.previousExpiresAt(), zone);
        return until != null && until > clock.millis() ? until : null;
    }

    /** What differs between the key here of that name (holding the same secret) and the import: "" for nothing. */
    private String difference(PyKey k, Grants grants, Long previousUntil, String name) {
        ApiKeyRow e = store.keys().findByName(name).orElseThrow();
        boolean previousHere = e.previousWorks(clock.millis());
        boolean samePrevious = previousHere ? previousUntil != null && e.previousHash().equals(k.previousHash())
                && e.previousExpiresAt().equals(previousUntil) : previousUntil == null;
        return !e.keyHash().equals(k.hash()) ? "this secret as its previous one"
                : !samePrevious ? "another previous secret"
                : !tree(e.grants()).equals(tree(json(grants))) ? "other grants"
                : !java.util.Objects.equals(e.expiresAt(), k.expiresAt()) ? "another expiry"
                : e.active() != k.active() ? "another state (" + (e.active() ? "active" : "revoked") + " here)" : "";
    }

    /** A warning when the key reaches every imported saved query (more than one). */
    private static void warnIfEveryQuery(Grants g, List<QueryItem> queries, List<String> warnings) {
        List<QueryItem> here = queries.stream().filter(QueryItem::here).toList();
        if (here.size() < 2 || g.hasQueryByName("*") || g.hasConnection("*")) {
            return;
        }
        boolean every = here.stream().allMatch(q -> g.hasQueryByName(q.name()) || q.versions().stream()
                .allMatch(v -> g.hasConnection(v.connection())));
        if (every) {
            warnings.add("broad: it can run every saved query imported (" + here.size() + ")");
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Run history

    /** The runs of imported queries' versions, the newest {@code historyPerVersion} of each, oldest first. */
    private List<PyRun> newestRuns(List<PyRun> runs, List<QueryItem> queries) {
        Map<String, QueryItem> imported = new LinkedHashMap<>();
        queries.stream().filter(QueryItem::here).forEach(q -> imported.put(q.source(), q));
        Map<String, List<PyRun>> byVersion = new LinkedHashMap<>();
        for (PyRun r : runs) {
            QueryItem q = imported.get(r.query());
            if (q != null && r.at() != null && q.versions().stream().anyMatch(v -> v.version() == r.version())) {
                byVersion.computeIfAbsent(r.query() + "\u0000" + r.version(), x -> new ArrayList<>()).add(r);
            }
        }
        Map<String, Set<String>> here = new LinkedHashMap<>();
        for (QueryItem q : imported.values()) {
            if (q.action() == Action.UNCHANGED) {
                long id = store.queries().findByName(q.name()).orElseThrow().id();
                Set<String> seen = new HashSet<>();
                store.history().runsOf(id).forEach(h -> seen.add(h.version() + " " + h.atMs() + " " + h.requestId()));
                here.put(q.source(), seen);
            }
        }
        List<PyRun> out = new ArrayList<>();
        for (List<PyRun> list : byVersion.values()) {
            out.addAll(list.subList(Math.max(0, list.size() - historyPerVersion), list.size()));
        }
        out.removeIf(r -> here.getOrDefault(r.query(), Set.of()).contains(r.version() + " " + r.at() + " "
                + requestId(r)));
        out.sort(Comparator.comparing(PyRun::at).thenComparing(PyRun::rowId));
        return out;
    }

    private static String requestId(PyRun r) {
        String id = r.entry().path("request_id").asText("");
        id = id.isEmpty() ? "python-" + r.rowId() : id;
        return id.length() > 64 ? id.substring(0, 64) : id;
    }

    /**
     * The result columns of the versions to create, asked of their databases before the store's transaction (see
     * {@code queries.ResultColumns}); null when unknown. After a connection failed to answer once, its other versions
     * are not asked: an import of many versions on a database that is down takes one time limit, not one each.
     */
    private Map<VersionDef, String> resultColumns(ImportPlan plan) {
        Map<VersionDef, String> columns = new IdentityHashMap<>();
        Set<String> unreachable = new HashSet<>();
        for (QueryItem q : plan.queries()) {
            if (q.action() != Action.CREATE) {
                continue;
            }
            for (VersionDef v : q.versions()) {
                if (v.connection() == null || unreachable.contains(v.connection())) {
                    continue;
                }
                ResultColumns.Described d = definitions.resultColumns().describe(q.name(), v.sql(),
                        tree(v.parameters()), v.connection());
                if (d.failure() == DialectError.UNAVAILABLE || d.failure() == DialectError.TIMEOUT) {
                    unreachable.add(v.connection());
                }
                columns.put(v, d.json());
            }
        }
        return columns;
    }

    /** The HTTP status a recorded run answered: the original records its outcome and error code, not the status. */
    static int status(JsonNode entry) {
        if (!"error".equals(entry.path("status").asText())) {
            return 200;
        }
        return switch (entry.path("code").asText("")) {
            case "param_required", "param_invalid", "invalid_request", "invalid_body", "sql_not_parseable",
                    "connection_required" -> 400;
            case "read_only", "write_op_not_allowed", "table_not_allowed", "mask_unresolvable", "forbidden",
                    "function_not_allowed", "connection_inactive" -> 403;
            case "query_not_found", "version_not_found", "connection_not_found", "database_file_not_found" -> 404;
            case "rate_limited", "quota_exceeded" -> 429;
            case "query_timeout" -> 504;
            default -> 500;
        };
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Writing

    private Result apply(ImportPlan plan) {
        Map<VersionDef, String> columns = resultColumns(plan);
        long now = clock.millis();
        return store.jdbi().inTransaction(h -> {
            QueryDao queryDao = h.attach(QueryDao.class);
            ApiKeyDao keyDao = h.attach(ApiKeyDao.class);
            HistoryDao historyDao = h.attach(HistoryDao.class);
            int created = 0;
            int versions = 0;
            Map<String, Long> queryIds = new LinkedHashMap<>();
            for (QueryItem q : plan.queries()) {
                if (q.action() == Action.CREATE) {
                    long id = queryDao.insertQuery(q.name(), q.versions().get(0).createdAt(), q.collection(),
                            Scope.DEFAULT);
                    for (VersionDef v : q.versions()) {
                        queryDao.insertVersion(new QueryVersionRow(id, v.version(), v.sql(), v.parameters(),
                                v.connection(), v.description(), v.author(), v.cacheTtl(), v.createdAt(),
                                v.uuid() == null ? UUID.randomUUID().toString() : v.uuid(), v.tags(), v.details(),
                                columns.get(v)));
                        versions++;
                    }
                    if (q.published() != null) {
                        queryDao.publish(id, q.published(), now);
                    }
                    created++;
                    queryIds.put(q.source(), id);
                } else if (q.action() == Action.UNCHANGED) {
                    queryIds.put(q.source(), queryDao.findByName(q.name()).orElseThrow().id());
                }
            }
            int keysCreated = 0;
            Map<String, Long> keyIds = new LinkedHashMap<>();
            keyIds.put("admin", 0L);
            for (KeyItem k : plan.keys()) {
                if (k.action() == Action.CREATE) {
                    long createdAt = k.key().createdAt() == null ? now : k.key().createdAt();
                    String grants = json(k.grants());
                    ApiKeyRow inserted = new ApiKeyRow(0, k.name(), k.key().hash(), IMPORTED_KEY_PREFIX, grants,
                            k.key().expiresAt(), true, createdAt, null, null, null, null, Scope.DEFAULT, null, null);
                    long id = keyDao.insert(inserted);
                    if (k.previousUntil() != null) {
                        keyDao.rotate(id, k.key().hash(), k.key().hash(), IMPORTED_KEY_PREFIX, k.key().previousHash(),
                                k.previousUntil());
                    }
                    if (!k.key().active()) {
                        keyDao.update(id, inserted, grants, null, null, k.key().expiresAt(), false, now);
                    }
                    keysCreated++;
                    keyIds.put(k.source(), id);
                } else if (k.action() == Action.UNCHANGED) {
                    keyIds.put(k.source(), keyDao.findByName(k.name()).orElseThrow().id());
                }
            }
            for (PyRun r : plan.runs()) {
                JsonNode e = r.entry();
                String code = "error".equals(e.path("status").asText()) ? e.path("code").asText("query_failed") : null;
                String connection = e.hasNonNull("connection_name") ? plan.connections().names()
                        .getOrDefault(e.get("connection_name").asText(), Names.valid(e.get("connection_name").asText()))
                        : null;
                historyDao.insertRun(new RunRow(0, queryIds.get(r.query()), r.version(), r.at(), requestId(r),
                        keyIds.getOrDefault(e.path("key_name").asText(""), -1L), connection, status(e),
                        e.path("rows").asLong(0), Math.round(e.path("duration_ms").asDouble(0) * 1000),
                        code == null || code.length() <= 40 ? code : code.substring(0, 40), null, null));
            }
            Result result = new Result(created, versions, keysCreated, plan.runs().size());
            audit.append("import_python", "store", Map.of("queries", created, "versions", versions, "keys",
                    keysCreated, "runs", plan.runs().size()));
            return result;
        });
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON text as a tree, for comparing by value; null for null. */
    private JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return mapper.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
