package io.queryapigate.events;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.store.EventBatchWriter;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.StoreFaults;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log and run history writer. Calls enqueue a row and return; one background thread wakes once per flush
 * interval (or sooner when a full batch is waiting) and writes what queued up in one store transaction
 * ({@link EventBatchWriter}), trims each touched saved-query version to its newest runs, and
 * once a minute deletes events past the retention period. The queue is bounded: when it is full the event is
 * dropped and counted ({@code events.dropped}), never silently. While the store cannot be reached or is full
 * ({@link StoreFaults}) the batch in hand is kept and retried every {@value #RETRY_MILLIS} ms at most, and calls keep
 * queueing up to the bound: nothing within it is lost. A batch the store refuses for another reason is dropped and
 * counted. Stopping drains and writes everything that was queued, retrying an unreachable store for up to
 * {@value #STOP_RETRY_MILLIS} ms; what is still unwritten then is counted as dropped.
 */
public final class EventLog implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
    private static final int BATCH = 2_000;
    private static final long RETRY_MILLIS = 500;
    private static final long STOP_RETRY_MILLIS = 10_000;

    private final Jdbi jdbi;
    private final EventBatchWriter writer;
    private final BlockingQueue<EventRow> queue;
    private final long flushIntervalNanos;
    private final Duration retention;
    private final Clock clock;
    private final Counter dropped;
    private final Counter written;
    private final StoreFaults faults;
    private final List<EventRow> batch = new ArrayList<>(BATCH);
    private long[] touched = new long[16];
    /** The batch in hand failed for a store fault: it may have been committed all the same. */
    private boolean heldBack;
    private volatile boolean running;
    private Thread thread;
    private long lastRetentionSweep;

    public EventLog(Jdbi jdbi, int capacity, Duration flushInterval, int historyPerVersion, Duration retention,
            Clock clock, MetricRegistry metrics) {
        this(jdbi, capacity, flushInterval, historyPerVersion, retention, clock, metrics, new StoreFaults(clock));
    }

    /** As the other constructor, telling a store outage ({@code faults}) from a batch the store refuses. */
    public EventLog(Jdbi jdbi, int capacity, Duration flushInterval, int historyPerVersion, Duration retention,
            Clock clock, MetricRegistry metrics, StoreFaults faults) {
        this.jdbi = jdbi;
        this.faults = faults;
        this.writer = new EventBatchWriter(jdbi, historyPerVersion);
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.flushIntervalNanos = flushInterval.toNanos();
        this.retention = retention;
        this.clock = clock;
        this.dropped = metrics.counter("events.dropped");
        this.written = metrics.counter("events.written");
        metrics.gauge("events.queued", () -> queue::size);
    }

    /** Events dropped since this process started: the queue was full, or the store refused their batch. */
    public long dropped() {
        return dropped.getCount();
    }

    /** How the store is failing, as this writer and the API's answers saw it. */
    public StoreFaults faults() {
        return faults;
    }

    /** Queues one call's event; never blocks the request. */
    public void record(EventRow event) {
        if (!queue.offer(event)) {
            dropped.inc();
        }
    }

    @Override
    public void start() {
        running = true;
        thread = Thread.ofPlatform().name("qag-event-writer").daemon(true).start(this::loop);
    }

    /** Events queued or held for a retry, not yet written. */
    public synchronized int pending() {
        return queue.size() + batch.size();
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(30_000);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_RETRY_MILLIS);
        while (!flushAll() && System.nanoTime() < deadline) {
            Thread.sleep(RETRY_MILLIS);
        }
        synchronized (this) {
            int lost = pending();
            if (lost > 0) {
                LOG.error("Stopping with the store unavailable: {} events not written; they are lost", lost);
                dropped.inc(lost);
                batch.clear();
                queue.clear();
            }
        }
    }

    /**
     * Writes everything queued so far (tests and shutdown).
     *
     * @return false when the store could not be reached: what is left stays queued for the next try
     */
    public synchronized boolean flushAll() {
        if (!batch.isEmpty() && !writeBatch()) {
            return false;
        }
        while (queue.drainTo(batch, BATCH) > 0) {
            if (!writeBatch()) {
                return false;
            }
        }
        return true;
    }

    private void loop() {
        long nextFlush = System.nanoTime() + flushIntervalNanos;
        while (running) {
            try {
                long wait = nextFlush - System.nanoTime();
                if (wait > 0 && queue.size() < BATCH) {
                    // a wake-up per interval, not per event: a batch is what makes the writer cheap
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                nextFlush = System.nanoTime() + flushIntervalNanos;
                if (!flushAll()) {
                    nextFlush = System.nanoTime() + Math.max(flushIntervalNanos,
                            TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS));
                    continue;
                }
                sweepIfDue();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                if (faults.record(e, "the event writer's sweep") == null) {
                    LOG.error("The event writer failed", e);
                }
            }
        }
    }

    /**
     * Writes {@link #batch} and empties it; a batch the store refuses is dropped and counted, unless the store is
     * unreachable or full: then the batch is kept for the next try.
     *
     * @return false when the batch was kept
     */
    private boolean writeBatch() {
        int touchedCount = 0;
        for (EventRow e : batch) {
            if (e.queryId() != null && e.version() != null) {
                touchedCount = touch(e.queryId() << 20 | e.version(), touchedCount);
            }
        }
        try {
            if (!heldBack || !writer.written(batch)) {
                writer.write(batch, touched, touchedCount);
            }
            heldBack = false;
            written.inc(batch.size());
        } catch (SQLException | RuntimeException e) {
            if (faults.record(e, "writing " + batch.size() + " events") != null) {
                heldBack = true;
                return false;
            }
            heldBack = false;
            LOG.error("Writing {} events failed; they are lost", batch.size(), e);
            dropped.inc(batch.size());
        }
        batch.clear();
        return true;
    }

    private int touch(long key, int count) {
        for (int i = 0; i < count; i++) {
            if (touched[i] == key) {
                return count;
            }
        }
        if (count == touched.length) {
            touched = Arrays.copyOf(touched, count * 2);
        }
        touched[count] = key;
        return count + 1;
    }

    private void sweepIfDue() {
        if (clock.millis() - lastRetentionSweep >= 60_000) {
            sweep();
        }
    }

    /** Deletes events older than the retention period; the writer runs it once a minute. */
    public int sweep() {
        long now = clock.millis();
        lastRetentionSweep = now;
        int deleted = jdbi.onDemand(HistoryDao.class).deleteEventsBefore(now - retention.toMillis());
        if (deleted > 0) {
            LOG.info("Deleted {} events older than {} hours", deleted, retention.toHours());
        }
        return deleted;
    }
}
