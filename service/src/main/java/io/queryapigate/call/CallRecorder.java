package io.queryapigate.call;

import io.queryapigate.tracing.Tracing;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.LockFreeExponentiallyDecayingReservoir;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.errors.ApiException;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.errors.SecretUnavailableMapper;
import io.queryapigate.events.EventLog;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.store.EventRow;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Records how each call ended: one event-log row and the call metrics ({@code calls.status.<status>}, timers per
 * connection and per saved query, {@code calls.rows}). A failure's status and code are the words its HTTP answer
 * uses ({@link DialectErrors}, {@link ApiException}), so the event log and the responses agree. Each metric is looked
 * up in the registry once and then kept here, so a call builds no metric names; timers use a lock-free reservoir.
 */
public final class CallRecorder {
    private final EventLog events;
    private final MetricRegistry metrics;
    private final Histogram rowsOut;
    private final Clock clock;
    private final Tracing tracing;
    private final AtomicReferenceArray<Meter> byStatus = new AtomicReferenceArray<>(600);
    private final ConcurrentMap<String, Timer> byConnection = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Timer> byQuery = new ConcurrentHashMap<>();

    public CallRecorder(EventLog events, MetricRegistry metrics, Clock clock) {
        this(events, metrics, clock, Tracing.OFF);
    }

    /** With each event's trace id when {@code tracing} is on. */
    public CallRecorder(EventLog events, MetricRegistry metrics, Clock clock, Tracing tracing) {
        this.tracing = tracing;
        this.events = events;
        this.metrics = metrics;
        this.rowsOut = metrics.histogram("calls.rows");
        this.clock = clock;
    }

    private Meter statusMeter(int status) {
        if (status < 0 || status >= byStatus.length()) {
            return metrics.meter("calls.status." + status);
        }
        Meter m = byStatus.get(status);
        if (m == null) {
            m = metrics.meter("calls.status." + status); // the registry hands every racer the same meter
            byStatus.set(status, m);
        }
        return m;
    }

    private Timer timer(ConcurrentMap<String, Timer> timers, String prefix, String name) {
        Timer t = timers.get(name);
        return t != null ? t : timers.computeIfAbsent(name, n -> metrics.timer(prefix + n,
                () -> new Timer(LockFreeExponentiallyDecayingReservoir.builder().build())));
    }

    /** A call under way: what is known of it grows as it is resolved; it ends with one record. */
    public final class Call {
        private final long startNanos = System.nanoTime();
        private final Caller caller;
        private final String requestId;
        private final String queryName;
        private final Long sqlHash;
        private final String transport;
        private Long queryId;
        private Integer version;
        private String connection;
        private boolean cacheHit;

        private Call(CallRequest request) {
            this.caller = request.caller();
            this.requestId = request.requestId();
            this.queryName = request.queryName();
            this.transport = request.transport();
            // ad-hoc calls always carry a hash (the history tells them from saved-query calls by it), even without SQL
            this.sqlHash = request.isSavedQuery() ? null : sqlHash(request.sql() == null ? "" : request.sql());
            this.connection = request.isSavedQuery() ? null : request.connection();
        }

        /** The saved query's id and version, once resolved. */
        void query(long id, int v) {
            this.queryId = id;
            this.version = v;
        }

        /** The connection the call runs on, once decided. */
        void connection(String name) {
            this.connection = name;
        }

        /** The call is answered from the response cache. */
        void cacheHit() {
            this.cacheHit = true;
        }

        public void succeeded(long rows, long bytes) {
            record(200, rows, bytes, null);
        }

        /** A refusal or a database failure, by the same status and code its response carries. */
        public void failed(RuntimeException e) {
            if (e instanceof ApiException refusal) {
                record(refusal.status(), 0, 0, refusal.code());
            } else if (e instanceof DialectException d) {
                DialectErrors.Answer answer = DialectErrors.of(d.error());
                record(answer.status(), 0, 0, answer.code());
            } else if (e instanceof SecretUnavailableException) {
                record(503, 0, 0, SecretUnavailableMapper.CODE);
            } else {
                record(500, 0, 0, "internal_error");
            }
        }

        /** A stream that ended after its response began: the database failed, or the client went away. */
        public void streamFailed(RuntimeException e, long bytes) {
            if (e instanceof DialectException d) {
                DialectErrors.Answer answer = DialectErrors.of(d.error());
                record(answer.status(), 0, bytes, "stream_" + answer.code());
            } else {
                record(499, 0, bytes, "client_gone");
            }
        }

        private void record(int status, long rows, long bytes, String errorCode) {
            long nanos = System.nanoTime() - startNanos;
            statusMeter(status).mark();
            if (connection != null) {
                timer(byConnection, "connections.", connection).update(nanos, TimeUnit.NANOSECONDS);
            }
            if (queryName != null && queryId != null) {
                timer(byQuery, "queries.", queryName).update(nanos, TimeUnit.NANOSECONDS);
            }
            if (status == 200) {
                rowsOut.update(rows);
            }
            events.record(new EventRow(clock.millis(), requestId, caller.keyId(), queryId, version, sqlHash,
                    connection, status, rows, nanos / 1_000, bytes, errorCode, caller.identity().role(),
                    tracing.currentTraceId(), transport, cacheHit));
        }
    }

    public Call start(CallRequest request) {
        return new Call(request);
    }

    /** The first 8 bytes of the SQL's SHA-256: ad-hoc calls are grouped by it without storing the text. */
    static long sqlHash(String sql) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sql.getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (d[i] & 0xFF);
            }
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
