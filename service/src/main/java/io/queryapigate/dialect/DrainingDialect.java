package io.queryapigate.dialect;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's dialect as the registry hands it out: it counts who uses it, so a connection replaced or removed
 * while calls run on it closes only when the last of them is done. The registry holds one reference while the
 * connection is live ({@link #retire} drops it); a call holds one from {@link #enter} to {@link #exit}, and every
 * operation holds one while it runs. Once the count reaches zero the dialect is closed and {@link #enter} refuses.
 */
final class DrainingDialect implements Dialect {
    private static final Logger LOG = LoggerFactory.getLogger(DrainingDialect.class);

    private final String connection;
    private final Dialect dialect;
    private final int concurrentCalls;
    /** 1 for the registry while live, plus one per user; 0 = closed for good. */
    private final AtomicInteger users = new AtomicInteger(1);
    private volatile boolean retired;

    DrainingDialect(String connection, Dialect dialect, int concurrentCalls) {
        this.connection = connection;
        this.dialect = dialect;
        this.concurrentCalls = concurrentCalls;
    }

    /** How many of the connection's calls may run at once (its {@code poolSize}, or more: the registry's rule). */
    int concurrentCalls() {
        return concurrentCalls;
    }

    /** Starts a use; false when the dialect closed (it was replaced or removed): look the connection up again. */
    boolean enter() {
        for (int n = users.get(); n > 0; n = users.get()) {
            if (users.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ends a use begun by a successful {@link #enter}; the last one out of a retired dialect closes it, in the
     * background (a pool may take seconds to close, and the last user may be a call or a management request).
     */
    void exit() {
        if (users.decrementAndGet() == 0) {
            Thread.ofVirtual().name("qag-close-" + connection).start(this::closeNow);
        }
    }

    /** Drops the registry's reference: closes now when nobody uses it, else when the last user exits. */
    void retire() {
        if (!retired) {
            retired = true;
            exit();
        }
    }

    /** True once the wrapped dialect is closed. */
    boolean closed() {
        return users.get() == 0;
    }

    /** Users besides the registry (calls running on it). */
    int running() {
        return Math.max(0, users.get() - (retired ? 0 : 1));
    }

    private void closeNow() {
        try {
            dialect.close();
            LOG.info("Closed the pool of connection '{}'{}", connection, retired ? " (replaced or removed)" : "");
        } catch (RuntimeException e) {
            LOG.warn("Closing connection '{}' failed", connection, e);
        }
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        if (!enter()) {
            throw new DialectException(DialectError.UNAVAILABLE, "The connection '" + connection
                    + "' was replaced or removed");
        }
        try {
            return dialect.execute(request, sink);
        } finally {
            exit();
        }
    }

    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        boolean entered = enter();
        try {
            return dialect.describe(request);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public void checkHealth(Duration timeout) {
        boolean entered = enter();
        try {
            dialect.checkHealth(timeout);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public Optional<String> serverVersion(Duration timeout) {
        boolean entered = enter();
        try {
            return dialect.serverVersion(timeout);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public List<String> databases(Duration timeout) {
        boolean entered = enter();
        try {
            return dialect.databases(timeout);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        boolean entered = enter();
        try {
            return dialect.describeNamespace(database, timeout);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public List<String> privilegeWarnings(Duration timeout) {
        boolean entered = enter();
        try {
            return dialect.privilegeWarnings(timeout);
        } finally {
            if (entered) {
                exit();
            }
        }
    }

    @Override
    public Set<Capability> capabilities() {
        return dialect.capabilities();
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return dialect.sessionStrategy();
    }

    @Override
    public String sqlFamily() {
        return dialect.sqlFamily();
    }

    @Override
    public String queryLanguage() {
        return dialect.queryLanguage();
    }

    @Override
    public LexicalRules lexicalRules() {
        return dialect.lexicalRules();
    }

    @Override
    public TableNamespace defaultNamespace() {
        return dialect.defaultNamespace();
    }

    @Override
    public Map<String, Number> metrics() {
        return closed() ? Map.of() : dialect.metrics();
    }

    /** Closes at once (shutdown): calls still running fail as the dialect fails them. */
    @Override
    public void close() {
        retired = true;
        if (users.getAndSet(0) > 0) {
            closeNow();
        }
    }

    @Override
    public String toString() {
        return "DrainingDialect[" + connection + ", " + dialect + "]";
    }
}
