package io.queryapigate.guard;

import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.guard.TestingSqlFuzz.Db;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scratch schema (PostgreSQL) or database (MariaDB) on the shared test server with the fuzzer's tables, and a
 * user the fixture creates with SELECT on it only; runs one statement as that user inside a read-only transaction
 * that is always rolled back, and says how the database took it. Closing drops the user and the scratch objects.
 * Nothing global on the server is changed.
 */
final class TestingReadOnlyDatabase implements AutoCloseable {
    /** What the database did with a statement. */
    enum Outcome {
        /** Ran, stayed in the read-only transaction and left no session state: a harmless read. */
        RAN_READ,
        /** Ran but left session state (settings, variables, locks, cursors, prepared statements, a transaction
         * id) or left the read-only transaction. */
        RAN_WITH_EFFECT,
        /** Refused as a write: the read-only transaction's error, or a privilege error on a write. */
        REFUSED_WRITE,
        /** Refused by privileges on a read (a catalogue table the user may not read). */
        REFUSED_PRIVILEGE_READ,
        /** A syntax error: not a read. */
        SYNTAX_ERROR,
        /** Any other error (unknown object, type error, time limit, ...). */
        OTHER_ERROR
    }

    /** The outcome with the database's code and message. */
    record Result(Outcome outcome, String code, String message) {}

    static final Set<String> TABLES = Set.of("t", "u", "customer", "secret", "sq");
    private static final Pattern PG_DENIED_TABLE = Pattern.compile("permission denied for (?:table|view|relation) "
            + "(\\S+)");
    /** PostgreSQL privilege errors that are about changing something rather than reading it. */
    private static final Pattern PG_DENIED_WRITE = Pattern.compile("sequence|schema|database|must be owner|to create"
            + "|to drop|to alter|to set|to change|permission denied for function (lo_\\w+|pg_stat_reset\\w*"
            + "|pg_reload_conf|pg_switch_wal|pg_create_\\w+|pg_drop_\\w+|pg_logical_\\w+|pg_file_\\w+|setval|nextval"
            + "|pg_terminate_backend|pg_cancel_backend|pg_promote|pg_rotate_logfile|pg_log_backend_memory_contexts"
            + "|pg_replication_\\w+|pg_backup_\\w+)");
    private static final Pattern MARIADB_DENIED = Pattern.compile("^(\\w+) command denied");

    private final Db db;
    private final TestServers.Server server;
    private final String name = "qag_fz_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private final String password = "fz" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private Connection connection;
    private String idleState;
    private int reconnects = -1;

    TestingReadOnlyDatabase(Db db) {
        this.db = db;
        this.server = db == Db.POSTGRES ? TestServers.postgres() : TestServers.mariadb();
        if (db == Db.POSTGRES) {
            admin("CREATE SCHEMA " + name, "CREATE ROLE " + name + " LOGIN PASSWORD '" + password + "'",
                    "ALTER ROLE " + name + " SET search_path = " + name,
                    "ALTER ROLE " + name + " SET statement_timeout = '5s'",
                    "ALTER ROLE " + name + " SET lock_timeout = '2s'");
        } else {
            admin("CREATE DATABASE " + name, "CREATE USER '" + name + "'@'%' IDENTIFIED BY '" + password + "'",
                    "CREATE USER '" + name + "'@'localhost' IDENTIFIED BY '" + password + "'");
        }
        String s = name + ".";
        admin("CREATE TABLE " + s + "t (id int PRIMARY KEY, a int, b varchar(20))",
                "CREATE TABLE " + s + "u (id int PRIMARY KEY, a int, c varchar(20))",
                "CREATE TABLE " + s + "customer (id int PRIMARY KEY, name varchar(50), email varchar(50), "
                        + "ssn varchar(20))",
                "CREATE TABLE " + s + "secret (id int PRIMARY KEY, token varchar(50))",
                "CREATE SEQUENCE " + s + "sq",
                "INSERT INTO " + s + "t VALUES (1, 1, 'x1'), (2, 5, 'it''s'), (3, NULL, NULL)",
                "INSERT INTO " + s + "u VALUES (1, 1, 'c'), (2, 2, 'd')",
                "INSERT INTO " + s + "customer VALUES (1, 'Ada', 'ada@example.com', '123-45-6789')",
                "INSERT INTO " + s + "secret VALUES (1, 'tok')");
        if (db == Db.POSTGRES) {
            admin("GRANT USAGE ON SCHEMA " + name + " TO " + name,
                    "GRANT SELECT ON ALL TABLES IN SCHEMA " + name + " TO " + name,
                    "GRANT SELECT ON ALL SEQUENCES IN SCHEMA " + name + " TO " + name);
        } else {
            admin("GRANT SELECT ON " + name + ".* TO '" + name + "'@'%'",
                    "GRANT SELECT ON " + name + ".* TO '" + name + "'@'localhost'");
        }
        connect();
    }

    String schema() {
        return name;
    }

    /** How often the fixture opened a new connection after the first (after effects and broken sessions). */
    int reconnects() {
        return reconnects;
    }

    private void admin(String... statements) {
        try (Connection c = DriverManager.getConnection(server.url(), server.user(), server.password());
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError("fixture statement failed: " + e.getMessage(), e);
        }
    }

    private String url() {
        if (db == Db.POSTGRES) {
            return server.url();
        }
        String base = server.url();
        int slash = base.lastIndexOf('/');
        int query = base.indexOf('?', slash);
        return base.substring(0, slash + 1) + name + (query < 0 ? "?" : base.substring(query) + "&")
                + "allowMultiQueries=false&sessionVariables=max_statement_time=5,lock_wait_timeout=2,"
                + "innodb_lock_wait_timeout=2";
    }

    private void connect() {
        closeConnection();
        reconnects++;
        try {
            connection = DriverManager.getConnection(url(), name, password);
            connection.setAutoCommit(true);
            idleState = state();
        } catch (SQLException e) {
            throw new AssertionError("cannot connect as the restricted user: " + e.getMessage(), e);
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // a broken connection is replaced anyway
            }
            connection = null;
        }
    }

    /** What a statement may leave behind in the session, as one string. */
    private String state() throws SQLException {
        String sql = db == Db.POSTGRES
                ? "SELECT coalesce((SELECT string_agg(name || '=' || setting, ',' ORDER BY name) FROM pg_settings "
                + "WHERE source = 'session'), '') || '|' || (SELECT count(*) FROM pg_locks WHERE pid = "
                + "pg_backend_pid() AND locktype = 'advisory') || '|' || current_user || '|' || "
                + "current_setting('transaction_read_only') || '|' || coalesce(current_setting('qag.fz', true), '')"
                + " || '|' || (SELECT count(*) FROM pg_prepared_statements) || '|' || (SELECT count(*) FROM "
                + "pg_cursors) || '|' || coalesce(txid_current_if_assigned()::text, '') || '|' || (SELECT count(*)"
                + " FROM pg_listening_channels()) || '|' || current_setting('search_path')"
                : "SELECT CONCAT_WS('|', @@session.sql_mode, @@session.autocommit, @@in_transaction, IFNULL(@x, "
                + "'-'), IFNULL(@v, '-'), IFNULL(IS_USED_LOCK('qagfz'), '-'), IFNULL(IS_USED_LOCK('x'), '-'), "
                + "LAST_INSERT_ID(), IFNULL(DATABASE(), '-'), @@session.character_set_client, "
                + "@@session.tx_isolation, @@session.tx_read_only, CURRENT_ROLE(), @@session.max_statement_time)";
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Runs {@code sql} as the restricted user in a read-only transaction, rolled back. */
    Result run(String sql) {
        try {
            if (connection == null || connection.isClosed()) {
                connect();
            }
            try (Statement s = connection.createStatement()) {
                s.execute(db == Db.POSTGRES ? "BEGIN READ ONLY" : "START TRANSACTION READ ONLY");
            }
            String before = state();
            Result result;
            boolean reconnect = false;
            try (Statement s = connection.createStatement()) {
                s.setQueryTimeout(10);
                boolean rows = s.execute(sql);
                while (rows || s.getUpdateCount() != -1) {
                    if (rows) {
                        try (ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                // read every row: some effects happen per row
                            }
                        }
                    }
                    rows = s.getMoreResults();
                }
                String after;
                try {
                    after = state();
                } catch (SQLException e) {
                    after = "unreadable: " + e.getMessage();
                }
                boolean inTransaction = stillInReadOnlyTransaction();
                if (!canLogIn()) {
                    admin(db == Db.POSTGRES ? "ALTER ROLE " + name + " PASSWORD '" + password + "'"
                            : "SET PASSWORD FOR '" + name + "'@'localhost' = PASSWORD('" + password + "')",
                            db == Db.POSTGRES ? "SELECT 1"
                            : "SET PASSWORD FOR '" + name + "'@'%' = PASSWORD('" + password + "')");
                    result = new Result(Outcome.RAN_WITH_EFFECT, "", "changed the user's password");
                    reconnect = true;
                } else if (after.equals(before) && inTransaction) {
                    result = new Result(Outcome.RAN_READ, "", "");
                } else {
                    result = new Result(Outcome.RAN_WITH_EFFECT, "", inTransaction ? "session state: " + before
                            + " -> " + after : "left the read-only transaction");
                    reconnect = true;
                }
            } catch (SQLException e) {
                result = classify(e);
                String state = e.getSQLState() == null ? "" : e.getSQLState();
                reconnect = state.startsWith("08");
            }
            if (!reconnect) {
                try (Statement s = connection.createStatement()) {
                    s.execute("ROLLBACK");
                    reconnect = !state().equals(idleState);
                } catch (SQLException e) {
                    reconnect = true;
                }
            }
            if (reconnect) {
                connect();
            }
            return result;
        } catch (SQLException e) {
            connect();
            return new Result(Outcome.OTHER_ERROR, "fixture", e.getMessage());
        }
    }

    /** False when a statement changed the user's own password (MariaDB lets it in a read-only transaction). */
    private boolean canLogIn() {
        if (db == Db.POSTGRES) {
            return true;
        }
        try (Connection c = DriverManager.getConnection(url(), name, password)) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean stillInReadOnlyTransaction() throws SQLException {
        String sql = db == Db.POSTGRES ? "SELECT current_setting('transaction_read_only') = 'on'"
                : "SELECT @@in_transaction = 1";
        if (db == Db.POSTGRES && connection.unwrap(org.postgresql.core.BaseConnection.class).getTransactionState()
                != org.postgresql.core.TransactionState.OPEN) {
            return false;
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private Result classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? "" : e.getMessage().strip();
        if (db == Db.POSTGRES) {
            String code = state;
            return switch (state) {
                case "25006", "25001", "25P01", "0A000" -> state.equals("0A000")
                        && !message.contains("transaction") ? new Result(Outcome.OTHER_ERROR, code, message)
                        : new Result(Outcome.REFUSED_WRITE, code, message);
                case "42501" -> {
                    Matcher m = PG_DENIED_TABLE.matcher(message);
                    boolean write = m.find() ? TABLES.contains(m.group(1).toLowerCase(Locale.ROOT))
                            : PG_DENIED_WRITE.matcher(message).find();
                    yield new Result(write ? Outcome.REFUSED_WRITE : Outcome.REFUSED_PRIVILEGE_READ, code, message);
                }
                case "42601" -> new Result(Outcome.SYNTAX_ERROR, code, message);
                default -> new Result(Outcome.OTHER_ERROR, code, message);
            };
        }
        int error = e.getErrorCode();
        String code = String.valueOf(error);
        return switch (error) {
            case 1792, 1568, 1179, 1044, 1045, 1211, 1410, 1095 -> new Result(Outcome.REFUSED_WRITE, code, message);
            // a stored routine's EXECUTE privilege (a user function the guard cannot see into: the read-only
            // transaction stops its writes); the monitoring privileges guard reads of server status
            case 1370 -> new Result(Outcome.REFUSED_PRIVILEGE_READ, code, message);
            case 1227 -> new Result(message.contains("MONITOR") || message.contains("PROCESS")
                    ? Outcome.REFUSED_PRIVILEGE_READ : Outcome.REFUSED_WRITE, code, message);
            case 1142, 1143 -> {
                Matcher m = MARIADB_DENIED.matcher(message);
                yield m.find() && List.of("SELECT", "SHOW", "SHOW VIEW").contains(m.group(1).toUpperCase(Locale.ROOT))
                        ? new Result(Outcome.REFUSED_PRIVILEGE_READ, code, message)
                        : new Result(Outcome.REFUSED_WRITE, code, message);
            }
            case 1064, 1149 -> new Result(Outcome.SYNTAX_ERROR, code, message);
            default -> new Result(Outcome.OTHER_ERROR, code, message);
        };
    }

    @Override
    public void close() {
        closeConnection();
        if (db == Db.POSTGRES) {
            admin("DROP SCHEMA " + name + " CASCADE", "DROP OWNED BY " + name, "DROP ROLE " + name);
        } else {
            admin("DROP DATABASE " + name, "DROP USER '" + name + "'@'%'", "DROP USER '" + name + "'@'localhost'");
        }
    }
}
