package io.queryapigate.configcode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.connections.Connections;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.keys.KeyBody;
import io.queryapigate.keys.KeyFields;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.queries.Definition;
import io.queryapigate.queries.Definitions;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.ConnectionRow;
import io.queryapigate.store.ExampleDao;
import io.queryapigate.store.ManagedRow;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.RoleRow;
import io.queryapigate.roles.Roles;
import io.queryapigate.auth.Identity;
import io.queryapigate.store.Store;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configuration as code: a directory of YAML files, one per object ({@code connections/NAME.yaml}, {@code
 * queries/NAME.yaml}, {@code api_keys/NAME.yaml}, {@code descriptions/CONNECTION.yaml}), read and checked by the rules the API applies, compared with the store ({@link #diff}),
 * made true in one store transaction ({@link #apply}), and written from the store ({@link #export}). A file holds
 * the API's own fields; a key carries {@code secret_sha256}, never a secret, and a connection a reference to its
 * password, never the password. The connections an apply changes are opened and checked first, visible to the apply
 * alone (its queries are checked on them), and put into service after the commit; a failed apply closes them. What an apply declares is recorded as
 * owned by its file ({@link ManagedObjects}): the API refuses to change it. Objects the directory does not declare
 * are left alone, unless a directory applied earlier owned them and {@code prune} is asked for: then they go.
 */
public final class ConfigCode {
    /** The author a query's version gets when its file names none. */
    public static final String AUTHOR = "config";
    private static final List<String> KINDS = List.of(ManagedObjects.CONNECTIONS, ManagedObjects.QUERIES,
            ManagedObjects.ROLES, ManagedObjects.API_KEYS, ManagedObjects.DESCRIPTIONS);
    private static final Set<String> ROLE_FIELDS;
    private static final Set<String> DESCRIPTION_FIELDS = Set.of("name", "items");
    private static final Set<String> KEY_FIELDS;
    private static final Set<String> KEY_STATE_FIELDS;
    private static final Set<String> ALWAYS_WRITTEN = Set.of("connections", "queries");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Logger LOG = LoggerFactory.getLogger(ConfigCode.class);

    static {
        Set<String> state = new HashSet<>(KeyBody.GRANT_FIELDS);
        state.add("active");
        state.add("expires_at");
        state.add("role");
        state.add("claims");
        KEY_STATE_FIELDS = Set.copyOf(state);
        Set<String> role = new HashSet<>(Roles.GRANT_FIELDS);
        role.addAll(Roles.ROLE_FIELDS);
        role.add("name");
        ROLE_FIELDS = Set.copyOf(role);
        Set<String> all = new HashSet<>(state);
        all.add("name");
        all.add("secret_sha256");
        KEY_FIELDS = Set.copyOf(all);
    }

    private final Store store;
    private final SavedQueries queries;
    private final ApiKeys keys;
    private final Roles roles;
    private final ManagedObjects managed;
    private final Descriptions descriptions;
    private final ConnectionRegistry connections;
    private final Connections stored;
    private final MetadataCache cache;
    private final Predicate<String> knownConnection;
    private final boolean hashMasking;
    private final ObjectMapper mapper;
    private final Clock clock;

    /**
     * @param connections the connections (a key's grants and a query name them; descriptions belong to them)
     * @param stored the connections managed through the API, which a directory may declare
     * @param hashMasking whether the server has a masking key (hash mask rules)
     */
    private final AuditLog audit;

    public ConfigCode(Store store, SavedQueries queries, ApiKeys keys, Roles roles, ManagedObjects managed,
            Descriptions descriptions, ConnectionRegistry connections, Connections stored, MetadataCache cache,
            boolean hashMasking, ObjectMapper mapper, Clock clock, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.queries = queries;
        this.keys = keys;
        this.roles = roles;
        this.managed = managed;
        this.descriptions = descriptions;
        this.connections = connections;
        this.stored = stored;
        this.cache = cache;
        this.knownConnection = c -> connections.visible(c).isPresent();
        this.hashMasking = hashMasking;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * The store as a directory.
     *
     * @param files path ({@code queries/film.yaml}) to YAML text, in path order
     * @param skipped the saved queries left out: they have no published version, which is what a file describes
     */
    public record Export(SortedMap<String, String> files, List<String> skipped) {}

    /**
     * What an apply did.
     *
     * @param plan the changes, as {@link #diff} showed them
     * @param applied whether anything was written (false when the store already matched and owned everything)
     * @param directorySha256 the SHA-256 of the directory's files (each path and content hash, in path order)
     */
    public record Applied(Plan plan, boolean applied, String directorySha256) {}

    /** What a directory declares, read and checked. */
    private record Declared(Map<String, DeclaredConnection> connections, Map<String, DeclaredQuery> queries,
            Map<String, DeclaredRole> roles, Map<String, DeclaredKey> keys,
            Map<String, DeclaredDescriptions> descriptions, String sha256) {}

    private record DeclaredRole(String name, ConfigFile file, Roles.State state, ObjectNode shape) {}

    private record DeclaredConnection(String name, ConfigFile file, Connections.Declared declared) {}

    /**
     * A directory's connections, read first: those it changes are opened (not in service) so that its queries can
     * be checked on them; {@link #discard} closes them when they do not go into service.
     */
    private record Staging(Map<String, DeclaredConnection> declared, Map<String, Connections.Staged> opened,
            Problems problems) {
        Map<String, ConnectionRegistry.Connection> connections() {
            Map<String, ConnectionRegistry.Connection> out = new TreeMap<>();
            opened.forEach((name, s) -> out.put(name, s.connection()));
            return out;
        }

        void discard() {
            opened.values().forEach(s -> s.connection().discard());
        }
    }

    private record DeclaredQuery(String name, ConfigFile file, Definition definition, String collection,
            ObjectNode shape, boolean authorGiven) {}

    private record DeclaredKey(String name, ConfigFile file, ApiKeys.State state, String secretSha256,
            ObjectNode shape) {}

    /** A connection's descriptions, each by its label ({@code film}, {@code film.title}, {@code (connection)}). */
    private record DeclaredDescriptions(String name, ConfigFile file, Map<String, Descriptions.Item> items,
            ObjectNode shape) {}

    /**
     * The store's connections, saved queries (published), keys and descriptions, as files; the examples' and the
     * YAML's connections are left out. A sealed password is written as the mask: "keep the stored one".
     */
    public Export export() {
        SortedMap<String, String> files = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        for (ConnectionRow row : stored.stored().values()) {
            if (connections.isConfigured(row.name()) || connections.isAdded(row.name())) {
                continue;
            }
            ObjectNode out = JSON.objectNode().put("name", row.name());
            out.setAll(stored.declaredShape(row));
            files.put(ManagedObjects.CONNECTIONS + "/" + row.name() + ".yaml", yaml(out));
        }
        Set<String> exampleQueries = Set.copyOf(store.examples().names(ExampleDao.QUERY));
        Map<Long, List<QueryVersionRow>> versions = queries.allVersions();
        for (SavedQueryRow q : queries.list()) {
            if (exampleQueries.contains(q.name())) {
                continue;
            }
            ObjectNode shape = storedShape(q, versions.getOrDefault(q.id(), List.of()));
            if (shape == null) {
                skipped.add(q.name());
                continue;
            }
            ObjectNode out = JSON.objectNode().put("name", q.name());
            out.setAll(shape);
            files.put(ManagedObjects.QUERIES + "/" + q.name() + ".yaml", yaml(out));
        }
        for (RoleRow row : roles.list(Identity.DEFAULT_WORKSPACE)) {
            ObjectNode out = JSON.objectNode().put("name", row.name());
            out.setAll(roleShape(roles.state(row)));
            files.put(ManagedObjects.ROLES + "/" + row.name() + ".yaml", yaml(out));
        }
        Set<String> exampleKeys = Set.copyOf(store.examples().names(ExampleDao.KEY));
        for (ApiKeyRow row : keys.list()) {
            if (exampleKeys.contains(row.name())) {
                continue;
            }
            ObjectNode out = JSON.objectNode().put("name", row.name()).put("secret_sha256", row.keyHash());
            out.setAll(keyShape(stateOf(row)));
            files.put(ManagedObjects.API_KEYS + "/" + row.name() + ".yaml", yaml(out));
        }
        for (String connection : new TreeMap<>(connections.all()).keySet()) {
            JsonNode stored = descriptions.list(connection);
            if (stored.isEmpty()) {
                continue;
            }
            ObjectNode out = JSON.objectNode().put("name", connection);
            var items = out.putArray("items");
            for (JsonNode d : stored) {
                ObjectNode item = items.addObject();
                for (String field : List.of("schema", "table", "column")) {
                    if (d.hasNonNull(field)) {
                        item.put(field, d.get(field).textValue());
                    }
                }
                item.put("description", d.get("description").textValue());
            }
            files.put(ManagedObjects.DESCRIPTIONS + "/" + connection + ".yaml", yaml(out));
        }
        return new Export(files, skipped);
    }

    /**
     * What applying the directory would change; nothing is written.
     *
     * @param files path to YAML text
     * @param prune whether objects a directory applied earlier owned, and this one no longer declares, are deleted
     * @throws ApiException 400 {@code invalid_config} listing every problem, each at its file and line
     */
    public Plan diff(Map<String, String> files, boolean prune) {
        Staging staging = stage(files, AUTHOR);
        try {
            return connections.withStaged(staging.connections(), () -> plan(read(files, staging), prune));
        } finally {
            staging.discard();
        }
    }

    /**
     * Makes the store match the directory, all or nothing: one store transaction, each change made by the services
     * the API uses (a changed query is a new published version), every declared object recorded as owned by its
     * file. Any failure leaves the store as it was.
     *
     * @param actor who applies it ({@code cli}, or the caller's key name)
     * @throws ApiException 400 {@code invalid_config} (every problem, nothing applied), 500
     *     {@code config_apply_failed} (the store refused a change; nothing applied)
     */
    public Applied apply(Map<String, String> files, boolean prune, String actor) {
        Staging staging = stage(files, actor);
        Applied applied;
        try {
            applied = connections.withStaged(staging.connections(), () -> applyStaged(files, staging, prune, actor));
        } catch (RuntimeException e) {
            staging.discard();
            throw e;
        }
        if (applied.applied()) {
            stored.reconcile(staging.opened());
        } else {
            staging.discard();
        }
        return applied;
    }

    private Applied applyStaged(Map<String, String> files, Staging staging, boolean prune, String actor) {
        Declared declared = read(files, staging);
        List<Runnable> afterCommit = new ArrayList<>();
        String[] current = {null};
        Applied applied;
        try {
            applied = store.jdbi().inTransaction(h -> managed.applying(() -> {
                Plan plan = plan(declared, prune);
                Map<String, ManagedRow> owned = owned();
                boolean newlyOwned = declared.connections().values().stream().anyMatch(c -> !ownedBy(owned,
                        ManagedObjects.CONNECTIONS, c.name(), c.file())) || declared.queries().values().stream().anyMatch(q -> !ownedBy(owned,
                        ManagedObjects.QUERIES, q.name(), q.file())) || declared.keys().values().stream()
                        .anyMatch(k -> !ownedBy(owned, ManagedObjects.API_KEYS, k.name(), k.file()))
                        || declared.roles().values().stream().anyMatch(r -> !ownedBy(owned, ManagedObjects.ROLES,
                        r.name(), r.file()))
                        || declared.descriptions().values().stream().anyMatch(d -> !ownedBy(owned,
                        ManagedObjects.DESCRIPTIONS, d.name(), d.file()));
                if (plan.changes().isEmpty() && !newlyOwned) {
                    return new Applied(plan, false, declared.sha256());
                }
                AuditLog.summarized(() -> {
                    for (Plan.Change change : plan.changes()) {
                        current[0] = change.file() == null ? change.kind() + "[" + change.name() + "]"
                                : change.file();
                        execute(change, declared, actor, afterCommit);
                    }
                    return null;
                });
                current[0] = null;
                record(declared, plan, actor);
                audit.append("config_applied", declared.sha256().substring(0, 12), applied(declared, plan, prune));
                return new Applied(plan, true, declared.sha256());
            }));
        } catch (ApiException e) {
            if (current[0] == null) {
                throw e;
            }
            Problems problems = new Problems();
            problems.add(current[0], 1, e.getMessage());
            problems.throwIfAny();
            throw e;
        } catch (RuntimeException e) {
            LOG.error("Applying a configuration directory failed at {}; the transaction was rolled back", current[0],
                    e);
            throw new ApiException(500, "config_apply_failed", "Applying the directory failed at "
                    + (current[0] == null ? "its start" : current[0]) + ": the store refused the change (the server"
                    + " log says why). Nothing was changed.");
        }
        afterCommit.forEach(Runnable::run);
        return applied;
    }

    /** Every object a directory owns, by kind and name. */
    public List<ManagedRow> managed() {
        return managed.list();
    }

    // ---- reading a directory

    /** Reads and checks the directory's connection files; opens those it creates or changes (not in service). */
    private Staging stage(Map<String, String> files, String actor) {
        Problems problems = new Problems();
        Map<String, DeclaredConnection> declared = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
            String path = e.getKey().replace('\\', '/').replaceFirst("^(\\./)+", "");
            String[] parts = path.split("/");
            String stem = parts[parts.length - 1].replaceFirst("\\.ya?ml$", "");
            if (parts.length != 2 || !parts[0].equals(ManagedObjects.CONNECTIONS) || stem.isEmpty()) {
                continue;
            }
            ConfigFile f = ConfigFile.parse(path, e.getValue() == null ? "" : e.getValue(), new Problems());
            JsonNode nameNode = f.body() == null ? null : f.body().get("name");
            if (f.body() == null || (nameNode != null && !stem.equals(nameNode.asText()))) {
                continue; // read() reports it
            }
            if (connections.isConfigured(stem) || connections.isAdded(stem)) {
                problems.add(path, f.line("name"), "Connection '" + stem + "' is declared in the server's YAML"
                        + " (managed_by: config): a configuration directory never declares it");
                continue;
            }
            if (!ConnectionRegistry.NAME.matcher(stem).matches()) {
                problems.add(path, f.line("name"), "A connection name is 1-100 letters, digits, '.', '_' or '-',"
                        + " starting with a letter or digit.");
                continue;
            }
            try {
                declared.put(stem, new DeclaredConnection(stem, f, stored.declare(stem, f.body(), actor)));
            } catch (ApiException ex) {
                report(f, ex, "name", problems);
            } catch (RuntimeException ex) {
                problems.add(path, f.line("password", "name"), ex.getMessage());
            }
        }
        Map<String, Connections.Staged> opened = new TreeMap<>();
        for (DeclaredConnection c : declared.values()) {
            if (!c.declared().changed()) {
                continue;
            }
            try {
                opened.put(c.name(), stored.stage(c.declared().row()));
            } catch (ApiException ex) {
                report(c.file(), ex, "url", problems);
            } catch (RuntimeException ex) { // a reference that does not resolve, a dialect refusing the URL
                problems.add(c.file().path(), c.file().line("password", "url"), ex.getMessage());
            }
        }
        return new Staging(declared, opened, problems);
    }

    private Declared read(Map<String, String> files, Staging staging) {
        Problems problems = staging.problems();
        Map<String, DeclaredQuery> qs = new TreeMap<>();
        Map<String, DeclaredKey> ks = new TreeMap<>();
        Map<String, DeclaredRole> rs = new TreeMap<>();
        Map<String, DeclaredDescriptions> ds = new TreeMap<>();
        Map<String, String> seen = new LinkedHashMap<>();
        StringBuilder digest = new StringBuilder();
        for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
            String path = e.getKey().replace('\\', '/').replaceFirst("^(\\./)+", "");
            String[] parts = path.split("/");
            String fileName = parts[parts.length - 1];
            String stem = fileName.replaceFirst("\\.ya?ml$", "");
            if (parts.length != 2 || !KINDS.contains(parts[0]) || stem.equals(fileName) || stem.isEmpty()) {
                problems.add(path, 1, "is not where a configuration file goes: connections/NAME.yaml,"
                        + " queries/NAME.yaml, api_keys/NAME.yaml, roles/NAME.yaml or descriptions/CONNECTION.yaml");
                continue;
            }
            ConfigFile f = ConfigFile.parse(path, e.getValue() == null ? "" : e.getValue(), problems);
            digest.append(path).append(' ').append(f.sha256()).append('\n');
            if (f.body() == null) {
                continue;
            }
            JsonNode nameNode = f.body().get("name");
            String name = stem;
            if (nameNode != null && !(nameNode.isTextual() && nameNode.textValue().equals(stem))) {
                problems.add(path, f.line("name"), "name must be the file's name (" + stem + "): one file per"
                        + " object, named after it");
                continue;
            }
            String other = seen.putIfAbsent(parts[0] + "/" + name, path);
            if (other != null) {
                problems.add(path, 1, "declares " + parts[0] + "[" + name + "] again (" + other + " does too)");
                continue;
            }
            if (parts[0].equals(ManagedObjects.CONNECTIONS)) {
                continue; // read by stage()
            } else if (parts[0].equals(ManagedObjects.QUERIES)) {
                readQuery(f, name, problems).ifPresent(q -> qs.put(name, q));
            } else if (parts[0].equals(ManagedObjects.API_KEYS)) {
                readKey(f, name, problems).ifPresent(k -> ks.put(name, k));
            } else if (parts[0].equals(ManagedObjects.ROLES)) {
                readRole(f, name, problems).ifPresent(r -> rs.put(name, r));
            } else {
                readDescriptions(f, name, problems).ifPresent(d -> ds.put(name, d));
            }
        }
        Map<String, String> hashes = new LinkedHashMap<>();
        for (DeclaredKey k : ks.values()) {
            if (k.secretSha256() != null) {
                String other = hashes.putIfAbsent(k.secretSha256(), k.file().path());
                if (other != null) {
                    problems.add(k.file().path(), k.file().line("secret_sha256"), "secret_sha256 is " + other
                            + "'s too: each key has its own secret");
                }
            }
        }
        problems.throwIfAny();
        return new Declared(staging.declared(), qs, rs, ks, ds, ConfigFile.sha256(digest.toString()));
    }

    private Optional<DeclaredQuery> readQuery(ConfigFile f, String name, Problems problems) {
        try {
            SavedQueries.checkName(name);
        } catch (ApiException e) {
            problems.add(f.path(), f.line("name"), e.getMessage());
            return Optional.empty();
        }
        JsonNode collectionNode = f.body().get("collection");
        String collection = null;
        if (collectionNode != null && !collectionNode.isNull()) {
            try {
                collection = SavedQueries.checkCollection(collectionNode);
            } catch (ApiException e) {
                problems.add(f.path(), f.line("collection"), e.getMessage());
            }
        }
        Definition d;
        try {
            d = queries.declared(f.body(), AUTHOR);
        } catch (ApiException e) {
            report(f, e, "sql", problems);
            return Optional.empty();
        }
        boolean authorGiven = f.body().hasNonNull("author");
        return Optional.of(new DeclaredQuery(name, f, d, collection, shape(d, collection), authorGiven));
    }

    private Optional<DeclaredKey> readKey(ConfigFile f, String name, Problems problems) {
        boolean ok = true;
        try {
            KeyFields.name(name);
        } catch (IllegalArgumentException e) {
            problems.add(f.path(), f.line("name"), "An API key name " + e.getMessage() + ".");
            ok = false;
        }
        ObjectNode fields = JSON.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = f.body().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!KEY_FIELDS.contains(field.getKey())) {
                problems.add(f.path(), f.line(field.getKey()), field.getKey() + " is not a known field of a key");
                ok = false;
            } else if (KEY_STATE_FIELDS.contains(field.getKey())) {
                try {
                    KeyBody.apply(JSON.objectNode().set(field.getKey(), field.getValue()), KeyBody.NONE,
                            knownConnection, hashMasking);
                    fields.set(field.getKey(), field.getValue());
                } catch (ApiException e) {
                    problems.add(f.path(), f.line(field.getKey()), e.getMessage());
                    ok = false;
                }
            }
        }
        JsonNode sha = f.body().get("secret_sha256");
        String secretSha256 = null;
        if (sha != null && !sha.isNull()) {
            if (!sha.isTextual() || !SHA256.matcher(sha.textValue()).matches()) {
                problems.add(f.path(), f.line("secret_sha256"), "secret_sha256 must be the SHA-256 of the key's"
                        + " secret as 64 lowercase hex digits (never the secret itself)");
                ok = false;
            } else {
                secretSha256 = sha.textValue();
            }
        }
        if (!ok) {
            return Optional.empty();
        }
        String role = fields.path("role").isTextual() ? fields.get("role").textValue() : null;
        ApiKeys.State state = KeyBody.apply(fields, role == null ? KeyBody.NONE : KeyBody.fromRole(role),
                knownConnection, hashMasking);
        return Optional.of(new DeclaredKey(name, f, state, secretSha256, keyShape(state)));
    }

    private Optional<DeclaredRole> readRole(ConfigFile f, String name, Problems problems) {
        boolean ok = true;
        try {
            KeyFields.objectName(name);
        } catch (IllegalArgumentException e) {
            problems.add(f.path(), f.line("name"), "A role name " + e.getMessage() + ".");
            ok = false;
        }
        ObjectNode fields = JSON.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = f.body().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!ROLE_FIELDS.contains(field.getKey())) {
                problems.add(f.path(), f.line(field.getKey()), field.getKey() + " is not a known field of a role");
                ok = false;
            } else if (!field.getKey().equals("name")) {
                fields.set(field.getKey(), field.getValue());
            }
        }
        try {
            Roles.State state = Roles.apply(fields, Roles.NONE, knownConnection, hashMasking);
            return ok ? Optional.of(new DeclaredRole(name, f, state, roleShape(state))) : Optional.empty();
        } catch (ApiException e) {
            report(f, e, "name", problems);
            return Optional.empty();
        }
    }

    private Optional<DeclaredDescriptions> readDescriptions(ConfigFile f, String name, Problems problems) {
        boolean ok = true;
        for (Iterator<String> it = f.body().fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!DESCRIPTION_FIELDS.contains(field)) {
                problems.add(f.path(), f.line(field), field + " is not a known field of a connection's descriptions"
                        + " (name, items)");
                ok = false;
            }
        }
        if (!knownConnection.test(name)) {
            problems.add(f.path(), f.line("name"), "No connection named '" + name + "'.");
            return Optional.empty();
        }
        List<Descriptions.Item> items;
        try {
            items = descriptions.parse(name, f.body().get("items"));
        } catch (ApiException e) {
            problems.add(f.path(), f.line("items"), e.getMessage());
            return Optional.empty();
        }
        if (!ok) {
            return Optional.empty();
        }
        Map<String, Descriptions.Item> byLabel = new TreeMap<>();
        ObjectNode shape = JSON.objectNode();
        for (Descriptions.Item i : items) {
            if (i.text() == null) {
                problems.add(f.path(), f.line("items"), label(i) + " has no description: leave it out instead");
                return Optional.empty();
            }
            byLabel.put(label(i), i);
        }
        byLabel.forEach((label, i) -> shape.put(label, i.text()));
        return Optional.of(new DeclaredDescriptions(name, f, byLabel, shape));
    }

    private static String label(Descriptions.Item i) {
        if (i.table().isEmpty()) {
            return "(connection)";
        }
        return (i.schema().isEmpty() ? "" : i.schema() + ".") + i.table() + (i.column().isEmpty() ? ""
                : "." + i.column());
    }

    /** A connection's stored descriptions, by label. */
    private Map<String, Descriptions.Item> storedDescriptions(String connection) {
        Map<String, Descriptions.Item> out = new TreeMap<>();
        for (JsonNode d : descriptions.list(connection)) {
            Descriptions.Item i = new Descriptions.Item(text(d, "schema"), text(d, "table"), text(d, "column"),
                    d.get("description").textValue());
            out.put(label(i), i);
        }
        return out;
    }

    private static String text(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).textValue() : "";
    }

    /** An API refusal as problems at the lines of the fields it names (else at {@code fallbackField}'s line). */
    private static void report(ConfigFile f, ApiException e, String fallbackField, Problems problems) {
        if (e.errors() == null || e.errors().size() <= 1) {
            String field = e.errors() == null || e.errors().isEmpty() ? fallbackField
                    : e.errors().keySet().iterator().next();
            problems.add(f.path(), f.line(field, fallbackField), e.getMessage());
            return;
        }
        e.errors().forEach((field, message) -> problems.add(f.path(), f.line(field, fallbackField), field + " "
                + message));
    }

    // ---- comparing with the store

    private Plan plan(Declared declared, boolean prune) {
        Problems problems = new Problems();
        List<Plan.Change> changes = new ArrayList<>();
        List<Plan.Change> deletes = new ArrayList<>();
        List<Plan.Ref> unchanged = new ArrayList<>();
        List<Plan.Ref> notInDirectory = new ArrayList<>();
        Map<String, ManagedRow> owned = owned();

        Map<String, ConnectionRow> storedConnections = stored.stored();
        for (DeclaredConnection c : declared.connections().values()) {
            ConnectionRow row = storedConnections.get(c.name());
            String file = c.file().path();
            if (row == null) {
                changes.add(new Plan.Change(ManagedObjects.CONNECTIONS, c.name(), file, "create",
                        fields(null, c.declared().shape(), Set.of()), List.of()));
                continue;
            }
            Map<String, Plan.FieldChange> fields = fields(stored.declaredShape(row), c.declared().shape(), Set.of());
            if (fields.isEmpty()) {
                unchanged.add(new Plan.Ref(ManagedObjects.CONNECTIONS, c.name(), file));
            } else {
                changes.add(new Plan.Change(ManagedObjects.CONNECTIONS, c.name(), file, "update", fields,
                        List.of("its pool is replaced once the apply has committed")));
            }
        }

        Map<String, SavedQueryRow> storedQueries = new TreeMap<>();
        queries.list().forEach(q -> storedQueries.put(q.name(), q));
        Map<Long, List<QueryVersionRow>> versions = queries.allVersions();
        for (DeclaredQuery q : declared.queries().values()) {
            SavedQueryRow row = storedQueries.get(q.name());
            String file = q.file().path();
            if (row == null) {
                changes.add(new Plan.Change(ManagedObjects.QUERIES, q.name(), file, "create",
                        fields(null, q.shape(), Set.of()), List.of()));
                continue;
            }
            List<QueryVersionRow> vs = versions.getOrDefault(row.id(), List.of());
            ObjectNode have = storedShape(row, vs);
            List<String> notes = new ArrayList<>();
            Set<String> ignored = q.authorGiven() ? Set.of() : Set.of("author");
            Map<String, Plan.FieldChange> fields = fields(have, q.shape(), ignored);
            if (fields.isEmpty()) {
                unchanged.add(new Plan.Ref(ManagedObjects.QUERIES, q.name(), file));
                continue;
            }
            boolean definition = have == null || fields.keySet().stream().anyMatch(k -> !k.equals("collection"));
            notes.add(have == null ? "has no published version: the directory's is published"
                    : definition ? "a new version, published" : "moved to another collection");
            int latest = vs.isEmpty() ? 0 : vs.get(vs.size() - 1).version();
            if (definition && row.publishedVersion() != null && latest > row.publishedVersion()) {
                notes.add("has a newer draft, version " + latest + ": the new version goes above it");
            }
            changes.add(new Plan.Change(ManagedObjects.QUERIES, q.name(), file, "update", fields, notes));
        }

        Map<String, RoleRow> storedRoles = new TreeMap<>();
        roles.list(Identity.DEFAULT_WORKSPACE).forEach(r -> storedRoles.put(r.name(), r));
        for (DeclaredRole r : declared.roles().values()) {
            RoleRow row = storedRoles.get(r.name());
            String file = r.file().path();
            if (row == null) {
                if (store.roles().findByName(r.name()).isPresent()) {
                    problems.add(file, r.file().line("name"), "A role named '" + r.name() + "' already exists in"
                            + " another workspace: role names are unique on the server");
                    continue;
                }
                changes.add(new Plan.Change(ManagedObjects.ROLES, r.name(), file, "create",
                        fields(null, r.shape(), Set.of()), List.of()));
                continue;
            }
            Map<String, Plan.FieldChange> fields = fields(roleShape(roles.state(row)), r.shape(), Set.of());
            List<String> keysOf = roles.keysOf(row);
            if (fields.isEmpty()) {
                unchanged.add(new Plan.Ref(ManagedObjects.ROLES, r.name(), file));
            } else {
                changes.add(new Plan.Change(ManagedObjects.ROLES, r.name(), file, "update", fields, keysOf.isEmpty()
                        ? List.of() : List.of("the keys made from it get the change: " + String.join(", ", keysOf))));
            }
        }

        Map<String, ApiKeyRow> storedKeys = new TreeMap<>();
        keys.list().forEach(k -> storedKeys.put(k.name(), k));
        for (DeclaredKey k : declared.keys().values()) {
            ApiKeyRow row = storedKeys.get(k.name());
            String file = k.file().path();
            String role = k.state().role();
            if (role != null && !declared.roles().containsKey(role) && !storedRoles.containsKey(role)) {
                problems.add(file, k.file().line("role"), "role names no role of the directory or the store: '"
                        + role + "'");
                continue;
            }
            if (k.secretSha256() != null) {
                Optional<ApiKeyRow> holder = store.keys().findByHash(k.secretSha256());
                if (holder.isPresent() && !holder.get().name().equals(k.name())) {
                    problems.add(file, k.file().line("secret_sha256"), "secret_sha256 is the secret of API key '"
                            + holder.get().name() + "' already: each key has its own secret");
                    continue;
                }
                if (holder.isEmpty() && store.keys().deletedWithHash(k.secretSha256())) {
                    problems.add(file, k.file().line("secret_sha256"), "secret_sha256 is the secret of a deleted"
                            + " key, which never works again: make a new secret");
                    continue;
                }
            }
            if (row == null) {
                if (k.secretSha256() == null) {
                    problems.add(file, 1, "a new key needs secret_sha256: the SHA-256 of its secret (make a secret,"
                            + " give it to whoever uses the key, and put only its hash here)");
                    continue;
                }
                Map<String, Plan.FieldChange> fields = new LinkedHashMap<>();
                fields.put("secret_sha256", new Plan.FieldChange(null, JSON.textNode(k.secretSha256())));
                fields.putAll(fields(null, k.shape(), Set.of()));
                changes.add(new Plan.Change(ManagedObjects.API_KEYS, k.name(), file, "create", fields, List.of()));
                continue;
            }
            Map<String, Plan.FieldChange> fields = new LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            if (k.secretSha256() != null && !k.secretSha256().equals(row.keyHash())) {
                fields.put("secret_sha256", new Plan.FieldChange(JSON.textNode(row.keyHash()),
                        JSON.textNode(k.secretSha256())));
                notes.add("a new secret: the old one keeps working for " + ApiKeys.DEFAULT_GRACE_MINUTES
                        + " minutes, as a rotation does");
            }
            fields.putAll(fields(keyShape(stateOf(row)), k.shape(), Set.of()));
            if (fields.isEmpty()) {
                unchanged.add(new Plan.Ref(ManagedObjects.API_KEYS, k.name(), file));
            } else {
                changes.add(new Plan.Change(ManagedObjects.API_KEYS, k.name(), file, "update", fields, notes));
            }
        }
        for (DeclaredDescriptions d : declared.descriptions().values()) {
            Map<String, Descriptions.Item> have = storedDescriptions(d.name());
            Map<String, Plan.FieldChange> fields = new LinkedHashMap<>();
            d.items().forEach((label, i) -> {
                Descriptions.Item before = have.get(label);
                if (before == null || !before.text().equals(i.text())) {
                    fields.put(label, new Plan.FieldChange(before == null ? null : JSON.textNode(before.text()),
                            JSON.textNode(i.text())));
                }
            });
            boolean ownedHere = owned.containsKey(ManagedObjects.DESCRIPTIONS + "/" + d.name());
            List<String> notes = new ArrayList<>();
            have.forEach((label, i) -> {
                if (!d.items().containsKey(label)) {
                    if (prune && ownedHere) {
                        fields.put(label, new Plan.FieldChange(JSON.textNode(i.text()), null));
                    } else if (notes.isEmpty()) {
                        notes.add("the connection has descriptions the file does not list: left as they are"
                                + (ownedHere ? " (--prune removes them)" : ""));
                    }
                }
            });
            String file = d.file().path();
            if (fields.isEmpty()) {
                unchanged.add(new Plan.Ref(ManagedObjects.DESCRIPTIONS, d.name(), file));
            } else {
                changes.add(new Plan.Change(ManagedObjects.DESCRIPTIONS, d.name(), file, have.isEmpty() ? "create"
                        : "update", fields, notes));
            }
        }
        problems.throwIfAny();

        for (String connection : new TreeMap<>(connections.all()).keySet()) {
            if (!declared.descriptions().containsKey(connection) && !descriptions.list(connection).isEmpty()) {
                leftOrPruned(ManagedObjects.DESCRIPTIONS, connection, owned, prune, deletes, notInDirectory);
            }
        }
        Set<String> exampleKeys = Set.copyOf(store.examples().names(ExampleDao.KEY));
        for (String name : storedKeys.keySet()) {
            if (!declared.keys().containsKey(name) && !exampleKeys.contains(name)) {
                leftOrPruned(ManagedObjects.API_KEYS, name, owned, prune, deletes, notInDirectory);
            }
        }
        for (String name : storedRoles.keySet()) {
            if (!declared.roles().containsKey(name)) {
                leftOrPruned(ManagedObjects.ROLES, name, owned, prune, deletes, notInDirectory);
            }
        }
        Set<String> exampleQueries = Set.copyOf(store.examples().names(ExampleDao.QUERY));
        for (String name : storedQueries.keySet()) {
            if (!declared.queries().containsKey(name) && !exampleQueries.contains(name)) {
                leftOrPruned(ManagedObjects.QUERIES, name, owned, prune, deletes, notInDirectory);
            }
        }
        for (String name : storedConnections.keySet()) {
            if (!declared.connections().containsKey(name) && !connections.isConfigured(name)) {
                leftOrPruned(ManagedObjects.CONNECTIONS, name, owned, prune, deletes, notInDirectory);
            }
        }
        changes.addAll(deletes);
        return new Plan(changes, unchanged, notInDirectory);
    }

    private static void leftOrPruned(String kind, String name, Map<String, ManagedRow> owned, boolean prune,
            List<Plan.Change> deletes, List<Plan.Ref> notInDirectory) {
        ManagedRow row = owned.get(kind + "/" + name);
        if (row != null && prune) {
            deletes.add(new Plan.Change(kind, name, row.file(), "delete", Map.of(),
                    List.of("no longer in the directory, which owned it (" + row.file() + "): --prune deletes it")));
        } else {
            notInDirectory.add(new Plan.Ref(kind, name, row == null ? null : row.file()));
        }
    }

    /** The fields that differ, each from the store's value to the directory's ({@code null}: absent). */
    private static Map<String, Plan.FieldChange> fields(ObjectNode have, ObjectNode want, Set<String> ignored) {
        Map<String, Plan.FieldChange> out = new LinkedHashMap<>();
        Set<String> names = new java.util.LinkedHashSet<>();
        want.fieldNames().forEachRemaining(names::add);
        if (have != null) {
            have.fieldNames().forEachRemaining(names::add);
        }
        for (String field : names) {
            JsonNode from = have == null ? null : have.get(field);
            JsonNode to = want.get(field);
            if (ignored.contains(field) || (from == null ? to == null : to != null
                    && from.equals(NUMBERS_BY_VALUE, to))) {
                continue;
            }
            out.put(field, new Plan.FieldChange(from, to));
        }
        return out;
    }

    // ---- applying

    private void execute(Plan.Change change, Declared declared, String actor, List<Runnable> afterCommit) {
        String name = change.name();
        if (change.kind().equals(ManagedObjects.CONNECTIONS)) {
            if (change.action().equals("delete")) {
                stored.retire(name, "pruned by configuration as code (" + change.file() + ")", actor);
            } else {
                stored.write(declared.connections().get(name).declared().row());
            }
            return;
        }
        if (change.kind().equals(ManagedObjects.DESCRIPTIONS)) {
            DeclaredDescriptions d = declared.descriptions().get(name);
            Map<String, Descriptions.Item> stored = storedDescriptions(name);
            List<Descriptions.Item> items = new ArrayList<>();
            Iterable<String> labels = change.action().equals("delete") ? stored.keySet() : change.fields().keySet();
            for (String label : labels) {
                Descriptions.Item want = d == null ? null : d.items().get(label);
                if (want != null) {
                    items.add(want);
                } else {
                    Descriptions.Item was = stored.get(label);
                    items.add(new Descriptions.Item(was.schema(), was.table(), was.column(), null));
                }
            }
            descriptions.write(name, items, actor, Descriptions.Source.WRITTEN, true);
            return;
        }
        if (change.kind().equals(ManagedObjects.QUERIES)) {
            afterCommit.add(() -> cache.invalidateQuery(name));
            DeclaredQuery q = declared.queries().get(name);
            switch (change.action()) {
                case "create" -> queries.create(name, q.definition(), q.collection(), true);
                case "delete" -> queries.delete(name);
                default -> {
                    if (change.fields().keySet().stream().anyMatch(f -> !f.equals("collection"))) {
                        queries.addVersion(name, q.definition(), true);
                    }
                    if (change.fields().containsKey("collection")) {
                        queries.setCollection(name, q.collection() == null ? JSON.nullNode()
                                : JSON.textNode(q.collection()));
                    }
                }
            }
            return;
        }
        if (change.kind().equals(ManagedObjects.ROLES)) {
            afterCommit.add(() -> cache.invalidateRole(name));
            DeclaredRole r = declared.roles().get(name);
            switch (change.action()) {
                case "create" -> roles.create(Identity.DEFAULT_WORKSPACE, name, r.state(), actor);
                case "delete" -> roles.delete(Identity.DEFAULT_WORKSPACE, name, null);
                default -> roles.update(Identity.DEFAULT_WORKSPACE, name, null, read -> r.state(), actor);
            }
            return;
        }
        DeclaredKey k = declared.keys().get(name);
        store.keys().findByName(name).ifPresent(row -> afterCommit.add(() -> {
            cache.invalidateKey(row.keyHash());
            if (row.previousHash() != null) {
                cache.invalidateKey(row.previousHash());
            }
        }));
        switch (change.action()) {
            case "create" -> keys.createWithHash(name, k.secretSha256(), k.state());
            case "delete" -> keys.delete(name, null);
            default -> {
                if (change.fields().keySet().stream().anyMatch(f -> !f.equals("secret_sha256"))) {
                    keys.update(name, null, read -> k.state());
                }
                if (change.fields().containsKey("secret_sha256")) {
                    keys.setSecretHash(name, k.secretSha256(), ApiKeys.DEFAULT_GRACE_MINUTES);
                }
            }
        }
        if (k != null && k.secretSha256() != null) {
            afterCommit.add(() -> cache.invalidateKey(k.secretSha256()));
        }
    }

    /** Records what the directory owns now: every declared object, at its file; deleted ones are forgotten. */
    /** What an apply's audit entry records: each change's kind, name, action, file and the fields it changed. */
    private static Map<String, Object> applied(Declared declared, Plan plan, boolean prune) {
        List<Map<String, Object>> changes = new ArrayList<>();
        for (Plan.Change c : plan.changes()) {
            Map<String, Object> change = new java.util.TreeMap<>();
            change.put("kind", c.kind());
            change.put("name", c.name());
            change.put("action", c.action());
            change.put("file", c.file());
            change.put("fields", c.fields() == null ? List.of() : List.copyOf(new java.util.TreeSet<>(
                    c.fields().keySet())));
            changes.add(change);
        }
        Map<String, Object> entry = new java.util.TreeMap<>();
        entry.put("sha256", declared.sha256());
        entry.put("prune", prune);
        entry.put("changes", changes);
        return entry;
    }

    private void record(Declared declared, Plan plan, String actor) {
        long now = clock.millis();
        var dao = store.managed();
        for (Plan.Change c : plan.changes()) {
            if (c.action().equals("delete")) {
                dao.forget(c.kind(), c.name());
            }
        }
        for (DeclaredConnection c : declared.connections().values()) {
            dao.forget(ManagedObjects.CONNECTIONS, c.name());
            dao.insert(new ManagedRow(ManagedObjects.CONNECTIONS, c.name(), c.file().path(), c.file().sha256(), now,
                    actor));
        }
        for (DeclaredQuery q : declared.queries().values()) {
            dao.forget(ManagedObjects.QUERIES, q.name());
            dao.insert(new ManagedRow(ManagedObjects.QUERIES, q.name(), q.file().path(), q.file().sha256(), now,
                    actor));
        }
        for (DeclaredRole r : declared.roles().values()) {
            dao.forget(ManagedObjects.ROLES, r.name());
            dao.insert(new ManagedRow(ManagedObjects.ROLES, r.name(), r.file().path(), r.file().sha256(), now, actor));
        }
        for (DeclaredKey k : declared.keys().values()) {
            dao.forget(ManagedObjects.API_KEYS, k.name());
            dao.insert(new ManagedRow(ManagedObjects.API_KEYS, k.name(), k.file().path(), k.file().sha256(), now,
                    actor));
        }
        for (DeclaredDescriptions d : declared.descriptions().values()) {
            dao.forget(ManagedObjects.DESCRIPTIONS, d.name());
            dao.insert(new ManagedRow(ManagedObjects.DESCRIPTIONS, d.name(), d.file().path(), d.file().sha256(), now,
                    actor));
        }
    }

    private Map<String, ManagedRow> owned() {
        Map<String, ManagedRow> out = new LinkedHashMap<>();
        store.managed().list().forEach(r -> out.put(r.kind() + "/" + r.name(), r));
        return out;
    }

    private static boolean ownedBy(Map<String, ManagedRow> owned, String kind, String name, ConfigFile file) {
        ManagedRow row = owned.get(kind + "/" + name);
        return row != null && row.file().equals(file.path()) && row.contentSha256().equals(file.sha256());
    }

    // ---- shapes: an object's fields as a file writes them, from a file or from the store, so that they compare

    private ObjectNode shape(Definition d, String collection) {
        ObjectNode o = JSON.objectNode();
        o.put("connection_name", d.connection());
        if (collection != null) {
            o.put("collection", collection);
        }
        if (d.description() != null) {
            o.put("description", d.description());
        }
        if (d.author() != null) {
            o.put("author", d.author());
        }
        if (!d.tags().isEmpty()) {
            d.tags().forEach(o.putArray("tags")::add);
        }
        if (d.cacheTtl() != 0) {
            o.put("cache_ttl", d.cacheTtl());
        }
        details(o, d.details());
        if (d.parameters() != null && d.parameters().isObject() && !d.parameters().isEmpty()) {
            o.set("parameters", d.parameters());
        }
        statement(o, d.sql(), d.details());
        return o;
    }

    /** The published version's shape, or null when none is published. */
    private ObjectNode storedShape(SavedQueryRow q, List<QueryVersionRow> versions) {
        if (q.publishedVersion() == null) {
            return null;
        }
        QueryVersionRow v = versions.stream().filter(r -> r.version() == q.publishedVersion()).findFirst()
                .orElse(null);
        if (v == null) {
            return null;
        }
        ObjectNode o = JSON.objectNode();
        o.put("connection_name", v.connectionName());
        if (q.collection() != null) {
            o.put("collection", q.collection());
        }
        if (v.description() != null) {
            o.put("description", v.description());
        }
        if (v.author() != null) {
            o.put("author", v.author());
        }
        List<String> tags = queries.tags(v);
        if (!tags.isEmpty()) {
            tags.forEach(o.putArray("tags")::add);
        }
        if (v.cacheTtl() != 0) {
            o.put("cache_ttl", v.cacheTtl());
        }
        details(o, queries.details(v));
        JsonNode parameters = queries.parameters(v);
        if (parameters != null && parameters.isObject() && !parameters.isEmpty()) {
            o.set("parameters", parameters);
        }
        statement(o, v.sqlText(), queries.details(v));
        return o;
    }

    /** The statement as a file gives it: {@code sql}, or a MongoDB query's {@code query_type} and its fields. */
    private static void statement(ObjectNode o, String text, ObjectNode details) {
        if (MongoStatements.isSaved(details)) {
            o.put("query_type", "mongo");
            o.setAll(MongoStatements.savedFields(text));
        } else {
            o.put("sql", text);
        }
    }

    private static void details(ObjectNode o, ObjectNode details) {
        if (details == null) {
            return;
        }
        JsonNode columns = details.get("columns");
        if (columns != null && columns.isObject() && !columns.isEmpty()) {
            o.set("columns", columns);
        }
        JsonNode mcp = details.get("mcp");
        if (mcp != null && mcp.isBoolean() && !mcp.booleanValue()) {
            o.put("mcp", false);
        }
        String agentWrites = Definitions.agentWriteMode(details);
        if (agentWrites != null) {
            o.put("agent_writes", agentWrites);
            o.put("max_affected_rows", Definitions.maxAffectedRows(details));
        }
    }

    private ApiKeys.State stateOf(ApiKeyRow row) {
        return keys.state(row);
    }

    /** A role as a file writes it: its description, and its grants as a key's are written. */
    private ObjectNode roleShape(Roles.State state) {
        ObjectNode o = JSON.objectNode();
        if (state.description() != null) {
            o.put("description", state.description());
        }
        o.setAll(keyShape(new ApiKeys.State(state.grants(), null, true)));
        return o;
    }

    /** A key's grants as a file writes them: the API's defaults left out, but its reach always written. */
    private ObjectNode keyShape(ApiKeys.State state) {
        ObjectNode grants = mapper.valueToTree(state.grants());
        ObjectNode o = JSON.objectNode();
        grants.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            boolean isDefault = v.isNull() || (v.isBoolean() && !v.booleanValue())
                    || (v.isArray() && v.isEmpty() && !e.getKey().equals("allowed_tables")
                    && !e.getKey().equals("allowed_ips") && !e.getKey().equals("allowed_write_ops"));
            if (ALWAYS_WRITTEN.contains(e.getKey()) && v.isArray() && v.size() == 1 && v.get(0).asText().equals("*")) {
                o.put(e.getKey(), "*");
            } else if (ALWAYS_WRITTEN.contains(e.getKey()) || !isDefault) {
                o.set(e.getKey(), v.isBigDecimal() ? JSON.numberNode(plain(v.decimalValue())) : v);
            }
        });
        if (state.expiresAt() != null) {
            o.put("expires_at", state.expiresAt());
        }
        if (!state.active()) {
            o.put("active", false);
        }
        if (state.role() != null) {
            o.put("role", state.role());
        }
        if (!state.claims().isEmpty()) {
            o.set("claims", mapper.valueToTree(state.claims()));
        }
        return o;
    }

    private static BigDecimal plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    private static String yaml(ObjectNode o) {
        try {
            return YAML.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
