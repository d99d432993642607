package io.queryapigate.events;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.store.EventBatchWriter;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.HistoryDao;
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
 * dropped and counted ({@code events.dropped}), never silently. Stopping drains and writes everything that was queued.
 */
public final class EventLog implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
    private static final int BATCH = 2_000;

    private final Jdbi jdbi;
    private final EventBatchWriter writer;
    private final BlockingQueue<EventRow> queue;
    private final long flushIntervalNanos;
    private final Duration retention;
    private final Clock clock;
    private final Counter dropped;
    private final Counter written;
    private final List<EventRow> batch = new ArrayList<>(BATCH);
    private long[] touched = new long[16];
    private volatile boolean running;
    private Thread thread;
    private long lastRetentionSweep;

    public EventLog(Jdbi jdbi, int capacity, Duration flushInterval, int historyPerVersion, Duration retention,
            Clock clock, MetricRegistry metrics) {
        this.jdbi = jdbi;
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

    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(30_000);
        }
        flushAll();
    }

    /** Writes everything queued so far (tests and shutdown). */
    public synchronized void flushAll() {
        while (queue.drainTo(batch, BATCH) > 0) {
            writeBatch();
        }
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
                flushAll();
                sweepIfDue();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.error("The event writer failed", e);
            }
        }
    }

    /** Writes {@link #batch} and empties it; a batch the store refuses twice is dropped and counted. */
    private void writeBatch() {
        int touchedCount = 0;
        for (EventRow e : batch) {
            if (e.queryId() != null && e.version() != null) {
                touchedCount = touch(e.queryId() << 20 | e.version(), touchedCount);
            }
        }
        try {
            writer.write(batch, touched, touchedCount);
            written.inc(batch.size());
        } catch (SQLException | RuntimeException e) {
            LOG.error("Writing {} events failed; they are lost", batch.size(), e);
            dropped.inc(batch.size());
        } finally {
            batch.clear();
        }
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
