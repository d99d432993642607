package io.queryapigate.siem;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * One output's row of {@code audit_delivery}: its cursor (the last seq delivered), its lease (which instance delivers
 * it, until when) and its details (last delivery, last error). Every change is one conditional statement, so two
 * instances never both believe they hold a lease: the lease is taken only when free, expired or already ours, and
 * the cursor moves only while the lease is ours and unexpired.
 */
final class DeliveryCursor {
    private final Jdbi jdbi;
    private final String output;
    private final String me;

    DeliveryCursor(Jdbi jdbi, String output, String me) {
        this.jdbi = jdbi;
        this.output = output;
        this.me = me;
    }

    /** Creates the row of a new output: it starts before the oldest entry stored, so the SIEM gets all of them. */
    void ensure() {
        jdbi.useHandle(h -> h.createUpdate("INSERT INTO audit_delivery (output, last_seq, details_json)"
                        + " SELECT :output, COALESCE(MIN(seq), 1) - 1, '{}' FROM audit_log WHERE 1 = 1"
                        + " ON CONFLICT (output) DO NOTHING")
                .bind("output", output).execute());
    }

    /** Takes or renews the lease until {@code untilMs}; empty when another instance holds it unexpired. */
    Optional<State> lease(long nowMs, long untilMs) {
        return jdbi.inTransaction(h -> {
            int taken = h.createUpdate("UPDATE audit_delivery SET lease_holder = :me, lease_until_ms = :until"
                            + " WHERE output = :output AND (lease_holder IS NULL OR lease_holder = :me"
                            + " OR lease_until_ms IS NULL OR lease_until_ms < :now)")
                    .bind("me", me).bind("until", untilMs).bind("output", output).bind("now", nowMs).execute();
            if (taken == 0) {
                return Optional.empty();
            }
            return Optional.of(h.createQuery("SELECT last_seq, details_json FROM audit_delivery WHERE output = :output")
                    .bind("output", output)
                    .map((rs, ctx) -> new State(rs.getLong("last_seq"), rs.getString("details_json"))).one());
        });
    }

    /**
     * Moves the cursor to {@code seq} and renews the lease, only while this instance holds it unexpired; false when
     * it was lost (another instance has taken over: its cursor stands).
     */
    boolean advance(long seq, String detailsJson, long nowMs, long untilMs) {
        return jdbi.withHandle(h -> h.createUpdate("UPDATE audit_delivery SET last_seq = :seq, details_json = :details,"
                        + " lease_until_ms = :until WHERE output = :output AND lease_holder = :me"
                        + " AND lease_until_ms >= :now AND last_seq < :seq")
                .bind("seq", seq).bind("details", detailsJson).bind("until", untilMs).bind("output", output)
                .bind("me", me).bind("now", nowMs).execute()) == 1;
    }

    /** Records the details (a failure) while this instance holds the lease. */
    void note(String detailsJson) {
        jdbi.useHandle(h -> h.createUpdate("UPDATE audit_delivery SET details_json = :details"
                        + " WHERE output = :output AND lease_holder = :me")
                .bind("details", detailsJson).bind("output", output).bind("me", me).execute());
    }

    /** Gives the lease back (a clean stop), so another instance takes over at once. */
    void release() {
        jdbi.useHandle(h -> h.createUpdate("UPDATE audit_delivery SET lease_holder = NULL, lease_until_ms = NULL"
                        + " WHERE output = :output AND lease_holder = :me")
                .bind("output", output).bind("me", me).execute());
    }

    /** The row as the status shows it, empty before the output's first start. */
    static Optional<Row> read(Jdbi jdbi, String output) {
        return jdbi.withHandle(h -> h.createQuery("SELECT last_seq, lease_holder, lease_until_ms, details_json"
                        + " FROM audit_delivery WHERE output = :output")
                .bind("output", output)
                .map((rs, ctx) -> new Row(rs.getLong("last_seq"), rs.getString("lease_holder"),
                        nullable(rs.getLong("lease_until_ms"), rs.wasNull()), rs.getString("details_json")))
                .findOne());
    }

    /** The time of the oldest entry after {@code seq}, or null when there is none. */
    static Long oldestAfter(Jdbi jdbi, long seq) {
        List<Long> found = jdbi.withHandle(h -> h.createQuery("SELECT MIN(at_ms) FROM audit_log WHERE seq > :seq")
                .bind("seq", seq).map((rs, ctx) -> nullable(rs.getLong(1), rs.wasNull())).list());
        return found.isEmpty() ? null : found.getFirst();
    }

    private static Long nullable(long value, boolean wasNull) {
        return wasNull ? null : value;
    }

    record State(long lastSeq, String detailsJson) {}

    record Row(long lastSeq, String leaseHolder, Long leaseUntilMs, String detailsJson) {}
}
