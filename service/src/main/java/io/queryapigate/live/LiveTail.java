package io.queryapigate.live;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.CapabilityFeature;
import io.queryapigate.errors.ApiException;
import io.queryapigate.history.RunHistory;
import io.queryapigate.store.EventBatchWriter;
import io.queryapigate.store.LiveDao;
import io.queryapigate.store.LiveRow;
import io.queryapigate.store.RunRow;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.glassfish.jersey.server.ChunkedOutput;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tail of the event log, one per instance, shared by every open {@code GET /events} stream of it: one thread
 * reads the calls every instance wrote to the store, renders each once, and hands it to the streams whose caller may
 * see it and whose filters pass it (never a store query per stream). On PostgreSQL it wakes on the {@code NOTIFY} a
 * committed batch sends, LISTENing on one connection of its own, and checks anyway every poll interval; on SQLite it
 * checks every poll interval.
 *
 * <p>It reads only up to a watermark below which every id is committed, so a stream never skips an event that
 * commits late: on PostgreSQL the batches of several instances take ids from one sequence and may commit out of id
 * order, so the reader takes the writers' lock ({@link EventBatchWriter#LIVE_LOCK}) exclusively for a moment, which
 * waits for every batch in flight, and reads the highest id then. On SQLite ids are handed out under the file's write
 * lock and committed in their order. A resume ({@code Last-Event-ID}) replays from the store up to where the tail
 * stood when the stream subscribed, and the live events follow it: nothing missed, nothing twice.
 */
public final class LiveTail implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(LiveTail.class);
    private static final int BATCH = 1_000;

    /** How often and how far: see docs/config-reference.md, {@code events.live.*}. */
    public record Settings(long pollMillis, long heartbeatMillis, long recheckMillis, int maxStreams, int queueSize) {}

    private final Jdbi jdbi;
    private final LiveDao dao;
    private final RunHistory history;
    private final ObjectMapper mapper;
    private final Settings settings;
    private final String url;
    private final String user;
    private final String password;
    private final boolean postgres;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    private final Counter delivered;
    private final Counter tailed;
    private final Counter slow;
    private long cursor;
    private volatile boolean running;
    private volatile Connection listening;
    private Thread thread;

    public LiveTail(Jdbi jdbi, String url, String user, String password, RunHistory history, ObjectMapper mapper,
            Settings settings, MetricRegistry metrics) {
        this.jdbi = jdbi;
        this.dao = jdbi.onDemand(LiveDao.class);
        this.url = url;
        this.user = user;
        this.password = password;
        this.history = history;
        this.mapper = mapper;
        this.settings = settings;
        this.postgres = url.startsWith("jdbc:postgresql:");
        this.delivered = metrics.counter("events.live.delivered");
        this.tailed = metrics.counter("events.live.tailed");
        this.slow = metrics.counter("events.live.slow_disconnects");
        metrics.gauge("events.live.streams", () -> subscribers::size);
    }

    @Override
    public void start() {
        synchronized (lock) {
            cursor = watermark();
        }
        running = true;
        thread = Thread.ofPlatform().name("qag-live-tail").daemon(true).start(this::loop);
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        closeListening();
        if (thread != null) {
            thread.interrupt();
            thread.join(10_000);
        }
        endStreams();
    }

    /**
     * A stream of the calls {@code caller} may see, narrowed by the original's filters, resuming after {@code
     * lastEventId} when not null: 403 for an administrator without a role in the workspace it acts in (as {@code GET
     * /api/v1/history}), 400 {@code invalid_filter} for a bad filter, 503 {@code too_many_streams} when
     * this instance holds as many as it may.
     *
     * @param named the request named its workspace ({@code /w/{workspace}/events})
     */
    public ChunkedOutput<byte[]> open(Caller caller, boolean named, String type, String kind, String query,
            String connection, String status, Long lastEventId, Recheck recheck) {
        if (caller.identity().administrator()) { // what GET /api/v1/history needs: a role in the workspace
            CapabilityFeature.check(caller, Capability.OBSERVE);
        }
        Filters filters = Filters.parse(type, kind, query, connection, status);
        if (!running || subscribers.size() >= settings.maxStreams()) {
            throw new ApiException(503, "too_many_streams",
                    "Too many open event streams on this server; try again shortly").retryAfter(5);
        }
        EventStream stream = new EventStream(this, subscribe(Audience.of(caller, named), filters), lastEventId,
                recheck, settings);
        Thread.ofVirtual().name("qag-events").start(stream);
        return stream.output();
    }

    /** Ends every open stream (the server is stopping: they would hold its graceful stop up). */
    public void endStreams() {
        subscribers.forEach(Subscriber::end);
    }

    /** How many streams are open on this instance. */
    public int streams() {
        return subscribers.size();
    }

    Subscriber subscribe(Audience audience, Filters filters) {
        Subscriber s = new Subscriber(audience, filters, settings.queueSize());
        synchronized (lock) {
            s.from = cursor;
            subscribers.add(s);
        }
        return s;
    }

    void unsubscribe(Subscriber s) {
        subscribers.remove(s);
        if (s.tooSlow()) {
            slow.inc();
        }
    }

    /** Hands {@code out} the events after {@code after}, up to where the tail stood when {@code s} subscribed. */
    void replay(Subscriber s, long after, Consumer<LiveEvent> out) {
        long from = after;
        while (from < s.from) {
            List<LiveRow> rows = s.audience.keyId() != null
                    ? dao.ofKeyBetween(s.audience.keyId(), from, s.from, BATCH)
                    : dao.between(from, s.from, BATCH);
            if (rows.isEmpty()) {
                return;
            }
            for (LiveEvent e : render(rows)) {
                if (s.audience.sees(e) && s.filters.pass(e)) {
                    out.accept(e);
                }
            }
            from = rows.get(rows.size() - 1).run().id();
        }
    }

    private void loop() {
        while (running) {
            try {
                awaitNews();
                check();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) { // the store away for a moment: the next round tries again
                if (running) {
                    LOG.warn("Reading the event log for live streams failed: {}", e.toString());
                }
            }
        }
    }

    /** Until a batch commits (PostgreSQL's NOTIFY) or the poll interval passes. */
    private void awaitNews() throws InterruptedException {
        if (!postgres) {
            Thread.sleep(settings.pollMillis());
            return;
        }
        try {
            Connection c = listening;
            if (c == null) {
                c = DriverManager.getConnection(url, user, password);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + EventBatchWriter.NOTIFY_CHANNEL);
                }
                listening = c;
                return; // whatever committed while (re)connecting
            }
            c.unwrap(PGConnection.class).getNotifications((int) settings.pollMillis());
        } catch (SQLException e) {
            if (running) {
                LOG.warn("Lost the PostgreSQL connection live streams listen on; polling until it is back: {}",
                        e.toString());
                closeListening();
                Thread.sleep(settings.pollMillis());
            }
        }
    }

    private void closeListening() {
        Connection c = listening;
        listening = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone already
            }
        }
    }

    /** Delivers every event committed since the last check; with no stream open, only moves past them. */
    void check() {
        long upto = watermark();
        long at;
        synchronized (lock) {
            if (subscribers.isEmpty()) { // a stream opened later starts here, and replays from the store
                cursor = Math.max(cursor, upto);
                return;
            }
            at = cursor;
        }
        while (at < upto) {
            List<LiveRow> rows = dao.between(at, upto, BATCH);
            tailed.inc(rows.size());
            List<LiveEvent> events = rows.isEmpty() ? List.of() : render(rows);
            long next = rows.isEmpty() || rows.size() < BATCH ? upto : rows.get(rows.size() - 1).run().id();
            synchronized (lock) {
                for (LiveEvent e : events) {
                    for (Subscriber s : subscribers) {
                        if (s.wants(e)) {
                            s.offer(e);
                        }
                    }
                }
                cursor = next;
            }
            delivered.inc(events.size());
            at = next;
        }
    }

    /** An id at or below which every event is committed. */
    private long watermark() {
        if (!postgres) {
            return dao.newest();
        }
        return jdbi.inTransaction(h -> {
            // a statement of its own: a statement's snapshot is taken as it starts, before a lock it waits for
            h.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(" + EventBatchWriter.LIVE_LOCK + ")) l")
                    .mapTo(Integer.class).one();
            return h.createQuery("SELECT COALESCE(MAX(id), 0) FROM events").mapTo(Long.class).one();
        });
    }

    private List<LiveEvent> render(List<LiveRow> rows) {
        List<RunRow> runs = new ArrayList<>(rows.size());
        rows.forEach(r -> runs.add(r.run()));
        List<ObjectNode> items = history.items(runs);
        List<LiveEvent> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            RunRow r = runs.get(i);
            ObjectNode item = items.get(i);
            ObjectNode payload = mapper.createObjectNode();
            payload.put("type", Filters.RUN);
            payload.set("source", item.get("transport"));
            payload.set("occurred_at", item.get("executed_at"));
            payload.set("kind", item.get("kind"));
            payload.set("query", item.get("query"));
            payload.set("version", item.get("version"));
            payload.set("connection_name", item.get("connection_name"));
            payload.set("entry", item);
            String frame;
            try {
                frame = "id: " + r.id() + "\ndata: " + mapper.writeValueAsString(payload) + "\n\n";
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            out.add(new LiveEvent(r.id(), r.keyId(), rows.get(i).workspace(), item.get("query").isNull() ? null
                    : item.get("query").asText(), r.connection(), r.sqlHash() != null, r.status(),
                    frame.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }
}
