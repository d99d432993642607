package io.queryapigate.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import io.queryapigate.events.EventLog;
import io.queryapigate.http.ServerTime;
import io.queryapigate.limits.Quotas;
import io.queryapigate.listing.ListingParams;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.PrincipalDao;
import io.queryapigate.store.RunRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Run history as the Python original shows it: one saved query's runs ({@code run_history}: each version's newest
 * runs) and every call ({@code GET /api/v1/history}: the event log, ad-hoc SQL included, for its retention period),
 * newest first, paged by an opaque cursor, each run as the original writes it ({@code status: success|error},
 * {@code key_name}, {@code kind}, {@code transport}, server-time {@code executed_at}). The runs still queued in this
 * process are written before every read, so a caller always sees its own.
 */
public final class RunHistory {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int MAX_PAGE = 1000;
    private static final char CURSOR = 'r';

    private final Store store;
    private final AuditLog audit;
    private final EventLog events;
    private final Quotas quotas;
    private final People people;

    public RunHistory(Store store, EventLog events, Quotas quotas, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.events = events;
        this.quotas = quotas;
        this.people = new People(store.jdbi().onDemand(PrincipalDao.class),
                store.jdbi().onDemand(AdministratorDao.class), System::currentTimeMillis);
    }

    /** The filters of a history page, as the query string gave them (null or empty: absent). */
    public record Request(String query, String version, String status, String key, String since, String until,
            String limit, String cursor, String kind) {}

    /** One saved query's runs; {@code limit} defaults to 50. */
    public ObjectNode ofQuery(SavedQueryRow q, Request r) {
        HistoryDao.Filter filter = filter(r, q.id(), 50);
        if (filter == null) {
            return page(List.of(), 1, Map.of(q.id(), q.name()));
        }
        events.flushAll();
        List<RunRow> rows = store.history().runs(filter);
        return page(rows, filter.limit() - 1, Map.of(q.id(), q.name()));
    }

    /** Every call, saved-query runs and ad-hoc SQL; filters {@code query} and {@code kind} too; 100 by default. */
    public ObjectNode ofEverything(Request r) {
        Long queryId = null;
        Map<Long, String> names = new HashMap<>();
        for (SavedQueryRow q : store.queries().list()) {
            if (!Scope.owns(q.workspace())) {
                continue;
            }
            names.put(q.id(), q.name());
            if (q.name().equals(r.query())) {
                queryId = q.id();
            }
        }
        String kind = ListingParams.blank(r.kind()) ? null : r.kind();
        if (kind != null && !kind.equals("saved") && !kind.equals("adhoc")) {
            throw ListingParams.invalid("kind", "kind must be 'saved' or 'adhoc'");
        }
        HistoryDao.Filter filter = filter(r, queryId, 100);
        if (filter == null || (!ListingParams.blank(r.query()) && queryId == null)) {
            return page(List.of(), 1, names);
        }
        filter = new HistoryDao.Filter(filter.queryId(), filter.version(), filter.outcome(), filter.status(),
                filter.keyId(), kind, filter.since(), filter.until(), filter.before(), filter.limit());
        events.flushAll();
        return page(store.history().events(filter, Scope.current()), filter.limit() - 1, names);
    }

    /**
     * Each call as {@code GET /api/v1/history} writes it (query, key and people's names resolved), in the rows' order:
     * the live stream's events, for a batch of any workspace's calls.
     */
    public List<ObjectNode> items(List<RunRow> rows) {
        Map<Long, String> names = new HashMap<>();
        for (SavedQueryRow q : store.queries().list()) {
            names.put(q.id(), q.name());
        }
        List<ObjectNode> out = new java.util.ArrayList<>(rows.size());
        page(rows, rows.size(), names).get("items").forEach(item -> out.add((ObjectNode) item));
        return out;
    }

    /**
     * Deletes every run and event of one caller (a key's name; {@code admin} for the administrator key), or counts
     * them ({@code dryRun}): {@code {"runs", "events", "usage_periods"}}, its quota counts forgotten too.
     */
    public ObjectNode forget(String caller, boolean dryRun) {
        if (ListingParams.blank(caller)) {
            throw new ApiException(400, "invalid_body", "Name the caller to forget: a key, or jwt:<subject>",
                    Map.of("caller", "is required"));
        }
        Long keyId = keyId(caller.strip());
        events.flushAll();
        if (dryRun) {
            return keyId == null ? counts(0, 0, 0) : counts(store.history().countRunsOfKey(keyId),
                    store.history().countEventsOfKey(keyId), quotas.periodsOf(keyId));
        }
        int periods = keyId == null ? 0 : quotas.forget(keyId);
        return audit.inTransaction(() -> {
            HistoryDao tx = store.history();
            long runs = keyId == null ? 0 : tx.deleteRunsOfKey(keyId);
            long calls = keyId == null ? 0 : tx.deleteEventsOfKey(keyId);
            Map<String, Object> forgotten = new java.util.TreeMap<>();
            // the caller by its hash, never its name: forgetting them is the point
            forgotten.put("caller_sha256", java.util.HexFormat.of().formatHex(sha256(caller.strip())));
            forgotten.put("runs", runs);
            forgotten.put("events", calls);
            forgotten.put("usage_periods", periods);
            audit.append("forget_caller", "history", forgotten);
            return counts(runs, calls, periods);
        });
    }

    private static ObjectNode counts(long runs, long calls, int periods) {
        return JSON.objectNode().put("runs", runs).put("events", calls).put("usage_periods", periods);
    }

    private static byte[] sha256(String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The filter a request asks for, or null when it names a key that does not exist (an empty page). */
    private HistoryDao.Filter filter(Request r, Long queryId, int defaultLimit) {
        int size = ListingParams.limit(r.limit(), defaultLimit, MAX_PAGE);
        Integer version = ListingParams.integer(r.version(), "version");
        String outcome = null;
        Integer status = null;
        if (!ListingParams.blank(r.status())) {
            if (r.status().equals("success") || r.status().equals("error")) {
                outcome = r.status();
            } else if (r.status().matches("[1-5][0-9][0-9]")) {
                status = Integer.parseInt(r.status());
            } else {
                throw ListingParams.invalid("status", "status must be 'success' or 'error'");
            }
        }
        long since = ListingParams.bound(r.since(), "since", 0);
        long until = ListingParams.bound(r.until(), "until", Long.MAX_VALUE);
        long before = ListingParams.cursor(CURSOR, r.cursor());
        Long keyId = null;
        if (!ListingParams.blank(r.key())) {
            keyId = keyId(r.key());
            if (keyId == null) {
                return null;
            }
        }
        return new HistoryDao.Filter(queryId, version, outcome, status, keyId, null, since, until, before, size + 1);
    }

    private ObjectNode page(List<RunRow> rows, int size, Map<Long, String> queryNames) {
        Map<Long, String> keyNames = keyNames();
        List<Long> others = new java.util.ArrayList<>();
        for (int i = 0; i < Math.min(size, rows.size()); i++) {
            if (rows.get(i).keyId() < Caller.NO_KEY_ID) {
                others.add(rows.get(i).keyId());
            }
        }
        Map<Long, People.Person> persons = others.isEmpty() ? Map.of() : people.of(others);
        ObjectNode out = JSON.objectNode();
        ArrayNode items = out.putArray("items");
        for (int i = 0; i < Math.min(size, rows.size()); i++) {
            RunRow row = rows.get(i);
            People.Person person = persons.get(row.keyId());
            ObjectNode item = item(row, queryNames::get, person != null ? id -> person.name() : keyNames::get);
            if (person != null && person.issuer() != null) {
                item.put("issuer", person.issuer());
            }
            if (row.role() != null && row.keyId() != Caller.ADMIN_KEY_ID) { // the key "admin" is always owner
                item.put("role", row.role());
            }
            items.add(item);
        }
        if (rows.size() > size) {
            out.put("next_cursor", ListingParams.nextCursor(CURSOR, rows.get(size - 1).id()));
        } else {
            out.putNull("next_cursor");
        }
        return out;
    }

    /** One run, in the original's order of fields; {@code http_status} and {@code sql_hash} are this gateway's. */
    static ObjectNode item(RunRow r, Function<Long, String> queryName, Function<Long, String> keyName) {
        ObjectNode o = JSON.objectNode();
        o.put("query", r.queryId() == null ? null : queryName.apply(r.queryId()));
        if (r.version() == null) {
            o.putNull("version");
        } else {
            o.put("version", r.version());
        }
        o.put("kind", r.adHoc() ? "adhoc" : "saved");
        o.put("executed_at", ServerTime.format(r.atMs()));
        o.put("connection_name", r.connection());
        o.put("request_id", r.requestId());
        o.put("key_name", keyName.apply(r.keyId()));
        o.put("transport", r.transport() == null ? "rest" : r.transport());
        o.put("status", r.succeeded() ? "success" : "error");
        if (r.succeeded()) {
            o.put("rows", r.rowsOut());
        }
        o.put("duration_ms", Math.round(r.durationUs() / 100.0) / 10.0);
        if (r.errorCode() != null) {
            o.put("code", r.errorCode());
        }
        o.put("http_status", r.status());
        if (r.adHoc()) {
            o.put("sql_hash", HexFormat.of().toHexDigits(r.sqlHash()));
        }
        if (r.traceId() != null) {
            o.put("trace_id", r.traceId());
        }
        return o;
    }

    /** Each caller's name by key id: a key's, the administrator key's, a signed-in person's or administrator's. */
    Map<Long, String> callerNames(java.util.Collection<Long> keyIds) {
        Map<Long, String> names = keyNames();
        List<Long> others = keyIds.stream().filter(id -> id < Caller.NO_KEY_ID).toList();
        if (!others.isEmpty()) {
            people.of(others).forEach((id, person) -> names.put(id, person.name()));
        }
        return names;
    }

    /** Key names by id: the administrator key's is {@code admin}. */
    private Map<Long, String> keyNames() {
        Map<Long, String> names = new HashMap<>();
        names.put(Caller.ADMIN_KEY_ID, "admin");
        for (ApiKeyRow k : store.keys().list()) {
            names.put(k.id(), k.name());
        }
        return names;
    }

    private Long keyId(String name) {
        if (name.equals("admin")) {
            return Caller.ADMIN_KEY_ID;
        }
        Optional<Long> key = store.keys().findByName(name).filter(k -> Scope.owns(k.workspace())).map(ApiKeyRow::id);
        return key.isPresent() ? key.get() : people.keyIdOf(name);
    }
}
