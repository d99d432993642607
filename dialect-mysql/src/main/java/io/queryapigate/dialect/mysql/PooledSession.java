package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import com.mysql.cj.jdbc.JdbcConnection;
import io.queryapigate.dialect.spi.AccessMode;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Set;

/**
 * One physical Connector/J connection as the pool sees it: a {@link Connection} proxy that keeps what the dialect
 * knows about the session (server, strategy, access mode, status flags at open, last use) and guards it.
 *
 * <ul>
 *   <li>{@code isValid} pings (COM_PING) only when the connection has been idle for {@code mysql.idle_validation}
 *       or longer; a connection used more recently is reported valid without any I/O. HikariCP calls {@code
 *       isValid} on a borrow only after its own {@code aliveBypassWindowMs} (500 ms, a JVM-wide system property),
 *       and from its keepalive task; this makes the real window the dialect's setting.
 *   <li>The driver's transaction calls ({@code commit}, {@code rollback}, {@code setAutoCommit}, {@code
 *       setReadOnly}, {@code setTransactionIsolation}, savepoints) are refused: the session's transaction is
 *       managed with SQL only ({@code ROLLBACK AND CHAIN}), because a plain {@code ROLLBACK} or {@code COMMIT}
 *       would end the chain and the next transaction would take the session default, which a stored function can
 *       change. Connector/J also caches these states and would skip calls it thinks redundant.
 *   <li>{@code beginRequest} and {@code endRequest} are no-ops.
 *   <li>{@code setNetworkTimeout} runs on the calling thread, whatever executor it is given. HikariCP sets a timeout
 *       around its validation and then restores the one the connection had (none: the dialect bounds a call with
 *       its time limit instead); with a DataSource it does not recognise as MySQL's it hands both changes to a
 *       thread of its own, and Connector/J applies each only once it holds the connection's lock, so the restore
 *       could land after the next statement had started reading, with the validation's timeout on its socket.
 * </ul>
 */
final class PooledSession implements InvocationHandler {

    /** SERVER_STATUS_IN_TRANS: a transaction is active. */
    static final int IN_TRANS = 0x0001;
    /** SERVER_STATUS_AUTOCOMMIT: the session's autocommit is on. */
    static final int AUTOCOMMIT = 0x0002;
    /** SERVER_STATUS_NO_BACKSLASH_ESCAPES: sql_mode has NO_BACKSLASH_ESCAPES (Connector/J escapes by the mode it read at connect). */
    static final int NO_BACKSLASH_ESCAPES = 0x0200;
    /** SERVER_STATUS_IN_TRANS_READONLY: the active transaction is read-only. */
    static final int IN_TRANS_READONLY = 0x2000;

    private static final Set<String> REFUSED = Set.of(
            "commit", "rollback", "setAutoCommit", "setReadOnly", "setTransactionIsolation", "setSavepoint",
            "releaseSavepoint");

    private final Connection physical;
    private final JdbcConnection jdbc;
    private final ServerInfo server;
    private final MySqlSessionStrategy strategy;
    private final AccessMode access;
    private final int openFlags;
    private final long idleValidationNanos;
    private final Connection proxy;
    private volatile long lastUsedNanos;

    PooledSession(Connection physical, ServerInfo server, MySqlSessionStrategy strategy, AccessMode access,
            long idleValidationNanos) throws SQLException {
        this.physical = requireNonNull(physical, "physical is null");
        this.jdbc = physical.unwrap(JdbcConnection.class);
        this.server = requireNonNull(server, "server is null");
        this.strategy = requireNonNull(strategy, "strategy is null");
        this.access = requireNonNull(access, "access is null");
        this.idleValidationNanos = idleValidationNanos;
        this.openFlags = statusFlags();
        this.lastUsedNanos = System.nanoTime();
        this.proxy = (Connection) Proxy.newProxyInstance(
                PooledSession.class.getClassLoader(), new Class<?>[] {Connection.class}, this);
    }

    Connection proxy() {
        return proxy;
    }

    Connection physical() {
        return physical;
    }

    ServerInfo server() {
        return server;
    }

    MySqlSessionStrategy strategy() {
        return strategy;
    }

    AccessMode access() {
        return access;
    }

    /** The server's thread id for this connection, for KILL QUERY. */
    long threadId() {
        return jdbc.getId();
    }

    /** The status flags of the server's last reply (OK, EOF or the final OK of a result). */
    int statusFlags() {
        return jdbc.getSession().getServerSession().getStatusFlags();
    }

    /** Records a use: the idle-validation window starts again. */
    void markUsed() {
        lastUsedNanos = System.nanoTime();
    }

    /**
     * Checks the flags after the release statement: inside a transaction of the pool's access mode, autocommit and
     * the backslash-escape mode as they were at open.
     *
     * @return null when the session may be reused, else why not
     */
    String checkReusable() {
        int flags = statusFlags();
        if ((flags & IN_TRANS) == 0) {
            return "no transaction is active after the release (status flags 0x" + Integer.toHexString(flags) + ")";
        }
        boolean readOnly = (flags & IN_TRANS_READONLY) != 0;
        if (readOnly != (access == AccessMode.READ)) {
            return "the chained transaction is " + (readOnly ? "read-only" : "read-write") + " on a "
                    + access.name().toLowerCase(java.util.Locale.ROOT) + " connection (status flags 0x"
                    + Integer.toHexString(flags) + ")";
        }
        int stable = AUTOCOMMIT | NO_BACKSLASH_ESCAPES;
        if ((flags & stable) != (openFlags & stable)) {
            return "autocommit or NO_BACKSLASH_ESCAPES changed since the connection was opened (status flags 0x"
                    + Integer.toHexString(openFlags) + " -> 0x" + Integer.toHexString(flags) + ")";
        }
        return null;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "isValid" -> {
                if (physical.isClosed()) {
                    return false;
                }
                if (System.nanoTime() - lastUsedNanos < idleValidationNanos) {
                    return true;
                }
                boolean valid = physical.isValid((Integer) args[0]);
                if (valid) {
                    markUsed();
                }
                return valid;
            }
            case "beginRequest", "endRequest" -> {
                return null;
            }
            case "setNetworkTimeout" -> {
                physical.setNetworkTimeout(Runnable::run, (Integer) args[1]);
                return null;
            }
            case "unwrap" -> {
                if (args[0] == PooledSession.class) {
                    return this;
                }
                return physical.unwrap((Class<?>) args[0]);
            }
            case "isWrapperFor" -> {
                return args[0] == PooledSession.class || physical.isWrapperFor((Class<?>) args[0]);
            }
            case "equals" -> {
                return self == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(self);
            }
            case "toString" -> {
                return "PooledSession[" + access + ", " + server.label() + ", thread " + jdbc.getId() + "]";
            }
            default -> {
                if (REFUSED.contains(name)) {
                    throw new SQLFeatureNotSupportedException("the mysql dialect manages transactions with SQL"
                            + " (ROLLBACK AND CHAIN / COMMIT AND CHAIN); Connection." + name + " is refused");
                }
            }
        }
        try {
            return method.invoke(physical, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
