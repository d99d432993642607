package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.NonRegisteringDriver;
import com.mysql.cj.protocol.ServerSession;
import io.queryapigate.dialect.jdbc.ConnectGate;
import io.queryapigate.dialect.spi.AccessMode;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool's source of physical connections: opens a Connector/J connection, detects the server, checks it against
 * the configuration, runs the strategy's open statements and verifies from the status flags that the connection
 * now sits in a transaction of the right access mode. The pool never sees a connection that has not passed.
 *
 * <p>Open costs 1 + 2 round trips after Connector/J's own handshake: {@code SELECT VERSION(), @@version_comment}
 * and the settings MariaDB's {@code SET STATEMENT} pins ({@link MySqlSessionStrategy#PINNED_VARIABLES}), then {@code SET SESSION TRANSACTION READ ONLY|READ WRITE} and {@code START TRANSACTION READ ONLY|READ WRITE}.
 * When the session's {@code sql_mode} holds a flag that changes how SQL text is lexed ({@link
 * MySqlSessionStrategy#LEXING_SQL_MODES}: {@code ANSI_QUOTES}, {@code NO_BACKSLASH_ESCAPES}, or a combination mode
 * that implies one), 2 more: {@code SET SESSION sql_mode = <the same without them>} and a {@code SELECT} of the
 * result, which is then the pinned value.
 */
final class SessionDataSource implements DataSource {
    private static final NonRegisteringDriver DRIVER = newDriver();

    /** The one query a new connection sends before its open statements: flavour, version, settings to pin. */
    static final String DETECT = "SELECT VERSION(), @@version_comment, "
            + String.join(", ", MySqlSessionStrategy.PINNED_VARIABLES.stream().map(v -> "@@session." + v).toList());

    private final String url;
    private final Properties properties;
    private final AccessMode access;
    private final MySqlDialectConfig config;
    private final Consumer<MySqlSessionStrategy> onServer;
    private final ConnectGate gate;
    private volatile int loginTimeoutSeconds;

    SessionDataSource(String url, Properties properties, AccessMode access, MySqlDialectConfig config,
            Consumer<MySqlSessionStrategy> onServer, ConnectGate gate) {
        this.url = requireNonNull(url, "url is null");
        this.properties = requireNonNull(properties, "properties is null");
        this.access = requireNonNull(access, "access is null");
        this.config = requireNonNull(config, "config is null");
        this.onServer = requireNonNull(onServer, "onServer is null");
        this.gate = requireNonNull(gate, "gate is null");
    }

    /**
     * Opens a bare Connector/J connection with the dialect's properties (used for KILL QUERY too).
     *
     * @return the connection
     * @throws SQLException when the driver fails
     */
    static Connection openPhysical(String url, Properties properties) throws SQLException {
        Connection c = DRIVER.connect(url, properties);
        if (c == null) {
            throw new SQLNonTransientConnectionException("not a MySQL Connector/J URL", "08001");
        }
        return c;
    }

    /**
     * Opens a checked session through the dialect's {@link ConnectGate}: while the server cannot be reached this
     * keeps trying, one attempt per probe interval, instead of failing back to the pool's own back-off.
     */
    @Override
    public Connection getConnection() throws SQLException {
        return gate.open(this::openSession);
    }

    private Connection openSession() throws SQLException {
        Connection physical = openPhysical(url, properties);
        try {
            ServerInfo server;
            Map<String, String> pinned = new HashMap<>();
            try (Statement st = physical.createStatement();
                    ResultSet rs = st.executeQuery(DETECT)) {
                if (!rs.next()) {
                    throw new SQLException("SELECT VERSION() returned no row", "HY000");
                }
                server = ServerInfo.parse(rs.getString(1), rs.getString(2));
                for (int i = 0; i < MySqlSessionStrategy.PINNED_VARIABLES.size(); i++) {
                    String value = rs.getString(i + 3);
                    if (value != null) {
                        pinned.put(MySqlSessionStrategy.PINNED_VARIABLES.get(i), value);
                    }
                }
            }
            MySqlSessionStrategy strategy;
            try {
                server.requireSupported();
                Optional<ServerInfo.Flavor> pinnedFlavor = config.flavor();
                if (pinnedFlavor.isPresent() && pinnedFlavor.get() != server.flavor()) {
                    throw new IllegalArgumentException("mysql.flavor is " + pinnedFlavor.get().configName()
                            + " but the server is " + server.label() + " (" + server.version() + ")");
                }
                MySqlSessionStrategy.resolve(config.timeLimitMode(), server.flavor(), "mysql.time_limit_mode");
            } catch (IllegalArgumentException | IllegalStateException e) {
                // configuration or server mismatch: not worth retrying, but the pool keeps trying; say it clearly
                throw new SQLNonTransientConnectionException(e.getMessage(), "08004", e);
            }
            String sqlMode = pinned.get("sql_mode");
            if (sqlMode != null && !MySqlSessionStrategy.guardCompatibleSqlMode(sqlMode).equals(sqlMode)) {
                pinned.put("sql_mode", setGuardCompatibleSqlMode(physical, sqlMode));
            }
            strategy = new MySqlSessionStrategy(server, config.timeLimitMode(), pinned);
            onServer.accept(strategy);
            try (Statement st = physical.createStatement()) {
                for (String sql : strategy.openStatements(access)) {
                    st.execute(sql);
                }
            }
            PooledSession session = new PooledSession(physical, server, strategy, access,
                    config.idleValidation().toNanos());
            int flags = session.statusFlags();
            boolean inTrans = (flags & PooledSession.IN_TRANS) != 0;
            boolean readOnly = (flags & PooledSession.IN_TRANS_READONLY) != 0;
            if (!inTrans || readOnly != (access == AccessMode.READ)) {
                throw new SQLNonTransientConnectionException("the server did not report a "
                        + (access == AccessMode.READ ? "read-only" : "read-write")
                        + " transaction after START TRANSACTION (status flags 0x" + Integer.toHexString(flags)
                        + "); the mysql dialect relies on SERVER_STATUS_IN_TRANS and SERVER_STATUS_IN_TRANS_READONLY"
                        + " to verify every release", "08004");
            }
            return session.proxy();
        } catch (SQLException | RuntimeException e) {
            try {
                physical.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Sets the session's {@code sql_mode} to the server's without the flags that change how SQL text is lexed
     * ({@link MySqlSessionStrategy#LEXING_SQL_MODES}) and returns what the server made of it.
     *
     * @throws SQLException when the server keeps such a flag
     */
    private static String setGuardCompatibleSqlMode(Connection physical, String sqlMode) throws SQLException {
        String lexable = MySqlSessionStrategy.guardCompatibleSqlMode(sqlMode);
        String literal = MySqlSessionStrategy.literal(lexable);
        if (literal == null) {
            throw new SQLNonTransientConnectionException("cannot set sql_mode to '" + lexable + "'", "08004");
        }
        String now;
        try (Statement st = physical.createStatement()) {
            st.execute("SET SESSION sql_mode = " + literal);
            try (ResultSet rs = st.executeQuery("SELECT @@session.sql_mode")) {
                now = rs.next() ? rs.getString(1) : null;
            }
        }
        if (now == null || !MySqlSessionStrategy.guardCompatibleSqlMode(now).equals(now)) {
            throw new SQLNonTransientConnectionException("the server kept sql_mode '" + now + "' after SET SESSION"
                    + " sql_mode = " + literal + "; the mysql dialect needs a mode without "
                    + String.join(", ", MySqlSessionStrategy.LEXING_SQL_MODES), "08004");
        }
        // Connector/J escapes parameters by the sql_mode it read at connect (NO_BACKSLASH_ESCAPES: quotes doubled,
        // no backslash escapes) and never reads it again: tell it the new one
        ServerSession serverSession = physical.unwrap(JdbcConnection.class).getSession().getServerSession();
        Map<String, String> variables = new HashMap<>(serverSession.getServerVariables());
        variables.put("sql_mode", now);
        serverSession.setServerVariables(variables);
        return now;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("credentials come from the connection's configuration");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    private static NonRegisteringDriver newDriver() {
        try {
            return new NonRegisteringDriver();
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
