package io.queryapigate.siem;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.store.AuditDao;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Every configured SIEM output's deliverer, started and stopped with the application, and their progress for
 * {@code GET /api/v1/audit/delivery}.
 */
public final class AuditDelivery implements Managed {
    private final Jdbi jdbi;
    private final String instanceId;
    private final Clock clock;
    private final ObjectMapper json;
    private final MetricRegistry metrics;
    private final List<Deliverer> deliverers = new ArrayList<>();

    /** @param metrics gets {@code audit.delivery.<output>.delivered} and {@code .failures} per output */
    public AuditDelivery(Jdbi jdbi, String instanceId, Clock clock, ObjectMapper json, MetricRegistry metrics) {
        this.jdbi = jdbi;
        this.instanceId = instanceId;
        this.clock = clock;
        this.json = json;
        this.metrics = metrics;
    }

    /** Adds an output (before {@link #start()}). */
    public AuditDelivery add(String name, AuditOutput output, int batchSize, java.time.Duration pollInterval,
            java.time.Duration retryMax, java.time.Duration lease) {
        deliverers.add(new Deliverer(name, output, new Deliverer.Settings(batchSize, pollInterval, retryMax, lease),
                jdbi, instanceId, clock, json, metrics));
        return this;
    }

    /** This process's name in the leases it holds. */
    public String instanceId() {
        return instanceId;
    }

    /** A new entry was appended: deliver it now rather than at the next poll. */
    public void wake() {
        deliverers.forEach(Deliverer::wake);
    }

    @Override
    public void start() {
        deliverers.forEach(Deliverer::start);
    }

    @Override
    public void stop() throws InterruptedException {
        for (Deliverer d : deliverers) {
            d.stop();
        }
    }

    /** Each output's progress, in configuration order. */
    public List<Status> status() {
        long head = jdbi.onDemand(AuditDao.class).lastSeq();
        List<Status> out = new ArrayList<>(deliverers.size());
        long now = clock.millis();
        for (Deliverer d : deliverers) {
            Optional<DeliveryCursor.Row> row = DeliveryCursor.read(jdbi, d.name());
            JsonNode details = row.map(r -> parse(r.detailsJson())).orElse(json.createObjectNode());
            Long delivered = row.map(DeliveryCursor.Row::lastSeq).orElse(null);
            String holder = row.filter(r -> r.leaseUntilMs() != null && r.leaseUntilMs() >= now)
                    .map(DeliveryCursor.Row::leaseHolder).orElse(null);
            out.add(new Status(d.name(), d.output().type(), d.output().target(), delivered, head,
                    Math.max(0, head - (delivered == null ? 0 : delivered)),
                    head > (delivered == null ? 0 : delivered)
                            ? DeliveryCursor.oldestAfter(jdbi, delivered == null ? 0 : delivered) : null,
                    millis(details, "last_delivered_at_ms"), text(details, "last_error"),
                    millis(details, "last_error_at_ms"), holder,
                    row.map(DeliveryCursor.Row::leaseUntilMs).filter(u -> u >= now).orElse(null)));
        }
        return out;
    }

    private JsonNode parse(String detailsJson) {
        try {
            return json.readTree(detailsJson == null ? "{}" : detailsJson);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }

    private static Long millis(JsonNode details, String field) {
        JsonNode v = details.get(field);
        return v != null && v.canConvertToLong() ? v.asLong() : null;
    }

    private static String text(JsonNode details, String field) {
        JsonNode v = details.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /**
     * One output's progress. Times are epoch milliseconds, null when never.
     *
     * @param deliveredSeq        the cursor: every entry up to it was taken by the receiver (null before the first
     *                            start)
     * @param behind              entries appended but not delivered yet
     * @param oldestUndeliveredAt when the oldest of those was appended
     * @param instance            the instance holding the lease now (null: nobody, or it lapsed)
     */
    public record Status(String output, String type, String target, Long deliveredSeq, long headSeq, long behind,
            Long oldestUndeliveredAt, Long lastDeliveredAt, String lastError, Long lastErrorAt, String instance,
            Long leaseUntil) {}
}
