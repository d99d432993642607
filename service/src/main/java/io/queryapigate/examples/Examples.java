package io.queryapigate.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Grants;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.queries.Definition;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.ExampleDao;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example APIs (the Python original's {@code examples.py}), installed and removed as a unit: a DuckDB database
 * in the home folder with its connection {@code examples} (added while the server runs, and again at each start
 * while installed), the example queries filed in their collections, and one key per scenario granted exactly those
 * queries (keys are granted queries by name here). What is installed is recorded ({@code example_items}), so removal
 * deletes exactly that; loading refuses, changing nothing, when anything else holds an example's name.
 */
public final class Examples {
    private static final Logger LOG = LoggerFactory.getLogger(Examples.class);
    private static final String DATABASE = "examples.duckdb";
    private static final String SCRIPT = "examples-duckdb.sql";

    private final Store store;
    private final SavedQueries saved;
    private final ApiKeys keys;
    private final ConnectionRegistry connections;
    private final MetadataCache cache;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final Path home;
    private final AuditLog audit;

    public Examples(Store store, SavedQueries saved, ApiKeys keys, ConnectionRegistry connections,
            MetadataCache cache, ObjectMapper mapper, Clock clock, Path home, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.saved = saved;
        this.keys = keys;
        this.connections = connections;
        this.cache = cache;
        this.mapper = mapper;
        this.clock = clock;
        this.home = home;
    }

    /** At start: while the examples are installed, their connection is added again (its database made if gone). */
    public void restore() {
        if (examples().names(ExampleDao.CONNECTION).contains(ExampleApis.CONNECTION)
                && connections.get(ExampleApis.CONNECTION).isEmpty()) {
            addConnection();
            LOG.info("Connection '{}' of the example APIs is back", ExampleApis.CONNECTION);
        }
    }

    /** What is installed: {@code loaded} (all of it), {@code partial} (some), and what. */
    public ObjectNode status() {
        boolean connection = examples().names(ExampleDao.CONNECTION).contains(ExampleApis.CONNECTION);
        List<String> queries = examples().names(ExampleDao.QUERY);
        List<String> keys = examples().names(ExampleDao.KEY);
        Set<String> collections = new TreeSet<>();
        for (SavedQueryRow q : saved.list()) {
            if (queries.contains(q.name()) && q.collection() != null) {
                collections.add(q.collection());
            }
        }
        boolean complete = connection && Set.copyOf(queries).equals(Set.copyOf(ExampleApis.queryNames()))
                && Set.copyOf(keys).equals(Set.copyOf(ExampleApis.keyNames()));
        boolean any = connection || !queries.isEmpty() || !keys.isEmpty();
        ObjectNode out = mapper.createObjectNode().put("loaded", complete).put("partial", any && !complete);
        out.put("connection", connection ? ExampleApis.CONNECTION : null);
        queries.forEach(out.putArray("queries")::add);
        out.putArray("roles");
        keys.forEach(out.putArray("keys")::add);
        collections.forEach(out.putArray("collections")::add);
        return out;
    }

    /**
     * Installs what is missing (idempotent: completes an interrupted load, adds no versions). Returns what was added
     * with the new keys' secrets, shown this once.
     */
    @SuppressWarnings("unchecked")
    public synchronized ObjectNode load() {
        return audit.inTransaction(() -> {
            ObjectNode out = AuditLog.summarized(this::loaded);
            audit.append("load_examples", "examples", mapper.convertValue(out.get("added"), Map.class));
            return out;
        });
    }

    private ObjectNode loaded() {
        List<String> conflicts = conflicts();
        if (!conflicts.isEmpty()) {
            throw new ApiException(409, "examples_conflict", "Nothing loaded - these already exist and are not"
                    + " examples, so they will not be overwritten: " + String.join(", ", conflicts)
                    + ". Rename or remove them first.");
        }
        boolean connectionAdded = false;
        if (!examples().names(ExampleDao.CONNECTION).contains(ExampleApis.CONNECTION)) {
            addConnection();
            examples().mark(ExampleDao.CONNECTION, ExampleApis.CONNECTION);
            connectionAdded = true;
        }
        List<String> present = examples().names(ExampleDao.QUERY);
        List<String> addedQueries = new ArrayList<>();
        for (ExampleApis.Scenario s : ExampleApis.SCENARIOS) {
            for (ExampleApis.Query q : s.queries()) {
                if (!present.contains(q.name())) {
                    List<String> tags = new ArrayList<>(List.of("example"));
                    tags.addAll(q.tags());
                    Definition d = saved.definitions().define(q.sql(), mapper.valueToTree(q.parameters()),
                            ExampleApis.CONNECTION, q.description(), ExampleApis.AUTHOR, q.cacheTtl(), tags);
                    saved.create(q.name(), d, s.collection(), true);
                    examples().mark(ExampleDao.QUERY, q.name());
                    addedQueries.add(q.name());
                }
            }
        }
        Map<String, String> secrets = new TreeMap<>();
        List<String> existingKeys = examples().names(ExampleDao.KEY);
        for (String key : ExampleApis.keyNames()) {
            if (!existingKeys.contains(key)) {
                secrets.put(key, createKey(key));
                examples().mark(ExampleDao.KEY, key);
            }
        }
        seedHistory(addedQueries);
        ObjectNode out = mapper.createObjectNode();
        ObjectNode added = out.putObject("added").put("connection", connectionAdded);
        addedQueries.forEach(added.putArray("queries")::add);
        added.putArray("roles");
        secrets.keySet().forEach(added.putArray("keys")::add);
        ObjectNode keySecrets = out.putObject("key_secrets");
        secrets.forEach(keySecrets::put);
        out.set("status", status());
        return out;
    }

    /**
     * Removes exactly what is marked as an example: its queries, keys, connection and database. Reports the other
     * keys granted an example query, whose grant now names nothing.
     */
    @SuppressWarnings("unchecked")
    public synchronized ObjectNode unload() {
        return audit.inTransaction(() -> {
            ObjectNode out = AuditLog.summarized(this::unloaded);
            audit.append("unload_examples", "examples", mapper.convertValue(out.get("removed"), Map.class));
            return out;
        });
    }

    private ObjectNode unloaded() {
        ObjectNode out = mapper.createObjectNode();
        ObjectNode removed = out.putObject("removed");
        boolean connection = examples().names(ExampleDao.CONNECTION).contains(ExampleApis.CONNECTION);
        List<String> queries = examples().names(ExampleDao.QUERY);
        ArrayNode removedQueries = removed.put("connection", connection).putArray("queries");
        for (String q : queries) {
            try {
                saved.delete(q);
            } catch (ApiException gone) {
                // deleted by hand since: only the mark is left
            }
            examples().unmark(ExampleDao.QUERY, q);
            removedQueries.add(q);
        }
        removed.putArray("roles");
        ArrayNode removedKeys = removed.putArray("keys");
        for (String k : examples().names(ExampleDao.KEY)) {
            if (store.keys().findByName(k).isPresent()) {
                keys.delete(k, null);
            }
            examples().unmark(ExampleDao.KEY, k);
            removedKeys.add(k);
        }
        if (connection) {
            connections.remove(ExampleApis.CONNECTION);
            deleteDatabase();
            examples().unmark(ExampleDao.CONNECTION, ExampleApis.CONNECTION);
        }
        Set<String> stillGranted = new TreeSet<>();
        for (ApiKeyRow k : store.keys().list()) {
            Grants g = grants(k);
            if (g != null && queries.stream().anyMatch(g.queries()::contains)) {
                stillGranted.add(k.name());
            }
        }
        stillGranted.forEach(out.putArray("keys_still_granted")::add);
        out.set("status", status());
        return out;
    }

    /** What holds an example's name without being an example: never overwritten. */
    private List<String> conflicts() {
        List<String> found = new ArrayList<>();
        boolean marked = examples().names(ExampleDao.CONNECTION).contains(ExampleApis.CONNECTION);
        if (!marked && connections.get(ExampleApis.CONNECTION).isPresent()) {
            found.add("connection '" + ExampleApis.CONNECTION + "'");
        } else if (!marked && Files.exists(home.resolve(DATABASE))) {
            found.add("the file " + DATABASE);
        }
        List<String> queries = examples().names(ExampleDao.QUERY);
        for (String q : ExampleApis.queryNames()) {
            if (!queries.contains(q) && store.queries().findByName(q).isPresent()) {
                found.add("saved query '" + q + "'");
            }
        }
        List<String> keys = examples().names(ExampleDao.KEY);
        for (String k : ExampleApis.keyNames()) {
            if (!keys.contains(k) && store.keys().findByName(k).isPresent()) {
                found.add("API key '" + k + "'");
            }
        }
        return found;
    }

    /** The examples' DuckDB database, built from the bundled script when its file does not exist, read-only. */
    private void addConnection() {
        Path script = home.resolve(SCRIPT);
        try (InputStream in = Examples.class.getResourceAsStream("/examples/" + SCRIPT)) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the example database's script to " + script, e);
        }
        ConnectionConfig c = new ConnectionConfig();
        c.setDialect("duckdb");
        c.setUrl(DATABASE);
        c.setPoolSize(4);
        c.setProperties(Map.of("duckdb.read_only", "true", "duckdb.init_script", script.toString()));
        connections.add(ExampleApis.CONNECTION, c);
    }

    private void deleteDatabase() {
        for (String f : List.of(DATABASE, DATABASE + ".wal", SCRIPT)) {
            try {
                Files.deleteIfExists(home.resolve(f));
            } catch (IOException e) {
                LOG.warn("Could not delete {} of the example APIs", home.resolve(f), e);
            }
        }
    }

    /** A key granted its scenario's queries (on their own connection) with the scenario's rate limit. */
    private String createKey(String name) {
        String rate = ExampleApis.SCENARIOS.stream().filter(s -> s.key().equals(name)).map(
                ExampleApis.Scenario::rateLimit).findFirst().orElseGet(() -> ExampleApis.EXTRA_KEYS.stream()
                .filter(k -> k.name().equals(name)).findFirst().orElseThrow().rateLimit());
        Grants grants = new Grants(List.of(), ExampleApis.queriesOf(name), false, false, null, null, null, null, rate,
                null, null, null, null);
        return keys.create(name, new ApiKeys.State(grants, null, true)).secret();
    }

    /**
     * A week of plausible runs for each new example query (8 to 20, by its scenario's key), so the history is not
     * empty before anyone calls them; deterministic, and never an event (they were not calls).
     */
    private void seedHistory(List<String> queries) {
        if (queries.isEmpty()) {
            return;
        }
        Random random = new Random(42);
        long now = clock.millis();
        store.jdbi().useTransaction(h -> {
            PreparedBatch batch = h.prepareBatch("INSERT INTO run_history (query_id, version, at_ms, request_id,"
                    + " key_id, connection, status, rows_out, duration_us, error_code)"
                    + " VALUES (:q, 1, :at, :rid, :key, :c, 200, :rows, :us, NULL)");
            for (String name : queries) {
                SavedQueryRow q = store.queries().findByName(name).orElseThrow();
                String keyName = ExampleApis.SCENARIOS.stream().filter(s -> s.queries().stream()
                        .anyMatch(x -> x.name().equals(name))).findFirst().orElseThrow().key();
                long keyId = store.keys().findByName(keyName).map(ApiKeyRow::id).orElse(0L);
                int runs = 8 + random.nextInt(13);
                for (int i = 0; i < runs; i++) {
                    long at = now - (long) (random.nextDouble() * Duration.ofDays(7).toMillis());
                    batch.bind("q", q.id()).bind("at", at).bind("rid", "example-" + Long.toHexString(at))
                            .bind("key", keyId).bind("c", ExampleApis.CONNECTION).bind("rows", 1 + random.nextInt(50))
                            .bind("us", 1000L * (2 + random.nextInt(39))).add();
                }
            }
            batch.execute();
        });
    }

    private Grants grants(ApiKeyRow k) {
        try {
            return mapper.readValue(k.grants(), Grants.class);
        } catch (IOException e) {
            return null;
        }
    }

    private ExampleDao examples() {
        return store.examples();
    }
}
