package io.queryapigate.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.events.EventLog;
import io.queryapigate.http.ServerTime;
import io.queryapigate.listing.ListingParams;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.RunRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import io.queryapigate.store.WriteRequestDao;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * {@code GET /api/v1/usage/agents}: what each AI agent (a key, or a signed-in person) did through the MCP server in a
 * window, worked out from the event log's calls with {@code transport = 'mcp'}: nothing more is recorded per call.
 * Per agent, as the Python original's usage.py: calls, rows, errors and refusals by code, first and last seen, the
 * connections used, the saved queries run (counted), the ad-hoc calls and their most frequent statements. The event
 * log keeps an ad-hoc statement's hash, never its text, so a statement is shown by that hash ({@code sql_hash}, as the
 * history shows it). At most {@value #MAX_SCAN} calls are read for one summary, newest first; past it the answer says
 * {@code truncated}.
 */
public final class AgentUsage {
    /** Calls read for one summary, newest first, as the original's MAX_SCAN. */
    public static final int MAX_SCAN = 100_000;
    static final int TOP_STATEMENTS = 5;
    static final int MAX_HOURS = 24 * 366;
    /** Write requests by how they ended, as the original counts them. */
    static final List<String> WRITE_OUTCOMES = List.of("pending", "approved", "done", "failed", "rejected",
            "expired");
    private static final long HOUR_MS = 3_600_000L;
    private static final long DEFAULT_WINDOW_MS = 24 * HOUR_MS;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Store store;
    private final EventLog events;
    private final RunHistory history;
    private final LongSupplier clock;
    private final int maxScan;

    public AgentUsage(Store store, EventLog events, RunHistory history, LongSupplier clock) {
        this(store, events, history, clock, MAX_SCAN);
    }

    /** With a smaller scan bound ({@code maxScan}), for tests of the bound itself. */
    AgentUsage(Store store, EventLog events, RunHistory history, LongSupplier clock, int maxScan) {
        this.store = store;
        this.events = events;
        this.history = history;
        this.clock = clock;
        this.maxScan = maxScan;
    }

    /**
     * The summary of the MCP calls in {@code [since, until)} of the caller's workspace, or of the last {@code hours}
     * (by the server's clock); by default the last 24 hours. A bad value is 400 {@code invalid_filter} naming it.
     */
    public ObjectNode agents(String since, String until, String hours) {
        long now = clock.getAsLong();
        Window w = window(since, until, hours, now, DEFAULT_WINDOW_MS);
        long from = w.from();
        long to = w.to();
        events.flushAll();
        List<RunRow> calls = new ArrayList<>();
        store.history().mcpCalls(from, to, Scope.current(), maxScan + 1, calls::add);
        boolean truncated = calls.size() > maxScan;
        if (truncated) {
            calls.removeLast();
        }
        ObjectNode out = JSON.objectNode();
        out.put("since", ServerTime.format(from));
        out.put("until", ServerTime.format(to));
        out.put("sample_rate", 1.0);
        out.put("truncated", truncated);
        ArrayNode items = out.putArray("items");
        List<WriteRequestDao.Outcome> writes = store.jdbi().onDemand(WriteRequestDao.class)
                .outcomes(Scope.current(), from, to);
        summarise(calls, writes, now).forEach(items::add);
        return out;
    }

    /** A window of calls, {@code [from, to)} in epoch milliseconds. */
    record Window(long from, long to) {}

    /**
     * The window a request asks for: {@code since}/{@code until}, or the last {@code hours} by the server's clock
     * ({@code now}), by default the last {@code defaultMs}; a bad or contradictory value is 400 {@code invalid_filter}
     * naming it.
     */
    static Window window(String since, String until, String hours, long now, long defaultMs) {
        if (!ListingParams.blank(hours) && !ListingParams.blank(since)) {
            throw ListingParams.invalid("hours", "Give since or hours, not both");
        }
        long window = ListingParams.blank(hours) ? defaultMs : hours(hours) * HOUR_MS;
        long from = ListingParams.bound(since, "since", now - window);
        long to = ListingParams.bound(until, "until", now + 1000);
        if (from >= to) {
            throw ListingParams.invalid("since", "since must be before until");
        }
        return new Window(from, to);
    }

    private static int hours(String text) {
        int hours;
        try {
            hours = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            hours = 0;
        }
        if (hours < 1 || hours > MAX_HOURS) {
            throw ListingParams.invalid("hours", "hours must be a whole number from 1 to " + MAX_HOURS);
        }
        return hours;
    }

    /** One agent's counts while the calls are read. */
    private static final class Agent {
        final String name;
        long calls;
        long rows;
        long errors;
        long firstSeen = Long.MAX_VALUE;
        long lastSeen = Long.MIN_VALUE;
        long adHocCalls;
        final TreeSet<String> connections = new TreeSet<>();
        final Map<String, Long> queries = new HashMap<>();
        final Map<String, Long> refusals = new HashMap<>();
        final Map<Long, Statement> statements = new HashMap<>();
        final Map<String, Long> writes = new LinkedHashMap<>();

        Agent(String name) {
            for (String outcome : WRITE_OUTCOMES) {
                writes.put(outcome, 0L);
            }
            this.name = name;
        }
    }

    /** One ad-hoc statement of an agent, by its hash. */
    private static final class Statement {
        final String hash;
        long count;
        long rows;
        long errors;

        Statement(long hash) {
            this.hash = HexFormat.of().toHexDigits(hash);
        }
    }

    /** One item per agent (one with write requests and no call too), busiest first (then by name). */
    private List<ObjectNode> summarise(List<RunRow> calls, List<WriteRequestDao.Outcome> writes, long now) {
        Set<Long> keyIds = new HashSet<>();
        calls.forEach(c -> keyIds.add(c.keyId()));
        writes.forEach(w -> keyIds.add(w.callerKeyId()));
        Map<Long, String> callers = history.callerNames(keyIds);
        Map<Long, String> queryNames = new HashMap<>();
        for (SavedQueryRow q : store.queries().list()) {
            queryNames.put(q.id(), q.name());
        }
        Map<String, Agent> agents = new LinkedHashMap<>();
        for (RunRow call : calls) {
            String name = callers.getOrDefault(call.keyId(), "-");
            Agent agent = agents.computeIfAbsent(name == null ? "-" : name, Agent::new);
            long rows = call.succeeded() ? call.rowsOut() : 0;
            agent.calls++;
            agent.rows += rows;
            agent.firstSeen = Math.min(agent.firstSeen, call.atMs());
            agent.lastSeen = Math.max(agent.lastSeen, call.atMs());
            if (call.connection() != null) {
                agent.connections.add(call.connection());
            }
            if (!call.succeeded()) {
                agent.errors++;
                agent.refusals.merge(call.errorCode() == null ? "internal_error" : call.errorCode(), 1L, Long::sum);
            }
            if (call.adHoc()) {
                agent.adHocCalls++;
                Statement s = agent.statements.computeIfAbsent(call.sqlHash(), Statement::new);
                s.count++;
                s.rows += rows;
                s.errors += call.succeeded() ? 0 : 1;
            } else if (call.queryId() != null && queryNames.containsKey(call.queryId())) {
                agent.queries.merge(queryNames.get(call.queryId()), 1L, Long::sum);
            }
        }
        for (WriteRequestDao.Outcome w : writes) {
            String name = callers.get(w.callerKeyId());
            Agent agent = agents.computeIfAbsent(name == null ? "-" : name, Agent::new);
            agent.writes.merge(w.shown(now), 1L, Long::sum);
        }
        return agents.values().stream()
                .sorted(Comparator.comparingLong((Agent a) -> -a.calls).thenComparing(a -> a.name))
                .map(AgentUsage::item)
                .toList();
    }

    private static ObjectNode item(Agent a) {
        ObjectNode o = JSON.objectNode();
        o.put("agent", a.name);
        o.put("calls", a.calls);
        o.put("rows", a.rows);
        o.put("errors", a.errors);
        if (a.calls == 0) { // an agent that only asked to write
            o.putNull("first_seen");
            o.putNull("last_seen");
        } else {
            o.put("first_seen", ServerTime.format(a.firstSeen));
            o.put("last_seen", ServerTime.format(a.lastSeen));
        }
        ArrayNode connections = o.putArray("connections");
        a.connections.forEach(connections::add);
        o.set("queries", counted(a.queries));
        o.put("adhoc_calls", a.adHocCalls);
        o.set("refusals", counted(a.refusals));
        ObjectNode writes = o.putObject("writes");
        a.writes.forEach(writes::put);
        ArrayNode top = o.putArray("top_statements");
        a.statements.values().stream()
                .sorted(Comparator.comparingLong((Statement s) -> -s.count).thenComparing(s -> s.hash))
                .limit(TOP_STATEMENTS)
                .forEach(s -> top.addObject().putNull("sql").put("sql_hash", s.hash).put("count", s.count)
                        .put("rows", s.rows).put("errors", s.errors));
        return o;
    }

    /** Counts by name, most first (then by name), as an object in that order. */
    private static ObjectNode counted(Map<String, Long> counts) {
        ObjectNode o = JSON.objectNode();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> o.put(e.getKey(), e.getValue()));
        return o;
    }
}
