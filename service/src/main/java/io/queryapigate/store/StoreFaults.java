package io.queryapigate.store;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store failing as a whole rather than one statement: unreachable ({@link Kind#UNAVAILABLE}: the connection
 * refused, reset or timed out, no pooled connection in time) or out of space ({@link Kind#FULL}: SQLite's
 * {@code SQLITE_FULL}, PostgreSQL's {@code 53100}). {@link #classify} reads an exception's causes; the instance
 * remembers when each kind was last seen, for the alerts ({@code store_unavailable}, {@code store_full}), and logs
 * each kind once a minute at most.
 */
public final class StoreFaults {
    private static final Logger LOG = LoggerFactory.getLogger(StoreFaults.class);
    private static final long LOG_EVERY_MILLIS = 60_000;
    private static final int SQLITE_FULL = 13;

    /** What went wrong with the store. */
    public enum Kind {
        /** The store cannot be reached. */
        UNAVAILABLE,
        /** The store's disk is full: writes fail, reads still work. */
        FULL
    }

    /** Below this much free space on a SQLite store's volume, a failed write counts as the disk being full. */
    static final long SQLITE_LOW_SPACE_BYTES = 1 << 20;

    private final Clock clock;
    private final java.nio.file.Path sqliteFile;
    private final AtomicReference<Instant> lastUnavailable = new AtomicReference<>();
    private final AtomicReference<Instant> lastFull = new AtomicReference<>();
    private final AtomicLong lastLog = new AtomicLong();

    public StoreFaults(Clock clock) {
        this(clock, null);
    }

    private StoreFaults(Clock clock, java.nio.file.Path sqliteFile) {
        this.clock = clock;
        this.sqliteFile = sqliteFile;
    }

    /**
     * For the store at {@code url}: with a SQLite store, a failed write whose error does not say why (SQLite rolls the
     * transaction back on {@code SQLITE_FULL}, and the driver may report only the commit that followed) counts as
     * {@link Kind#FULL} while the file's volume has less than 1 MB free.
     */
    public static StoreFaults of(String url, Clock clock) {
        String prefix = "jdbc:sqlite:";
        if (url != null && url.startsWith(prefix) && !url.contains(":memory:")) {
            String file = url.substring(prefix.length());
            int query = file.indexOf('?');
            return new StoreFaults(clock, java.nio.file.Path.of(query < 0 ? file : file.substring(0, query))
                    .toAbsolutePath());
        }
        return new StoreFaults(clock, null);
    }

    /** The kind of store-wide failure behind {@code e}, or null when it is something else (a bad statement). */
    public static Kind classify(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                String message = String.valueOf(sql.getMessage()).toLowerCase(Locale.ROOT);
                if ("53100".equals(state) || message.contains("sqlite_full")
                        || message.contains("database or disk is full")
                        || (sql.getErrorCode() == SQLITE_FULL && t.getClass().getName().startsWith("org.sqlite"))) {
                    return Kind.FULL;
                }
                if (state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P03"))) {
                    return Kind.UNAVAILABLE;
                }
                if (t.getClass().getName().endsWith("PoolExhaustedException")) {
                    return Kind.UNAVAILABLE;
                }
            }
            if (t instanceof java.net.ConnectException || t instanceof java.net.SocketTimeoutException
                    || t instanceof java.io.EOFException) {
                return Kind.UNAVAILABLE;
            }
        }
        return null;
    }

    /**
     * Classifies {@code e} and remembers the kind when it is one; logs it (at most once a minute).
     *
     * @return the kind, or null
     */
    public Kind record(Throwable e, String during) {
        Kind kind = classify(e);
        if (kind == null && sqliteFile != null && lowOnSpace()) {
            kind = Kind.FULL;
        }
        if (kind != null) {
            (kind == Kind.FULL ? lastFull : lastUnavailable).set(clock.instant());
            long now = clock.millis();
            long last = lastLog.get();
            if (now - last >= LOG_EVERY_MILLIS && lastLog.compareAndSet(last, now)) {
                LOG.error("The store is {} ({}) during {}", kind == Kind.FULL ? "full" : "unavailable",
                        rootMessage(e), during);
            }
        }
        return kind;
    }

    private boolean lowOnSpace() {
        try {
            java.nio.file.Path dir = sqliteFile.getParent();
            return dir != null && java.nio.file.Files.getFileStore(dir).getUsableSpace() < SQLITE_LOW_SPACE_BYTES;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** When the store was last seen this way within {@code window}, else null. */
    public Instant seenWithin(Kind kind, Duration window) {
        Instant last = (kind == Kind.FULL ? lastFull : lastUnavailable).get();
        return last != null && last.isAfter(clock.instant().minus(window)) ? last : null;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
