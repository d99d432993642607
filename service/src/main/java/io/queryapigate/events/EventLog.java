package io.queryapigate.events;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.RunRow;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log and run history writer. Calls enqueue a row and return; one background thread writes batches in a
 * single store transaction, trims each touched saved-query version to its newest runs, and deletes events past the
 * retention period. The queue is bounded: when it is full the event is dropped and counted
 * ({@code events.dropped}), never silently. Stopping drains and writes everything that was queued.
 */
public final class EventLog implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
    private static final int BATCH = 2_000;

    private final Jdbi jdbi;
    private final BlockingQueue<EventRow> queue;
    private final Duration flushInterval;
    private final int historyPerVersion;
    private final Duration retention;
    private final Clock clock;
    private final Counter dropped;
    private final Counter written;
    private volatile boolean running;
    private Thread writer;
    private long lastRetentionSweep;

    public EventLog(Jdbi jdbi, int capacity, Duration flushInterval, int historyPerVersion, Duration retention,
            Clock clock, MetricRegistry metrics) {
        this.jdbi = jdbi;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.flushInterval = flushInterval;
        this.historyPerVersion = historyPerVersion;
        this.retention = retention;
        this.clock = clock;
        this.dropped = metrics.counter("events.dropped");
        this.written = metrics.counter("events.written");
        metrics.gauge("events.queued", () -> queue::size);
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
        writer = Thread.ofPlatform().name("qag-event-writer").daemon(true).start(this::loop);
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (writer != null) {
            writer.interrupt();
            writer.join(30_000);
        }
        flushAll();
    }

    /** Writes everything queued so far (tests and shutdown). */
    public synchronized void flushAll() {
        List<EventRow> batch = new ArrayList<>();
        while (queue.drainTo(batch, BATCH) > 0) {
            write(batch);
            batch.clear();
        }
    }

    private void loop() {
        List<EventRow> batch = new ArrayList<>(BATCH);
        while (running) {
            try {
                EventRow first = queue.poll(flushInterval.toMillis(), TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                    synchronized (this) {
                        write(batch);
                    }
                    batch.clear();
                }
                sweepIfDue();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.error("Writing {} events failed; they are lost", batch.size(), e);
                dropped.inc(batch.size());
                batch.clear();
            }
        }
    }

    private void write(List<EventRow> batch) {
        List<RunRow> runs = new ArrayList<>();
        Set<Long> touched = new HashSet<>();
        for (EventRow e : batch) {
            if (e.queryId() != null && e.version() != null) {
                runs.add(new RunRow(0, e.queryId(), e.version(), e.atMs(), e.requestId(), e.keyId(), e.status(),
                        e.rowsOut(), e.durationUs(), e.errorCode()));
                touched.add(e.queryId() << 20 | e.version());
            }
        }
        jdbi.useTransaction(h -> {
            HistoryDao dao = h.attach(HistoryDao.class);
            dao.insertEvents(batch);
            if (!runs.isEmpty()) {
                dao.insertRuns(runs);
                for (long key : touched) {
                    dao.trim(key >>> 20, (int) (key & 0xFFFFF), historyPerVersion);
                }
            }
        });
        written.inc(batch.size());
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
