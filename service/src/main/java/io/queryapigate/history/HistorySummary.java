package io.queryapigate.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.events.EventLog;
import io.queryapigate.http.ServerTime;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.HistorySummaryDao;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code GET /api/v1/history/summary}: what the gateway answered in the workspace over a window (the last hour by
 * default), added up in the store from the event log: calls, errors, cache hits, ad-hoc calls, by status class, the
 * refusals of load shedding ({@code overloaded}) and of a database that was down ({@code database_unavailable}), p50
 * and p99 duration (nearest rank), and the five busiest saved queries. The Console's home shows it.
 */
public final class HistorySummary {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long HOUR_MS = 3_600_000L;
    private static final int BUSIEST = 5;

    private final Store store;
    private final HistorySummaryDao dao;
    private final EventLog events;
    private final LongSupplier clock;

    public HistorySummary(Store store, EventLog events, LongSupplier clock) {
        this.store = store;
        this.dao = store.jdbi().onDemand(HistorySummaryDao.class);
        this.events = events;
        this.clock = clock;
    }

    /**
     * The summary of the calls in {@code [since, until)}, or of the last {@code hours} (1 by default). A bad value is
     * 400 {@code invalid_filter} naming it.
     */
    public ObjectNode of(String since, String until, String hours) {
        AgentUsage.Window w = AgentUsage.window(since, until, hours, clock.getAsLong(), HOUR_MS);
        long from = w.from();
        long to = w.to();
        events.flushAll();
        String workspace = Scope.current();
        HistorySummaryDao.Totals t = dao.totals(from, to, workspace);
        ObjectNode out = JSON.objectNode();
        out.put("since", ServerTime.format(from));
        out.put("until", ServerTime.format(to));
        out.put("calls", t.calls());
        out.put("errors", t.errors());
        out.put("cache_hits", t.cacheHits());
        out.put("adhoc_calls", t.adhoc());
        out.put("rows", t.rowsOut());
        putMs(out, "p50_ms", percentile(from, to, workspace, t.calls(), 50));
        putMs(out, "p99_ms", percentile(from, to, workspace, t.calls(), 99));
        ObjectNode byStatus = out.putObject("by_status");
        byStatus.put("2xx", t.status2xx());
        byStatus.put("3xx", t.status3xx());
        byStatus.put("4xx", t.status4xx());
        byStatus.put("5xx", t.status5xx());
        out.put("overloaded", t.overloaded());
        out.put("database_unavailable", t.databaseUnavailable());
        Map<Long, String> names = new HashMap<>();
        for (SavedQueryRow q : store.queries().list()) {
            names.put(q.id(), q.name());
        }
        ArrayNode top = out.putArray("top_queries");
        for (HistorySummaryDao.QueryCalls q : dao.busiest(from, to, workspace, BUSIEST)) {
            ObjectNode o = top.addObject();
            o.put("query", names.get(q.queryId()));
            o.put("calls", q.calls());
            o.put("errors", q.errors());
            o.put("mean_ms", Math.round(q.durationUs() / 100.0) / 10.0);
        }
        return out;
    }

    /** The duration (microseconds) of the nearest-rank {@code p}th percentile of {@code n} calls; null for none. */
    private Long percentile(long from, long to, String workspace, long n, int p) {
        if (n == 0) {
            return null;
        }
        long rank = Math.max(0, (n * p + 99) / 100 - 1);
        return dao.durationAt(from, to, workspace, rank);
    }

    private static void putMs(ObjectNode out, String field, Long micros) {
        if (micros == null) {
            out.putNull(field);
        } else {
            out.put(field, Math.round(micros / 100.0) / 10.0);
        }
    }
}
