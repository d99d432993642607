package io.queryapigate.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Writes the event log's batches: one transaction per batch holds its events, the run-history rows of its saved-query
 * calls, the trim of each touched version to its newest runs and each calling key's {@code last_used_at}, each kind
 * sent as one JDBC batch. The connection is borrowed for the batch only, so a store pool of one is shared with the
 * calls. Only the event writer's thread uses it. On PostgreSQL a batch holds {@link #LIVE_LOCK} shared from before its
 * first id is handed out until it commits, and sends {@code NOTIFY} {@value #NOTIFY_CHANNEL} as it commits: the live
 * stream's reader takes the lock exclusively for a moment to learn an id below which every event is committed.
 */
public final class EventBatchWriter {
    /** The channel a committed batch notifies (PostgreSQL). */
    public static final String NOTIFY_CHANNEL = "qag_events";
    /** The advisory lock every batch holds shared while it writes (PostgreSQL). */
    public static final long LIVE_LOCK = 0x51A9_0001L;
    /** The statement a writing transaction starts with (PostgreSQL). */
    public static final String WRITING = "SELECT pg_advisory_xact_lock_shared(" + LIVE_LOCK + ")";
    private static final String INSERT_EVENT = "INSERT INTO events (at_ms, request_id, key_id, query_id, version,"
            + " sql_hash, connection, status, rows_out, duration_us, bytes_out, error_code, role, trace_id,"
            + " transport, cache_hit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_RUN = "INSERT INTO run_history (query_id, version, at_ms, request_id, key_id,"
            + " connection, status, rows_out, duration_us, error_code, trace_id, transport)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String KEY_USED = "UPDATE api_keys SET last_used_at = ? WHERE id = ?"
            + " AND (last_used_at IS NULL OR last_used_at < ?)";
    private static final String TRIM = "DELETE FROM run_history WHERE query_id = ? AND version = ? AND id <= ("
            + "SELECT id FROM run_history WHERE query_id = ? AND version = ? ORDER BY id DESC LIMIT 1 OFFSET ?)";

    private final Jdbi jdbi;
    private final int historyPerVersion;
    private Boolean postgres;

    public EventBatchWriter(Jdbi jdbi, int historyPerVersion) {
        this.jdbi = jdbi;
        this.historyPerVersion = historyPerVersion;
    }

    /**
     * Writes one batch in one transaction. A failure rolls it back and tries once more on another connection, unless
     * the batch is there already ({@link #written}: the commit went through and only its answer was lost), so
     * nothing is written twice; a second failure is thrown.
     *
     * @param touched each saved-query version in the batch, as {@code queryId << 20 | version}
     */
    public void write(List<EventRow> batch, long[] touched, int touchedCount) throws SQLException {
        try {
            writeOnce(batch, touched, touchedCount);
        } catch (SQLException | RuntimeException first) {
            try {
                if (written(batch)) {
                    return;
                }
                writeOnce(batch, touched, touchedCount);
            } catch (SQLException | RuntimeException second) {
                second.addSuppressed(first);
                throw second;
            }
        }
    }

    /**
     * Whether {@code batch} is in the store already: a commit whose answer was lost (the connection cut as it
     * committed) wrote it, and writing it again would count its calls twice. The batch is one transaction, so its
     * first event tells.
     */
    public boolean written(List<EventRow> batch) throws SQLException {
        if (batch.isEmpty()) {
            return false;
        }
        EventRow first = batch.getFirst();
        try (Handle handle = jdbi.open();
                PreparedStatement s = handle.getConnection().prepareStatement(
                        "SELECT 1 FROM events WHERE at_ms = ? AND request_id = ?")) {
            s.setLong(1, first.atMs());
            s.setString(2, first.requestId());
            try (var rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void writeOnce(List<EventRow> batch, long[] touched, int touchedCount) throws SQLException {
        try (Handle handle = jdbi.open()) {
            Connection c = handle.getConnection();
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            if (postgres == null) {
                postgres = c.getMetaData().getURL().startsWith("jdbc:postgresql:");
            }
            try (PreparedStatement events = c.prepareStatement(INSERT_EVENT);
                    PreparedStatement runs = c.prepareStatement(INSERT_RUN);
                    PreparedStatement trim = c.prepareStatement(TRIM);
                    PreparedStatement keyUsed = c.prepareStatement(KEY_USED)) {
                if (postgres) {
                    try (Statement lock = c.createStatement()) {
                        lock.execute(WRITING);
                    }
                }
                boolean anyRun = false;
                java.util.Map<Long, Long> lastUse = new java.util.HashMap<>();
                for (EventRow e : batch) {
                    addEvent(events, e);
                    if (e.keyId() > 0) {
                        lastUse.merge(e.keyId(), e.atMs(), Math::max);
                    }
                    if (e.queryId() != null && e.version() != null) {
                        addRun(runs, e);
                        anyRun = true;
                    }
                }
                events.executeBatch();
                for (java.util.Map.Entry<Long, Long> use : lastUse.entrySet()) {
                    keyUsed.setLong(1, use.getValue());
                    keyUsed.setLong(2, use.getKey());
                    keyUsed.setLong(3, use.getValue());
                    keyUsed.addBatch();
                }
                if (!lastUse.isEmpty()) {
                    keyUsed.executeBatch();
                }
                if (anyRun) {
                    runs.executeBatch();
                    for (int i = 0; i < touchedCount; i++) {
                        long queryId = touched[i] >>> 20;
                        int version = (int) (touched[i] & 0xFFFFF);
                        trim.setLong(1, queryId);
                        trim.setInt(2, version);
                        trim.setLong(3, queryId);
                        trim.setInt(4, version);
                        trim.setInt(5, historyPerVersion);
                        trim.addBatch();
                    }
                    trim.executeBatch();
                }
                if (postgres) {
                    try (Statement notify = c.createStatement()) {
                        notify.execute("NOTIFY " + NOTIFY_CHANNEL);
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private static void addEvent(PreparedStatement s, EventRow e) throws SQLException {
        s.setLong(1, e.atMs());
        s.setString(2, e.requestId());
        s.setLong(3, e.keyId());
        setLong(s, 4, e.queryId());
        setInt(s, 5, e.version());
        setLong(s, 6, e.sqlHash());
        s.setString(7, e.connection());
        s.setInt(8, e.status());
        s.setLong(9, e.rowsOut());
        s.setLong(10, e.durationUs());
        s.setLong(11, e.bytesOut());
        s.setString(12, e.errorCode());
        s.setString(13, e.role());
        s.setString(14, e.traceId());
        s.setString(15, e.transport());
        if (e.cacheHit()) {
            s.setInt(16, 1);
        } else {
            s.setNull(16, java.sql.Types.SMALLINT);
        }
        s.addBatch();
    }

    private static void addRun(PreparedStatement s, EventRow e) throws SQLException {
        s.setLong(1, e.queryId());
        s.setInt(2, e.version());
        s.setLong(3, e.atMs());
        s.setString(4, e.requestId());
        s.setLong(5, e.keyId());
        s.setString(6, e.connection());
        s.setInt(7, e.status());
        s.setLong(8, e.rowsOut());
        s.setLong(9, e.durationUs());
        s.setString(10, e.errorCode());
        s.setString(11, e.traceId());
        s.setString(12, e.transport());
        s.addBatch();
    }

    private static void setLong(PreparedStatement s, int i, Long v) throws SQLException {
        if (v == null) {
            s.setNull(i, Types.BIGINT);
        } else {
            s.setLong(i, v);
        }
    }

    private static void setInt(PreparedStatement s, int i, Integer v) throws SQLException {
        if (v == null) {
            s.setNull(i, Types.INTEGER);
        } else {
            s.setInt(i, v);
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the handle is closed next; the caller reports the first failure
        }
    }
}
