package io.queryapigate.connections;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.ConnectionRegistry.InvalidConnection;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ETags;
import io.queryapigate.http.ServerTime;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.scope.Scope;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretResolver;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.store.ConnectionDao;
import io.queryapigate.store.ConnectionRow;
import io.queryapigate.store.Store;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Connections managed through {@code /api/v1/connections}: create, read, change, soft-delete and restore those the
 * store keeps, and list them beside the YAML's (read-only here, {@code managed_by: config}). Every change is checked
 * by the rules YAML connections pass ({@link ConnectionRegistry#open}: the same validator and the dialect's own
 * factory), written with a bump of the store's {@code connections} counter in one transaction, and live on this
 * instance when it answers (others follow within the metadata cache's TTL, {@link LiveConnections}). A password
 * never leaves: a literal is sealed ({@link SecretBox}) and answered as {@value #MASK}, a reference is kept as
 * text and answered as written.
 */
public final class Connections {
    /** What a stored password is answered as; sent back, it keeps the stored one. */
    public static final String MASK = "********";
    private static final Set<String> FIELDS = Set.of("name", "dialect", "url", "user", "password", "pool_size",
            "query_timeout", "properties", "allowed_functions", "description");
    /** Fields the server writes; ignored in a body, so a read answer may be sent back changed. */
    private static final Set<String> SERVER_FIELDS = Set.of("managed_by", "created_at", "created_by", "updated_at",
            "updated_by");
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    private static final int ATTEMPTS = 5;

    private final Store store;
    private final ConnectionDao dao;
    private final ManagedObjects managed;
    private final ConnectionRegistry registry;
    private final DialectRegistry dialects;
    private final ConnectionSettings settings;
    private final LiveConnections live;
    private final Validator validator;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final AuditLog audit;
    private volatile Consumer<String> purged = name -> {};

    public Connections(Store store, ConnectionRegistry registry, DialectRegistry dialects, SecretBox box,
            SecretResolver secrets, Validator validator, ObjectMapper mapper, Clock clock, Duration checkInterval,
            AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.dao = store.connections();
        this.managed = new ManagedObjects(store.managed());
        this.registry = registry;
        this.dialects = dialects;
        this.settings = new ConnectionSettings(registry, box, secrets, mapper);
        this.live = new LiveConnections(dao, registry, settings, checkInterval, clock);
        this.validator = validator;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * Calls {@code action} with a connection's name when a deleted connection is gone for good (a new one took its
     * name): what belongs to it by name (its descriptions) goes too.
     */
    public void whenPurged(Consumer<String> action) {
        this.purged = action;
    }

    /** What keeps this instance's pools in step with the store; managed by the application (started, stopped). */
    public LiveConnections live() {
        return live;
    }

    /** Every connection of the workspace this thread acts in, the YAML's (the default one's) and the stored ones. */
    public ArrayNode list() {
        Map<String, ObjectNode> byName = new TreeMap<>();
        for (ConnectionRow row : dao.live()) {
            if (Scope.owns(row.workspace())) {
                byName.put(row.name(), view(row));
            }
        }
        yaml().forEach((name, c) -> byName.put(name, view(name, c)));
        ArrayNode items = mapper.createArrayNode();
        byName.values().forEach(items::add);
        return items;
    }

    /** A connection as answered, with its ETag. */
    public record Answer(ObjectNode body, String etag) {}

    public Answer get(String name) {
        ConnectionConfig yaml = yaml().get(name);
        if (yaml != null) {
            ObjectNode v = view(name, yaml);
            return new Answer(v, etag(v, ""));
        }
        return answer(find(name));
    }

    /** Creates a connection; it is live on this instance when this returns. */
    public Answer create(JsonNode body, String actor) {
        JsonNode node = object(body);
        String name = node.path("name").isTextual() ? node.get("name").textValue() : null;
        if (name == null || !ConnectionRegistry.NAME.matcher(name).matches()) {
            String problem = "is 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit";
            throw new ApiException(400, "invalid_name", "A connection name " + problem + ".",
                    Map.of("name", problem));
        }
        taken(name);
        long now = clock.millis();
        ConnectionRow row = fields(node, new ConnectionRow(0, name, null, null, null, null, null, 8, null, "{}", "[]",
                null, now, actor, now, actor, null, null, null, Scope.current()));
        ConnectionSettings.Opened opened = openChecked(row);
        synchronized (live) {
            try {
                boolean replacedDeleted = store.jdbi().inTransaction(h -> {
                    ConnectionDao tx = h.attach(ConnectionDao.class);
                    Optional<ConnectionRow> existing = tx.findByName(name);
                    if (existing.isPresent() && !existing.get().deleted()) {
                        throw exists(name);
                    }
                    existing.ifPresent(old -> tx.purge(old.id())); // a deleted one's name is taken again
                    tx.insert(row);
                    tx.bumpVersion();
                    audit.append("create_connection", name, audited(row));
                    return existing.isPresent();
                });
                if (replacedDeleted) {
                    purged.accept(name);
                }
            } catch (RuntimeException e) {
                opened.connection().discard();
                throw e;
            }
            ConnectionRow stored = find(name);
            live.adopt(stored, opened);
            return answer(stored);
        }
    }

    /** Changes the fields the body has; absent ones are kept, null clears an optional one. */
    public Answer update(String name, String ifMatch, JsonNode body, String actor) {
        JsonNode node = object(body);
        writable(name);
        find(name);
        managed.check(ManagedObjects.CONNECTIONS, name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ConnectionRow read = find(name);
            checkMatch(read, ifMatch);
            if (node.has("name") && !name.equals(node.get("name").asText())) {
                throw fieldError("name", "cannot be changed (create a connection of the new name)");
            }
            ConnectionRow next = fields(node, read);
            next = touch(next, read, actor);
            boolean reopen = !ConnectionSettings.fingerprint(next).equals(ConnectionSettings.fingerprint(read));
            ConnectionSettings.Opened opened = reopen ? openChecked(next) : null;
            synchronized (live) {
                ConnectionRow write = next;
                int changed;
                try {
                    changed = store.jdbi().inTransaction(h -> {
                        ConnectionDao tx = h.attach(ConnectionDao.class);
                        int n = tx.update(write, read.updatedAt());
                        if (n == 1) {
                            tx.bumpVersion();
                            Map<String, Object> changes = AuditLog.diff(audited(read), audited(write));
                            if (!changes.isEmpty()) {
                                audit.append("update_connection", name, changes);
                            }
                        }
                        return n;
                    });
                } catch (RuntimeException e) {
                    discard(opened);
                    throw e;
                }
                if (changed == 1) {
                    ConnectionRow stored = find(name);
                    if (opened != null) {
                        live.adopt(stored, opened);
                    }
                    return answer(stored);
                }
                discard(opened);
            }
        }
        throw new ApiException(409, "conflict", "Connection '" + name + "' kept changing while this change was made;"
                + " try again");
    }

    /**
     * Soft-deletes a connection: a reason is required; refused while published saved queries run on it unless
     * {@code force} (they then answer 404 {@code connection_not_found}). Calls running on it finish first.
     */
    public void delete(String name, String ifMatch, String reason, boolean force, String actor) {
        writable(name);
        ConnectionRow read = find(name);
        managed.check(ManagedObjects.CONNECTIONS, name);
        checkMatch(read, ifMatch);
        if (reason == null || reason.isBlank()) {
            throw ApiException.badRequest("reason_required", "A reason is required to delete a connection");
        }
        List<String> using = dao.publishedQueriesOn(name);
        if (!using.isEmpty() && !force) {
            throw new ApiException(409, "connection_in_use", "Published saved queries run on connection '" + name
                    + "': " + String.join(", ", using) + ". Point them elsewhere, or delete with ?force=true (they"
                    + " then answer 404 connection_not_found).").with("queries", using);
        }
        long now = Math.max(clock.millis(), read.updatedAt() + 1);
        ConnectionRow deleted = new ConnectionRow(read.id(), read.name(), read.dialect(), read.url(),
                read.username(), read.passwordSealed(), read.passwordRef(), read.poolSize(), read.queryTimeoutMs(),
                read.properties(), read.allowedFunctions(), read.description(), read.createdAt(), read.createdBy(),
                now, actor, now, actor, reason.strip(), read.workspace());
        synchronized (live) {
            int changed = store.jdbi().inTransaction(h -> {
                ConnectionDao tx = h.attach(ConnectionDao.class);
                int n = tx.update(deleted, read.updatedAt());
                if (n == 1) {
                    tx.bumpVersion();
                    Map<String, Object> changes = audited(read);
                    changes.put("deleted_reason", reason.strip());
                    changes.put("force", force);
                    audit.append("delete_connection", name, changes);
                }
                return n;
            });
            if (changed != 1) {
                throw new ApiException(412, "precondition_failed", "This connection changed since you loaded it -"
                        + " reload it and try again");
            }
            live.sync();
        }
    }

    /**
     * A connection as its audit entries record it: a password only as set (its sealed value is turned into {@code
     * {"changed": true}} by the log), credentials in the URL and the values of properties named like secrets masked.
     */
    private Map<String, Object> audited(ConnectionRow row) {
        Map<String, Object> state = new java.util.TreeMap<>();
        state.put("dialect", row.dialect());
        state.put("url", row.url() == null ? null : row.url().replaceAll("//[^@/]*@", "//***@"));
        state.put("username", row.username());
        state.put("password", row.passwordSealed());
        state.put("password_ref", row.passwordRef());
        state.put("pool_size", row.poolSize());
        state.put("query_timeout_ms", row.queryTimeoutMs());
        state.put("allowed_functions", row.allowedFunctions());
        state.put("description", row.description());
        Map<String, Object> properties = new java.util.TreeMap<>();
        try {
            mapper.readTree(row.properties() == null ? "{}" : row.properties()).properties().forEach(p ->
                    properties.put(p.getKey(), p.getKey().toLowerCase(java.util.Locale.ROOT)
                            .matches(".*(pass|secret|token|key|credential).*") ? AuditLog.CHANGED
                            : p.getValue().asText()));
        } catch (java.io.IOException e) {
            properties.put("-", "unreadable");
        }
        state.put("properties", properties);
        return state;
    }

    /** Deleted connections, newest first. */
    public ArrayNode deleted() {
        ArrayNode items = mapper.createArrayNode();
        for (ConnectionRow row : dao.deleted().stream().filter(r -> Scope.owns(r.workspace())).toList()) {
            ObjectNode o = items.addObject();
            o.put("name", row.name());
            o.put("dialect", row.dialect());
            o.put("url", row.url());
            o.put("deleted_at", ServerTime.format(row.deletedAt()));
            o.put("deleted_by", row.deletedBy());
            o.put("reason", row.deletedReason());
        }
        return items;
    }

    /** Brings a deleted connection back, checked and opened again as it was. */
    public Answer restore(String name, String actor) {
        ConnectionRow read = dao.findByName(name).filter(r -> Scope.owns(r.workspace()))
                .orElseThrow(() ->
                ApiException.notFound("connection_not_found", "No deleted connection named '" + name + "'"));
        if (!read.deleted()) {
            throw exists(name); // nothing to restore: it is in service
        }
        managed.check(ManagedObjects.CONNECTIONS, name);
        if (registry.isConfigured(name) || registry.isAdded(name)) {
            throw exists(name);
        }
        ConnectionRow next = touch(new ConnectionRow(read.id(), read.name(), read.dialect(), read.url(),
                read.username(), read.passwordSealed(), read.passwordRef(), read.poolSize(), read.queryTimeoutMs(),
                read.properties(), read.allowedFunctions(), read.description(), read.createdAt(), read.createdBy(),
                read.updatedAt(), read.updatedBy(), null, null, null, read.workspace()), read, actor);
        ConnectionSettings.Opened opened = openChecked(next);
        synchronized (live) {
            int changed;
            try {
                changed = store.jdbi().inTransaction(h -> {
                    ConnectionDao tx = h.attach(ConnectionDao.class);
                    int n = tx.update(next, read.updatedAt());
                    if (n == 1) {
                        tx.bumpVersion();
                        audit.append("restore_connection", name, audited(next));
                    }
                    return n;
                });
            } catch (RuntimeException e) {
                opened.connection().discard();
                throw e;
            }
            if (changed != 1) {
                opened.connection().discard();
                throw new ApiException(409, "conflict", "Connection '" + name + "' changed meanwhile; try again");
            }
            ConnectionRow stored = find(name);
            live.adopt(stored, opened);
            return answer(stored);
        }
    }

    /**
     * Opens the connection the body describes (or the saved one it names) with one pooled session, runs its
     * dialect's health check and asks its server's version; nothing is saved, and it is closed after. 502 {@code
     * connection_failed} when it cannot be reached.
     */
    public ObjectNode test(JsonNode body) {
        long started = System.nanoTime();
        Probe probe = probe(body);
        try {
            long checking = System.nanoTime();
            probe.connection().dialect().checkHealth(PROBE_TIMEOUT);
            double latency = (System.nanoTime() - checking) / 1e6;
            Optional<String> version = probe.connection().dialect().serverVersion(PROBE_TIMEOUT);
            ObjectNode o = mapper.createObjectNode();
            o.put("ok", true);
            o.put("dialect", probe.connection().dialectName());
            o.put("server_version", version.orElse(null));
            o.put("latency_ms", Math.round(latency * 10) / 10.0);
            o.put("elapsed_ms", Math.round((System.nanoTime() - started) / 1e5) / 10.0);
            return o;
        } catch (DialectException e) {
            throw unreachable(e, probe.password());
        } finally {
            probe.connection().discard();
        }
    }

    /** The databases (or schemas, catalogs: the dialect says) the described or named connection can see. */
    public ObjectNode databases(JsonNode body) {
        Probe probe = probe(body);
        try {
            ObjectNode o = mapper.createObjectNode();
            o.set("databases", mapper.valueToTree(probe.connection().dialect().databases(PROBE_TIMEOUT)));
            return o;
        } catch (DialectException e) {
            throw unreachable(e, probe.password());
        } finally {
            probe.connection().discard();
        }
    }

    private record Probe(Connection connection, String password) {}

    private Probe probe(JsonNode body) {
        JsonNode node = object(body);
        String name = node.path("name").isTextual() ? node.get("name").textValue() : null;
        if (name != null && !node.hasNonNull("dialect")) { // a saved connection, by its name
            ConnectionConfig yaml = yaml().get(name);
            if (yaml != null) {
                return new Probe(open(name, ConnectionSettings.withPoolSize(yaml, 1)), yaml.getPassword());
            }
            ConnectionSettings.Resolved r = settings.resolve(find(name), 1);
            return new Probe(open(name, r.config()), r.config().getPassword());
        }
        String password = node.path("password").isTextual() ? node.get("password").textValue() : null;
        String probeName = name != null && ConnectionRegistry.NAME.matcher(name).matches() ? name : "probe";
        ConnectionRow base = new ConnectionRow(0, probeName, null, null, null, null, null, 1, null, "{}", "[]", null,
                0, null, 0, null, null, null, null, Scope.current());
        if (MASK.equals(password)) { // these fields with the saved connection's password
            ConnectionRow saved = name == null ? null
                    : dao.findByName(name).filter(r -> !r.deleted() && Scope.owns(r.workspace())).orElse(null);
            if (saved == null) {
                throw fieldError("password", "is the mask, but name names no saved connection to take it from");
            }
            base = withPassword(base, saved.passwordSealed(), saved.passwordRef());
        }
        ObjectNode fields = node.deepCopy();
        fields.remove("name");
        fields.remove("password");
        ConnectionRow row = fields(fields, base);
        boolean reference = password != null && settings.secrets().isReference(password);
        if (reference) {
            row = withPassword(row, null, password);
        }
        ConnectionSettings.Resolved r = settings.resolve(row, 1);
        if (password != null && !reference && !MASK.equals(password)) {
            r.config().setPassword(password); // a literal being tried: used once, never sealed nor stored
        }
        return new Probe(open(row.name(), r.config()), r.config().getPassword());
    }

    private Connection open(String name, ConnectionConfig config) {
        violations(config);
        try {
            return registry.open(name, config);
        } catch (InvalidConnection e) {
            throw invalid(e);
        }
    }

    private ApiException unreachable(DialectException e, String password) {
        String message = e.getMessage() == null ? e.error().name() : e.getMessage();
        if (password != null && !password.isEmpty()) {
            message = message.replace(password, MASK);
        }
        return new ApiException(502, "connection_failed", "Could not connect: " + message);
    }

    // ---- configuration as code: checked and opened first, written in the apply's transaction, in service after

    /**
     * A connection a configuration file declares, checked by the API's rules: its row as it would be stored, its
     * fields as a file writes them ({@link #declaredShape}), and whether it differs from the stored one.
     */
    public record Declared(ConnectionRow row, ObjectNode shape, boolean changed) {}

    /**
     * Reads a file's fields as a whole connection (absent fields take their defaults; the mask keeps the stored
     * password). A literal password is refused here, before anything is sealed: a file holds references only.
     *
     * @throws ApiException the API's refusal ({@code invalid_body} naming the fields, {@code managed_by_config})
     */
    public Declared declare(String name, JsonNode body, String actor) {
        JsonNode node = object(body);
        writable(name);
        JsonNode password = node.get("password");
        if (password != null && password.isTextual() && !MASK.equals(password.textValue())
                && !settings.secrets().isReference(password.textValue())) {
            throw fieldError("password", "is a literal: a configuration file never holds one - use a reference"
                    + " such as ${DB_PASSWORD} or ${file:/run/secrets/db}");
        }
        Optional<ConnectionRow> stored = dao.findByName(name).filter(r -> !r.deleted());
        if (stored.isPresent() && !Scope.owns(stored.get().workspace())) {
            throw exists(name);
        }
        long now = clock.millis();
        ConnectionRow base = new ConnectionRow(stored.map(ConnectionRow::id).orElse(0L), name, null, null, null,
                stored.map(ConnectionRow::passwordSealed).orElse(null),
                stored.map(ConnectionRow::passwordRef).orElse(null), 8, null, "{}", "[]", null,
                stored.map(ConnectionRow::createdAt).orElse(now), stored.map(ConnectionRow::createdBy).orElse(actor),
                stored.map(ConnectionRow::updatedAt).orElse(now), stored.map(ConnectionRow::updatedBy).orElse(actor),
                null, null, null, Scope.current());
        ObjectNode fields = node.deepCopy();
        if (!fields.has("password")) {
            fields.putNull("password");
        }
        ConnectionRow row = fields(fields, base);
        if (row.dialect() == null || row.url() == null) {
            throw fieldError(row.dialect() == null ? "dialect" : "url", "is required");
        }
        ObjectNode shape = declaredShape(row);
        boolean changed = stored.isEmpty() || !shape.equals(declaredShape(stored.get()))
                || !ConnectionSettings.fingerprint(row).equals(ConnectionSettings.fingerprint(stored.get()));
        return new Declared(stored.isPresent() ? touch(row, stored.get(), actor) : row, shape, changed);
    }

    /** The stored connections (not the YAML's) of the workspace this thread acts in, by name. */
    public Map<String, ConnectionRow> stored() {
        Map<String, ConnectionRow> out = new TreeMap<>();
        dao.live().stream().filter(r -> Scope.owns(r.workspace())).forEach(r -> out.put(r.name(), r));
        return out;
    }

    /**
     * A connection's fields as a configuration file writes them: the answer's, without the server's, the defaults
     * and the empty ones left out.
     */
    public ObjectNode declaredShape(ConnectionRow row) {
        ObjectNode v = view(row);
        SERVER_FIELDS.forEach(v::remove);
        v.remove("name");
        for (String f : List.copyOf(iterable(v.fieldNames()))) {
            JsonNode value = v.get(f);
            if (value.isNull() || (value.isContainerNode() && value.isEmpty())) {
                v.remove(f);
            }
        }
        return v;
    }

    private static List<String> iterable(Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    /** A declared connection opened by the YAML's rules, not in service: an apply checks its queries on it. */
    public static final class Staged {
        private final ConnectionSettings.Opened opened;

        private Staged(ConnectionSettings.Opened opened) {
            this.opened = opened;
        }

        public Connection connection() {
            return opened.connection();
        }
    }

    /** Opens a declared connection, checked as the API checks one; not in service until {@link #reconcile}. */
    public Staged stage(ConnectionRow row) {
        return new Staged(openChecked(row));
    }

    /**
     * Writes a declared connection in the caller's transaction (an apply's), with a bump of the counter; nothing is
     * put in service: {@link #reconcile} does, after the commit.
     */
    public void write(ConnectionRow row) {
        Optional<ConnectionRow> existing = dao.findByName(row.name());
        if (existing.isPresent() && !existing.get().deleted()) {
            if (dao.update(row, existing.get().updatedAt()) != 1) {
                throw new ApiException(409, "conflict", "Connection '" + row.name() + "' changed meanwhile");
            }
        } else {
            existing.ifPresent(old -> dao.purge(old.id()));
            dao.insert(row);
            if (existing.isPresent()) {
                purged.accept(row.name());
            }
        }
        dao.bumpVersion();
    }

    /**
     * Soft-deletes a connection in the caller's transaction (an apply's prune); refused (409 {@code
     * connection_in_use}) while published saved queries run on it, as the API without force.
     */
    public void retire(String name, String reason, String actor) {
        ConnectionRow read = find(name);
        List<String> using = dao.publishedQueriesOn(name);
        if (!using.isEmpty()) {
            throw new ApiException(409, "connection_in_use", "Published saved queries run on connection '" + name
                    + "': " + String.join(", ", using) + ". It is not deleted.").with("queries", using);
        }
        long now = Math.max(clock.millis(), read.updatedAt() + 1);
        dao.update(new ConnectionRow(read.id(), read.name(), read.dialect(), read.url(), read.username(),
                read.passwordSealed(), read.passwordRef(), read.poolSize(), read.queryTimeoutMs(), read.properties(),
                read.allowedFunctions(), read.description(), read.createdAt(), read.createdBy(), now, actor, now,
                actor, reason, read.workspace()), read.updatedAt());
        dao.bumpVersion();
    }

    /**
     * After an apply committed: the connections it opened go into service as stored ({@code opened}, by name),
     * the others it changed are reconciled from the store.
     */
    public void reconcile(Map<String, Staged> opened) {
        synchronized (live) {
            for (Map.Entry<String, Staged> e : opened.entrySet()) {
                Optional<ConnectionRow> row = dao.findByName(e.getKey()).filter(r -> !r.deleted());
                if (row.isEmpty() || registry.isConfigured(e.getKey()) || registry.isAdded(e.getKey())) {
                    e.getValue().connection().discard();
                } else {
                    live.adopt(row.get(), e.getValue().opened);
                }
            }
            live.sync();
        }
    }

    // ---- fields

    /**
     * The body's fields applied to {@code base}: absent ones kept, null clearing an optional one; a literal password
     * sealed (409 {@code secret_key_required} without a key), a reference kept as text, the mask keeping the stored
     * one.
     */
    private ConnectionRow fields(JsonNode node, ConnectionRow base) {
        Map<String, String> unknown = new LinkedHashMap<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f) && !SERVER_FIELDS.contains(f)) {
                unknown.put(f, "is not a known field");
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiException(400, "unknown_field", "Unknown field(s): " + String.join(", ", unknown.keySet())
                    + ".", unknown);
        }
        Map<String, String> errors = new LinkedHashMap<>();
        String dialect = text(node, "dialect", base.dialect(), false, errors);
        String url = text(node, "url", base.url(), false, errors);
        String user = text(node, "user", base.username(), true, errors);
        String description = text(node, "description", base.description(), true, errors);
        int poolSize = base.poolSize();
        if (node.has("pool_size")) {
            JsonNode v = node.get("pool_size");
            if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                errors.put("pool_size", "must be an integer between 1 and 1024");
            } else {
                poolSize = v.intValue();
            }
        }
        Long timeoutMs = base.queryTimeoutMs();
        if (node.has("query_timeout")) {
            JsonNode v = node.get("query_timeout");
            if (v.isNull()) {
                timeoutMs = null;
            } else {
                try {
                    timeoutMs = v.isNumber() ? Math.round(v.doubleValue() * 1000)
                            : io.dropwizard.util.Duration.parse(v.asText()).toMilliseconds();
                    if (timeoutMs <= 0) {
                        errors.put("query_timeout", "must be positive");
                    }
                } catch (IllegalArgumentException e) {
                    errors.put("query_timeout", "must be a duration such as \"30s\" or \"500ms\"");
                }
            }
        }
        String properties = base.properties();
        if (node.has("properties")) {
            JsonNode v = node.get("properties");
            Map<String, String> map = new LinkedHashMap<>();
            if (v.isNull()) {
                properties = "{}";
            } else if (!v.isObject()) {
                errors.put("properties", "must be an object of text values");
            } else {
                Map<String, String> stored = settings.properties(base);
                v.fields().forEachRemaining(e -> {
                    if (e.getValue().isNull()) {
                        return;
                    }
                    String text = e.getValue().isValueNode() ? e.getValue().asText() : null;
                    if (text == null) {
                        errors.put("properties." + e.getKey(), "must be text");
                    } else {
                        map.put(e.getKey(), MASK.equals(text) && stored.containsKey(e.getKey())
                                ? stored.get(e.getKey()) : text);
                    }
                });
                properties = settings.json(map);
            }
        }
        String allowed = base.allowedFunctions();
        if (node.has("allowed_functions")) {
            JsonNode v = node.get("allowed_functions");
            List<String> list = new ArrayList<>();
            if (v.isArray()) {
                v.forEach(e -> list.add(e.asText()));
                allowed = settings.json(list);
            } else if (v.isNull()) {
                allowed = "[]";
            } else {
                errors.put("allowed_functions", "must be a list of function names");
            }
        }
        String sealed = base.passwordSealed();
        String ref = base.passwordRef();
        if (node.has("password")) {
            JsonNode v = node.get("password");
            if (v.isNull()) {
                sealed = null;
                ref = null;
            } else if (!v.isTextual()) {
                errors.put("password", "must be text");
            } else if (MASK.equals(v.textValue())) {
                if (sealed == null && ref == null) {
                    errors.put("password", "is the mask, but no password is stored to keep");
                }
            } else if (settings.secrets().isReference(v.textValue())) {
                try {
                    settings.secrets().check(base.name(), v.textValue());
                } catch (SecretUnavailableException e) {
                    errors.put("password", e.getMessage());
                }
                sealed = null;
                ref = v.textValue();
            } else {
                if (!settings.box().canSeal()) {
                    throw new ApiException(409, "secret_key_required", "A literal password is stored encrypted,"
                            + " and " + SecretBox.VARIABLE + " is not set on this server: set it (see"
                            + " docs/connections.md), or give a reference such as ${DB_PASSWORD}");
                }
                sealed = settings.box().seal(v.textValue(), ConnectionSettings.context(base.name()));
                ref = null;
            }
        }
        ConnectionRow row = new ConnectionRow(base.id(), base.name(), dialect, url, user, sealed, ref, poolSize,
                timeoutMs, properties, allowed, description, base.createdAt(), base.createdBy(), base.updatedAt(),
                base.updatedBy(), base.deletedAt(), base.deletedBy(), base.deletedReason(), base.workspace());
        ruleProblems(row).forEach(errors::putIfAbsent);
        if (!errors.isEmpty()) {
            throw invalidFields(errors);
        }
        return row;
    }

    /**
     * What the YAML's rules say about a row before it is opened, so that every bad field is named at once: the bean
     * validation of {@link ConnectionConfig} (secrets unresolved), an installed dialect, and a property its dialect
     * calls sensitive holding a literal (it would be stored in plain text: only a reference may).
     */
    private Map<String, String> ruleProblems(ConnectionRow row) {
        Map<String, String> errors = new TreeMap<>();
        ConnectionConfig unresolved = new ConnectionConfig();
        unresolved.setDialect(row.dialect());
        unresolved.setUrl(row.url());
        unresolved.setPoolSize(row.poolSize());
        unresolved.setAllowedFunctions(settings.allowedFunctions(row));
        for (ConstraintViolation<ConnectionConfig> v : validator.validate(unresolved)) {
            String path = v.getPropertyPath().toString();
            int cut = path.indexOf('[');
            errors.putIfAbsent(jsonField(cut < 0 ? path : path.substring(0, cut)), v.getMessage());
        }
        DialectFactory factory = row.dialect() == null ? null : dialects.factories().get(row.dialect());
        if (factory == null) {
            if (row.dialect() != null) {
                errors.putIfAbsent("dialect", "no dialect named '" + row.dialect() + "' is installed (available: "
                        + String.join(", ", new TreeSet<>(dialects.factories().keySet())) + ")");
            }
            return errors;
        }
        for (Map.Entry<String, String> p : settings.properties(row).entrySet()) {
            if (factory.sensitivePropertyNames().contains(p.getKey()) && p.getValue() != null
                    && !settings.secrets().isReference(p.getValue())) {
                errors.put("properties." + p.getKey(), "is a secret: give a reference such as ${VAR}, not the value");
            }
        }
        return errors;
    }

    private static String text(JsonNode node, String field, String base, boolean nullable,
            Map<String, String> errors) {
        if (!node.has(field)) {
            return base;
        }
        JsonNode v = node.get(field);
        if (v.isNull()) {
            if (!nullable) {
                errors.put(field, "is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            errors.put(field, "must be text");
            return base;
        }
        return v.textValue();
    }

    /** Checks the row by the YAML's rules and opens it (not registered). */
    private ConnectionSettings.Opened openChecked(ConnectionRow row) {
        ConnectionSettings.Resolved resolved = settings.resolve(row, 0);
        violations(resolved.config());
        try {
            return new ConnectionSettings.Opened(registry.open(row.name(), resolved.config()), resolved.refreshAt(),
                    resolved.secretDigest());
        } catch (InvalidConnection e) {
            throw invalid(e);
        }
    }

    /** The YAML's bean-validation rules ({@link ConnectionConfig}'s annotations), for a body. */
    private void violations(ConnectionConfig config) {
        Map<String, String> errors = new TreeMap<>();
        for (ConstraintViolation<ConnectionConfig> v : validator.validate(config)) {
            String path = v.getPropertyPath().toString();
            int cut = path.indexOf('[');
            errors.putIfAbsent(jsonField(cut < 0 ? path : path.substring(0, cut)), v.getMessage());
        }
        if (!errors.isEmpty()) {
            throw invalidFields(errors);
        }
    }

    private static ApiException invalid(InvalidConnection e) {
        String field = jsonField(e.field());
        if (field.equals("name")) {
            return new ApiException(400, "invalid_name", "A connection name " + e.problem() + ".",
                    Map.of("name", e.problem()));
        }
        return invalidFields(Map.of(field, e.problem()));
    }

    private static String jsonField(String yamlField) {
        return switch (yamlField) {
            case "poolSize" -> "pool_size";
            case "queryTimeout" -> "query_timeout";
            case "allowedFunctions" -> "allowed_functions";
            default -> yamlField;
        };
    }

    private static ApiException invalidFields(Map<String, String> errors) {
        StringBuilder text = new StringBuilder();
        errors.forEach((f, p) -> text.append(text.isEmpty() ? "" : "; ").append(f).append(' ').append(p));
        return new ApiException(400, "invalid_body", text + ".", Map.copyOf(errors));
    }

    private static ApiException fieldError(String field, String problem) {
        return invalidFields(Map.of(field, problem));
    }

    // ---- reading, answering

    /** A live stored connection of the workspace this thread acts in; another's is 404 as a missing one. */
    private ConnectionRow find(String name) {
        return dao.findByName(name).filter(r -> !r.deleted() && Scope.owns(r.workspace())).orElseThrow(() ->
                ApiException.notFound("connection_not_found", "Connection '" + name + "' not found"));
    }

    private void taken(String name) {
        if (registry.isConfigured(name) || registry.isAdded(name)
                || dao.findByName(name).filter(r -> !r.deleted()).isPresent()) {
            throw exists(name);
        }
    }

    /** The YAML's connections, as the workspace this thread acts in sees them: the default one's, else none. */
    private Map<String, ConnectionConfig> yaml() {
        return Scope.owns(Scope.DEFAULT) ? registry.configured() : Map.of();
    }

    private void writable(String name) {
        if (yaml().containsKey(name)) {
            throw new ApiException(409, "managed_by_config", "Connection '" + name + "' is declared in the"
                    + " configuration file: change it there").with("managed_by", "config");
        }
    }

    private static ApiException exists(String name) {
        return new ApiException(409, "connection_exists", "A connection named '" + name + "' already exists");
    }

    private ConnectionRow touch(ConnectionRow next, ConnectionRow read, String actor) {
        long now = Math.max(clock.millis(), read.updatedAt() + 1);
        return new ConnectionRow(next.id(), next.name(), next.dialect(), next.url(), next.username(),
                next.passwordSealed(), next.passwordRef(), next.poolSize(), next.queryTimeoutMs(), next.properties(),
                next.allowedFunctions(), next.description(), next.createdAt(), next.createdBy(), now, actor,
                next.deletedAt(), next.deletedBy(), next.deletedReason(), next.workspace());
    }

    private static ConnectionRow withPassword(ConnectionRow row, String sealed, String ref) {
        return new ConnectionRow(row.id(), row.name(), row.dialect(), row.url(), row.username(), sealed, ref,
                row.poolSize(), row.queryTimeoutMs(), row.properties(), row.allowedFunctions(), row.description(),
                row.createdAt(), row.createdBy(), row.updatedAt(), row.updatedBy(), row.deletedAt(), row.deletedBy(),
                row.deletedReason(), row.workspace());
    }

    private static void discard(ConnectionSettings.Opened opened) {
        if (opened != null) {
            opened.connection().discard();
        }
    }

    private static JsonNode object(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("invalid_body", "The request body must be a JSON object.");
        }
        return body;
    }

    private Answer answer(ConnectionRow row) {
        ObjectNode v = view(row);
        return new Answer(v, etag(v, row.passwordSealed() + "\u0000" + row.passwordRef()));
    }

    private void checkMatch(ConnectionRow row, String ifMatch) {
        if (!ETags.matches(ifMatch, etagOf(row))) {
            throw new ApiException(412, "precondition_failed", "This connection changed since you loaded it -"
                    + " reload it and try again");
        }
    }

    private ObjectNode view(ConnectionRow row) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", row.name());
        o.put("dialect", row.dialect());
        o.put("url", row.url());
        o.put("user", row.username());
        o.put("password", row.passwordRef() != null ? row.passwordRef() : row.passwordSealed() != null ? MASK : null);
        o.put("pool_size", row.poolSize());
        o.put("query_timeout", row.queryTimeoutMs() == null ? null : duration(row.queryTimeoutMs()));
        o.set("properties", properties(row.dialect(), settings.properties(row)));
        o.set("allowed_functions", mapper.valueToTree(settings.allowedFunctions(row)));
        o.put("description", row.description());
        o.put("managed_by", managed.owner(ManagedObjects.CONNECTIONS, row.name()).orElse("api"));
        o.put("created_at", ServerTime.format(row.createdAt()));
        o.put("created_by", row.createdBy());
        o.put("updated_at", ServerTime.format(row.updatedAt()));
        o.put("updated_by", row.updatedBy());
        return o;
    }

    private ObjectNode view(String name, ConnectionConfig c) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", name);
        o.put("dialect", c.getDialect());
        o.put("url", c.getUrl());
        o.put("user", c.getUser());
        o.put("password", c.getPassword() == null ? null : MASK); // the YAML's value, references substituted
        o.put("pool_size", c.getPoolSize());
        o.put("query_timeout", c.getQueryTimeout() == null ? null : duration(c.getQueryTimeout().toMilliseconds()));
        o.set("properties", properties(c.getDialect(), c.getProperties()));
        o.set("allowed_functions", mapper.valueToTree(c.getAllowedFunctions()));
        o.putNull("description");
        o.put("managed_by", "config");
        o.putNull("created_at");
        o.putNull("created_by");
        o.putNull("updated_at");
        o.putNull("updated_by");
        return o;
    }

    /** Properties as answered: a sensitive one's value masked unless it is a reference. */
    private ObjectNode properties(String dialect, Map<String, String> properties) {
        DialectFactory factory = dialect == null ? null : dialects.factories().get(dialect);
        Set<String> sensitive = factory == null ? Set.of() : factory.sensitivePropertyNames();
        ObjectNode o = mapper.createObjectNode();
        properties.forEach((k, v) -> o.put(k, sensitive.contains(k) && v != null
                && !settings.secrets().isReference(v) ? MASK : v));
        return o;
    }

    /** Milliseconds written as the YAML writes a duration: {@code 30s}, {@code 1500ms}. */
    static String duration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    private String etagOf(ConnectionRow row) {
        return etag(view(row), row.passwordSealed() + "\u0000" + row.passwordRef());
    }

    private static String etag(ObjectNode view, String secretState) {
        return ETags.of(view, secretState);
    }
}
