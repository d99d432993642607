package io.queryapigate.siem;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one output, on a virtual thread of its own: holds the output's lease, reads the entries after its cursor
 * in batches, sends each batch and only then moves the cursor (at least once). A failure keeps the cursor, records
 * the error and tries again after a backoff doubling from one second up to {@code retryMax}.
 */
final class Deliverer {
    private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);
    private static final long FIRST_RETRY_MS = 1_000;

    private final String name;
    private final AuditOutput output;
    private final Settings settings;
    private final Jdbi jdbi;
    private final DeliveryCursor cursor;
    private final Clock clock;
    private final ObjectMapper json;
    private final Counter delivered;
    private final Counter failed;
    private volatile boolean running;
    private volatile Thread thread;
    private long leaseUntilMs;
    private long lastSeq;
    private ObjectNode details;
    private int failures;

    /**
     * @param batchSize    entries per send
     * @param pollInterval how often to look for new entries (sooner on {@link AuditDelivery#wake()})
     * @param retryMax     the longest wait between two tries while the receiver fails
     * @param lease        how long a lease lasts without renewal: after it, another instance takes over
     */
    record Settings(int batchSize, Duration pollInterval, Duration retryMax, Duration lease) {}

    Deliverer(String name, AuditOutput output, Settings settings, Jdbi jdbi, String instanceId, Clock clock,
            ObjectMapper json, MetricRegistry metrics) {
        this.name = name;
        this.output = output;
        this.settings = settings;
        this.jdbi = jdbi;
        this.cursor = new DeliveryCursor(jdbi, name, instanceId);
        this.clock = clock;
        this.json = json;
        this.delivered = metrics.counter("audit.delivery." + name + ".delivered");
        this.failed = metrics.counter("audit.delivery." + name + ".failures");
    }

    String name() {
        return name;
    }

    AuditOutput output() {
        return output;
    }

    void start() {
        running = true;
        thread = Thread.ofVirtual().name("qag-audit-delivery-" + name).start(this::loop);
    }

    void stop() throws InterruptedException {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            t.join(Duration.ofSeconds(15));
        }
        try {
            cursor.release();
        } catch (RuntimeException e) { // the store closing first: the lease lapses by itself
            LOG.debug("Could not give back the audit delivery lease of {}: {}", name, e.toString());
        }
        output.close();
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private void loop() {
        try {
            cursor.ensure();
        } catch (RuntimeException e) {
            LOG.warn("Audit log to {}: cannot read its delivery cursor yet: {}", name, e.toString());
        }
        while (running) {
            long waitMs;
            try {
                waitMs = round();
            } catch (RuntimeException | IOException e) {
                waitMs = failed(e);
            }
            if (running && waitMs > 0) {
                LockSupport.parkNanos(waitMs * 1_000_000L);
            }
        }
    }

    /** One step: returns how long to wait before the next (0: at once, more is waiting). */
    private long round() throws IOException {
        if (!holdLease()) {
            return settings.pollInterval().toMillis();
        }
        List<AuditRow> batch = jdbi.onDemand(AuditDao.class).after(lastSeq, settings.batchSize());
        if (batch.isEmpty()) {
            return settings.pollInterval().toMillis();
        }
        output.send(batch);
        long now = clock.millis();
        long upTo = batch.getLast().seq();
        details.put("last_delivered_at_ms", now);
        details.putNull("last_error");
        if (!cursor.advance(upTo, json.writeValueAsString(details), now, now + settings.lease().toMillis())) {
            LOG.info("Audit log to {}: another instance took over delivery; entries up to {} may reach it twice",
                    name, upTo);
            leaseUntilMs = 0;
            return settings.pollInterval().toMillis();
        }
        if (failures > 0) {
            LOG.info("Audit log to {}: delivering again after {} failed tries", name, failures);
        }
        failures = 0;
        delivered.inc(batch.size());
        leaseUntilMs = now + settings.lease().toMillis();
        lastSeq = upTo;
        return batch.size() == settings.batchSize() ? 0 : settings.pollInterval().toMillis();
    }

    /** Takes the lease, or renews it when less than half of it is left. */
    private boolean holdLease() throws IOException {
        long now = clock.millis();
        long lease = settings.lease().toMillis();
        if (leaseUntilMs - now > lease / 2) {
            return true;
        }
        cursor.ensure();
        Optional<DeliveryCursor.State> state = cursor.lease(now, now + lease);
        if (state.isEmpty()) {
            leaseUntilMs = 0;
            return false;
        }
        if (leaseUntilMs == 0) { // just taken: the cursor and details as the previous holder left them
            JsonNode stored = json.readTree(state.get().detailsJson());
            details = stored instanceof ObjectNode o ? o : json.createObjectNode();
        }
        lastSeq = state.get().lastSeq();
        leaseUntilMs = now + lease;
        return true;
    }

    private long failed(Exception e) {
        failures++;
        failed.inc();
        String error = describe(e);
        if (failures == 1) {
            LOG.warn("Audit log to {} ({}): delivery failed, retrying with backoff: {}", name, output.target(), error);
        }
        if (details != null && leaseUntilMs > 0) {
            details.put("last_error", error);
            details.put("last_error_at_ms", clock.millis());
            try {
                cursor.note(json.writeValueAsString(details));
            } catch (IOException | RuntimeException ignored) {
                // the store failing too: the log line above says what happened
            }
        }
        long backoff = FIRST_RETRY_MS << Math.min(failures - 1, 16);
        return Math.min(backoff, settings.retryMax().toMillis());
    }

    private static String describe(Exception e) {
        String message = e.getMessage() == null ? "" : ": " + e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            message += " (" + cause.getMessage() + ")";
        }
        String text = e.getClass().getSimpleName() + message;
        return text.length() > 300 ? text.substring(0, 300) : text;
    }
}
