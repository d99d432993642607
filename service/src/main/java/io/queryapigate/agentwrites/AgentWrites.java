package io.queryapigate.agentwrites;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallAuthorizer;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.Guarding;
import io.queryapigate.http.ServerTime;
import io.queryapigate.queries.Definitions;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.WriteRequestDao;
import io.queryapigate.store.WriteRequestRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * AI agents' writes through saved queries marked {@code agent_writes} (docs/agent-writes.md), as the Python original's
 * agentwrites.py. The MCP server calls {@link #writable} to list a write tool and {@link #call} to run it:
 *
 * <ul>
 *   <li><b>approval</b>: the first call writes nothing; it records a write request (caller, query, version, the exact
 *       arguments and their SHA-256) and answers {@code approval_required}. A person with {@code writes.approve}
 *       approves or rejects it ({@link #decide}); the agent calls again with the same arguments and {@code approval}
 *       naming the request, and it runs once, claimed by a conditional update (approved to running), before it
 *       expires. A second call with the same approval gets the first one's result and writes nothing.</li>
 *   <li><b>insert</b>: a single INSERT runs at once; an {@code idempotency_key} used again within a day returns the
 *       first call's result.</li>
 * </ul>
 *
 * Either way it runs through {@link QueryService#runWrite}: the caller's grants and the guard as for any write, the
 * query's parameter rules, the event log and run history (transport {@code mcp}), in a transaction rolled back when it
 * changed more than the version's {@code max_affected_rows}.
 */
public final class AgentWrites {
    /** Every status a request can show; {@code expired} is a pending or approved one past its time. */
    public static final List<String> STATUSES = List.of("pending", "approved", "running", "done", "failed", "rejected",
            "expired");
    /** The most rows of a RETURNING clause an answer carries. */
    public static final int MAX_ROWS = 100;
    static final Duration KEEP = Duration.ofDays(30);
    static final Duration IDEMPOTENCY = Duration.ofDays(1);
    static final int MAX_PENDING_PER_CALLER = 100;
    private static final int MAX_REASON = 500;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Jdbi jdbi;
    private final AuditLog audit;
    private final QueryService queries;
    private final SavedQueryResolver resolver;
    private final CallAuthorizer authorizer = new CallAuthorizer();
    private final Guarding guarding;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final Duration approvalTtl;

    /**
     * @param jdbi the store
     * @param approvalTtl how long a request waits for a decision, and an approved one for its run
     */
    public AgentWrites(Jdbi jdbi, AuditLog audit, QueryService queries, SavedQueryResolver resolver,
            Guarding guarding, ObjectMapper mapper, Clock clock, Duration approvalTtl) {
        this.jdbi = jdbi;
        this.audit = audit;
        this.queries = queries;
        this.resolver = resolver;
        this.guarding = guarding;
        this.mapper = mapper;
        this.clock = clock;
        this.approvalTtl = approvalTtl;
    }

    /**
     * Whether this caller may write through this version over MCP: its author marked it, the caller may run the query
     * (a grant of it or of its connection), the server allows writes, the caller's grant allows this write (the guard, as for REST: {@code allow_writes}, {@code allowed_write_ops},
     * {@code allowed_tables}), and its connection's dialect can roll a write back above a ceiling.
     */
    public boolean writable(Caller caller, SavedQueryResolver.Resolved query) {
        if (mode(query) == null || !caller.canWrite(guarding.serverAllowsWrites())
                || !caller.canRunQuery(query.query().name(), query.version().connectionName())) {
            return false;
        }
        if (!query.connection().dialect().capabilities().contains(Capability.AFFECTED_ROWS_CEILING)) {
            return false;
        }
        try {
            return !guarding.check(caller, query.connection(), query.sql().jdbcSql()).isRead();
        } catch (ApiException e) {
            return false;
        }
    }

    /** As {@link #writable(Caller, SavedQueryResolver.Resolved)}, for the published version of {@code queryName}. */
    public boolean writable(Caller caller, String queryName) {
        try {
            return writable(caller, resolver.resolve(caller, queryName, null));
        } catch (ApiException e) {
            return false; // no such query, or none published
        }
    }

    /** The version's agent-write mode, or null when agents cannot write with it. */
    public String mode(SavedQueryResolver.Resolved query) {
        return Definitions.agentWriteMode(details(query));
    }

    /** The most rows one write through the version may change. */
    public int maxAffectedRows(SavedQueryResolver.Resolved query) {
        return Definitions.maxAffectedRows(details(query));
    }

    /**
     * A write tool's call: in approval mode without {@code approval}, a new request and {@code approval_required};
     * with it, the approved request run once ({@code done}); in insert mode, the INSERT at once. Refusals are
     * {@link ApiException}s with the original's codes.
     *
     * @param arguments the tool's arguments without {@code approval} and {@code idempotency_key} (a JSON object)
     * @param approval the request a person approved, or null
     * @param idempotencyKey an insert's idempotency key, or null
     * @return {@code {status, request, ...}} as the original's write tool answers
     */
    public ObjectNode call(Caller caller, String requestId, String queryName, JsonNode arguments, String approval,
            String idempotencyKey) {
        ObjectNode args = arguments == null || arguments.isNull() ? JSON.objectNode()
                : arguments.isObject() ? (ObjectNode) arguments
                : throwInvalid();
        authorizer.mayLookUp(caller, queryName);
        SavedQueryResolver.Resolved query = resolver.resolve(caller, queryName, null);
        authorizer.savedQueryConnection(caller, queryName, query.version().connectionName(), null);
        if (!writable(caller, query)) {
            throw ApiException.forbidden("read_only", "Over MCP, saved queries only read - this one writes, so it is"
                    + " not run here");
        }
        // the arguments must be ones the query's rules take before anything is recorded
        query.rules().resolve(Map.of(), args, QueryService.claims(caller));
        int version = query.version().version();
        String hash = argumentsHash(queryName, version, args);
        if ("insert".equals(mode(query))) {
            return insert(caller, requestId, query, args, hash, idempotencyKey);
        }
        if (approval == null || approval.isBlank()) {
            return ask(caller, query, args, hash);
        }
        WriteRequestRow claimed = claim(caller, approval, queryName, version, hash);
        if (!claimed.status().equals("running")) {
            return answer(claimed);
        }
        return execute(caller, requestId, query, claimed, args);
    }

    private static ObjectNode throwInvalid() {
        throw ApiException.badRequest("param_invalid", "The arguments must be a JSON object.");
    }

    /** What an approval is for: the query, its version and the exact arguments, as canonical JSON, SHA-256. */
    public static String argumentsHash(String queryName, int version, JsonNode arguments) {
        Map<String, Object> what = new TreeMap<>();
        what.put("query", queryName);
        what.put("version", version);
        what.put("values", canonical(arguments));
        return sha256(canonicalText(what));
    }

    private ObjectNode ask(Caller caller, SavedQueryResolver.Resolved query, ObjectNode args, String hash) {
        long now = clock.millis();
        String workspace = caller.workspace();
        WriteRequestDao dao = dao();
        int waiting = dao.pending(workspace, caller.keyId(), now);
        if (waiting >= MAX_PENDING_PER_CALLER) {
            throw new ApiException(429, "too_many_pending_writes", waiting + " writes asked for by this caller are"
                    + " already waiting for approval - wait for them to be decided or to expire");
        }
        WriteRequestRow row = newRow(caller, query, args, hash, "pending", now, null);
        jdbi.useTransaction(h -> {
            dao.forget(now - KEEP.toMillis());
            dao.insert(row);
        });
        String url = approvalUrl(row.id());
        ObjectNode out = JSON.objectNode();
        out.put("status", "approval_required");
        out.put("request", row.id());
        out.put("approve_at", url);
        out.put("expires_at", ServerTime.format(row.expiresAt()));
        out.put("message", "A person must approve this write before it runs. Ask them to open " + url + " - then call"
                + " this tool again with the same arguments and approval: \"" + row.id() + "\". It expires at "
                + ServerTime.format(row.expiresAt()) + ".");
        out.putArray("rows");
        out.put("truncated", false);
        return out;
    }

    /**
     * The approved request a second call names, claimed to run now (status {@code running}), or one that already
     * ran (answered from what it stored), or the reason it cannot run.
     */
    private WriteRequestRow claim(Caller caller, String id, String queryName, int version, String hash) {
        String workspace = caller.workspace();
        WriteRequestDao dao = dao();
        WriteRequestRow row = dao.find(workspace, id).orElse(null);
        if (row == null || row.callerKeyId() != caller.keyId() || !row.queryName().equals(queryName)) {
            throw ApiException.notFound("write_request_not_found", "No write request by that id for this caller and"
                    + " tool - call without `approval` to ask for one");
        }
        if (!row.argumentsHash().equals(hash) || row.version() != version) {
            throw ApiException.forbidden("approval_mismatch", "These arguments are not the ones approved - an"
                    + " approval is for exactly one write. Call without `approval` to ask for this one");
        }
        String status = status(row, clock.millis());
        switch (status) {
            case "done", "failed" -> {
                return row;
            }
            case "pending" -> throw new ApiException(409, "approval_pending", "Not approved yet - a person must"
                    + " approve it first: " + approvalUrl(id));
            case "rejected" -> throw ApiException.forbidden("approval_rejected", "Rejected by " + row.decidedBy()
                    + (row.reason() == null ? "" : ": " + row.reason()));
            case "expired" -> throw new ApiException(409, "approval_expired", "This approval has expired - call"
                    + " without `approval` to ask again");
            case "running" -> throw new ApiException(409, "write_running", "This write is running now");
            default -> {
                // approved: claimed below
            }
        }
        if (dao.claim(workspace, id, clock.millis()) != 1) {
            throw new ApiException(409, "write_running", "This write is running now");
        }
        return dao.find(workspace, id).orElseThrow();
    }

    private ObjectNode insert(Caller caller, String requestId, SavedQueryResolver.Resolved query, ObjectNode args,
            String hash, String idempotencyKey) {
        String keyHash = null;
        String workspace = caller.workspace();
        WriteRequestDao dao = dao();
        long now = clock.millis();
        if (idempotencyKey != null) {
            if (idempotencyKey.isEmpty() || idempotencyKey.length() > 200) {
                throw new ApiException(400, "param_invalid", "idempotency_key is text of 1 to 200 characters",
                        Map.of("idempotency_key", "is text of 1 to 200 characters"));
            }
            keyHash = sha256(canonicalText(List.of(caller.keyId(), query.query().name(), idempotencyKey)));
            dao.releaseIdempotencyKeys(now - IDEMPOTENCY.toMillis());
            WriteRequestRow earlier = dao.byIdempotency(workspace, keyHash).orElse(null);
            if (earlier != null) {
                return again(earlier, hash);
            }
        }
        WriteRequestRow row = newRow(caller, query, args, hash, "running", now, keyHash);
        try {
            jdbi.useTransaction(h -> {
                dao.forget(now - KEEP.toMillis());
                dao.insert(row);
            });
        } catch (UnableToExecuteStatementException e) {
            // the same key at the same moment: the other call inserts, this one answers with its request
            WriteRequestRow earlier = keyHash == null ? null : dao.byIdempotency(workspace, keyHash).orElse(null);
            if (earlier == null) {
                throw e;
            }
            return again(earlier, hash);
        }
        return execute(caller, requestId, query, row, args);
    }

    /** An idempotency key used again: the first call's answer, if the arguments are the same. */
    private ObjectNode again(WriteRequestRow earlier, String hash) {
        if (!earlier.argumentsHash().equals(hash)) {
            throw new ApiException(409, "idempotency_conflict", "This idempotency_key was used with other arguments"
                    + " - use a new one");
        }
        if (earlier.status().equals("running")) {
            throw new ApiException(409, "write_running", "This write is running now");
        }
        return answer(earlier);
    }

    /** Runs a claimed request through the call pipeline and stores how it ended. */
    private ObjectNode execute(Caller caller, String requestId, SavedQueryResolver.Resolved query,
            WriteRequestRow request, ObjectNode args) {
        CallRequest call = CallRequest.savedQuery(caller, requestId, query.query().name(),
                Integer.toString(request.version()), Map.of(), args, null, null, OutputRequest.JSON)
                .via(CallRequest.MCP);
        CallResult result;
        try {
            result = queries.runWrite(call, request.maxAffectedRows());
        } catch (ApiException e) {
            ObjectNode failure = JSON.objectNode();
            failure.put("error", e.getMessage());
            failure.put("code", e.code());
            failure.put("status", e.status());
            finish(request, "failed", failure);
            throw e;
        } catch (DialectException e) {
            // the database refused it: its class's status and code, as the REST answer gives them
            DialectErrors.Answer answer = DialectErrors.of(e.error());
            ObjectNode failure = JSON.objectNode();
            failure.put("error", answer.message());
            failure.put("code", answer.code());
            failure.put("status", answer.status());
            finish(request, "failed", failure);
            throw e;
        } catch (RuntimeException e) {
            ObjectNode failure = JSON.objectNode();
            failure.put("error", "This write failed");
            failure.put("code", "internal_error");
            failure.put("status", 500);
            finish(request, "failed", failure);
            throw e;
        }
        ObjectNode outcome = outcome(result);
        return answer(finish(request, "done", outcome));
    }

    /** {@code rows_affected}, {@code rows} (a RETURNING clause's, at most {@link #MAX_ROWS}) and {@code truncated}. */
    private ObjectNode outcome(CallResult result) {
        JsonNode body;
        try {
            body = mapper.readTree(result.body());
        } catch (IOException e) {
            throw new IllegalStateException("a write's JSON answer did not parse", e);
        }
        ObjectNode out = JSON.objectNode();
        ArrayNode rows = JSON.arrayNode();
        boolean truncated = result.truncated();
        JsonNode returned = body.isArray() ? body : body.path("rows").isArray() ? body.get("rows") : null;
        long affected;
        if (returned != null) {
            for (JsonNode r : returned) {
                if (rows.size() < MAX_ROWS) {
                    rows.add(r);
                } else {
                    truncated = true;
                }
            }
            affected = returned.size();
        } else {
            affected = body.path("rows_affected").asLong(0);
        }
        out.put("rows_affected", affected);
        out.set("rows", rows);
        out.put("truncated", truncated);
        return out;
    }

    private WriteRequestRow finish(WriteRequestRow request, String status, ObjectNode result) {
        WriteRequestDao dao = dao();
        dao.finish(request.workspace(), request.id(), status, clock.millis(), result.toString());
        return dao.find(request.workspace(), request.id()).orElseThrow();
    }

    /** The write tool's answer for a request that ran: done with what it changed, or its failure raised again. */
    private ObjectNode answer(WriteRequestRow request) {
        JsonNode result = parse(request.result());
        if (request.status().equals("failed")) {
            // what it failed with the first time, again: a retry never runs it twice
            throw new ApiException(result.path("status").asInt(409), result.path("code").asText("internal_error"),
                    result.path("error").asText("This write failed"));
        }
        ObjectNode out = JSON.objectNode();
        out.put("status", "done");
        out.put("request", request.id());
        out.put("rows_affected", result.path("rows_affected").asLong(0));
        out.set("rows", result.path("rows").isArray() ? result.get("rows") : JSON.arrayNode());
        out.put("truncated", result.path("truncated").asBoolean(false));
        return out;
    }

    // ---- the management API: /api/v1/write-requests

    /** The workspace's requests, newest first, filtered as the original filters them. */
    public List<ObjectNode> list(String status, String query, String caller, int limit) {
        if (status != null && !status.isEmpty() && !STATUSES.contains(status)) {
            throw new ApiException(400, "invalid_filter", "status must be one of: " + String.join(", ", STATUSES),
                    Map.of("status", "is not a status"));
        }
        long now = clock.millis();
        List<ObjectNode> out = new ArrayList<>();
        for (WriteRequestRow row : dao().list(Scope.current(), 1000)) {
            String shown = status(row, now);
            if ((status == null || status.isEmpty() || status.equals(shown))
                    && (query == null || query.equals(row.queryName()))
                    && (caller == null || caller.equals(row.caller()))) {
                out.add(view(row, now));
                if (out.size() >= limit) {
                    break;
                }
            }
        }
        return out;
    }

    /** One request of the workspace; another workspace's is not found. */
    public ObjectNode get(String id) {
        return view(find(id), clock.millis());
    }

    /**
     * Approves or rejects a pending request, with an audit entry in the same transaction (the arguments' names and
     * hash, never their values). An approval gives the agent the approval time again to run it. The caller that
     * asked for a write cannot decide it (four eyes).
     */
    public ObjectNode decide(Caller actor, String id, boolean approve, String reason) {
        if (reason != null && reason.length() > MAX_REASON) {
            throw new ApiException(400, "invalid_body", "reason is text of at most " + MAX_REASON + " characters",
                    Map.of("reason", "is at most " + MAX_REASON + " characters"));
        }
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        WriteRequestRow request = find(id);
        if (actor.keyId() == request.callerKeyId()) {
            throw ApiException.forbidden("own_write", "This write was asked for under your own name - another"
                    + " approver must decide it");
        }
        String status = status(request, clock.millis());
        if (!status.equals("pending")) {
            throw new ApiException(409, "write_request_closed", "This write request is " + status + " - only a"
                    + " pending one can be decided");
        }
        long now = clock.millis();
        String via = Acting.current().via();
        audit.inTransaction(() -> {
            int changed = dao().decide(request.workspace(), id, approve ? "approved" : "rejected",
                    now + approvalTtl.toMillis(), now, actor.name(), via, why);
            if (changed != 1) {
                throw new ApiException(409, "write_request_closed", "This write request was decided a moment ago");
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            changes.put("query", request.queryName());
            changes.put("caller", request.caller());
            changes.put("arguments", argumentNames(request));
            changes.put("arguments_hash", request.argumentsHash());
            if (why != null) {
                changes.put("reason", why);
            }
            audit.append(approve ? "approve_write" : "reject_write", id, changes);
        });
        return get(id);
    }

    private WriteRequestRow find(String id) {
        return dao().find(Scope.current(), id).orElseThrow(() -> ApiException.notFound("write_request_not_found",
                "No write request '" + id + "'"));
    }

    /** A request as the management API shows it (the original's WriteRequest). */
    private ObjectNode view(WriteRequestRow row, long now) {
        ObjectNode o = JSON.objectNode();
        o.put("id", row.id());
        o.put("query", row.queryName());
        o.put("version", row.version());
        o.put("caller", row.caller());
        o.put("status", status(row, now));
        o.put("created_at", ServerTime.format(row.createdAt()));
        o.put("expires_at", ServerTime.format(row.expiresAt()));
        o.put("mode", row.mode());
        o.put("connection", row.connectionName());
        o.put("sql", row.sqlText());
        o.set("arguments", parse(row.arguments()));
        o.put("max_affected_rows", row.maxAffectedRows());
        o.put("decided_by", row.decidedBy());
        o.put("decided_via", row.decidedVia());
        if (row.decidedAt() == null) {
            o.putNull("decided_at");
        } else {
            o.put("decided_at", ServerTime.format(row.decidedAt()));
        }
        o.put("reason", row.reason());
        o.set("result", row.result() == null ? JSON.nullNode() : parse(row.result()));
        return o;
    }

    /** The status as shown: a pending or approved request past its time is {@code expired}. */
    static String status(WriteRequestRow row, long now) {
        boolean open = row.status().equals("pending") || row.status().equals("approved");
        return open && row.expiresAt() < now ? "expired" : row.status();
    }

    private WriteRequestRow newRow(Caller caller, SavedQueryResolver.Resolved query, ObjectNode args, String hash,
            String status, long now, String idempotencyHash) {
        return new WriteRequestRow(newId(), caller.workspace(), caller.keyId(), caller.name(), query.query().id(),
                query.query().name(), query.version().version(), query.version().connectionName(), mode(query),
                query.version().sqlText(), canonicalText(canonical(args)), hash, maxAffectedRows(query), status, now,
                now + approvalTtl.toMillis(), null, null, null, null, null, null, idempotencyHash);
    }

    private static String approvalUrl(String id) {
        return "/console/approvals/" + id;
    }

    private ObjectNode details(SavedQueryResolver.Resolved query) {
        String details = query.version().details();
        if (details == null) {
            return null;
        }
        JsonNode node = parse(details);
        return node.isObject() ? (ObjectNode) node : null;
    }

    private List<String> argumentNames(WriteRequestRow row) {
        List<String> names = new ArrayList<>();
        parse(row.arguments()).fieldNames().forEachRemaining(names::add);
        return names;
    }

    private JsonNode parse(String text) {
        if (text == null) {
            return JSON.objectNode();
        }
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored write request's JSON did not parse", e);
        }
    }

    private WriteRequestDao dao() {
        return jdbi.onDemand(WriteRequestDao.class);
    }

    private static String newId() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return "wr_" + HexFormat.of().formatHex(bytes);
    }

    /** Objects' members sorted by name, at every depth: the same arguments are the same text. */
    static Object canonical(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> sorted = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), canonical(e.getValue()));
            }
            return sorted;
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>();
            node.forEach(n -> items.add(canonical(n)));
            return items;
        }
        return node;
    }

    private static final ObjectMapper CANONICAL = new ObjectMapper();

    private static String canonicalText(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
