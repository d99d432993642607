package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a MySQL or MariaDB call sends, for one detected server. Pure and thread-safe.
 *
 * <p>Every pooled connection lives inside a transaction that is never ended without being chained:
 *
 * <ul>
 *   <li>A read connection is opened with {@code SET SESSION TRANSACTION READ ONLY} and {@code START TRANSACTION
 *       READ ONLY} ({@link #openStatements}); each read is the statement (1 round trip) followed by {@code
 *       ROLLBACK AND CHAIN} (1 round trip), which ends the transaction and starts the next one with the same
 *       access mode whatever the session default says by then.
 *   <li>A write connection is opened with {@code SET SESSION TRANSACTION READ WRITE} and {@code START TRANSACTION
 *       READ WRITE}; each write is the statement and {@code COMMIT AND CHAIN} ({@code ROLLBACK AND CHAIN} when it
 *       failed).
 *   <li>The time limit travels inside the statement where the server allows it: MariaDB's {@code SET STATEMENT
 *       max_statement_time=<s>, tx_read_only=1 FOR <statement>} (which also pins the read-only session default
 *       for the statement and restores it afterwards, so that a stored function cannot leave it read-write), or
 *       MySQL's {@code MAX_EXECUTION_TIME(<ms>)} hint ({@link SelectHint}). Where neither can be placed, the call
 *       first sends {@code SET SESSION <limit> = <value>, SESSION <read-only variable> = ...}: every call, never
 *       only when the value changes.
 * </ul>
 *
 * <p>The dialect verifies after every statement, from the status flags the server sends in each reply (no extra
 * round trip), that the connection is still inside a transaction with the expected access mode; a connection that
 * is not is closed instead of reused.
 */
public final class MySqlSessionStrategy implements SessionStrategy {

    /** Ends a read's transaction and starts the next one with the same access mode. */
    public static final String ROLLBACK_AND_CHAIN = "ROLLBACK AND CHAIN";
    /** Commits a write and starts the next transaction with the same access mode. */
    public static final String COMMIT_AND_CHAIN = "COMMIT AND CHAIN";

    /**
     * Session variables that change what later statements return, read when a connection opens and pinned to
     * those values by every MariaDB {@code SET STATEMENT}: MariaDB restores them when the statement ends, so a
     * stored function (or a {@code SET} that got past the guard) cannot hand its settings to the next call.
     */
    public static final List<String> PINNED_VARIABLES = List.of(
            "time_zone", "sql_mode", "sql_select_limit", "div_precision_increment", "group_concat_max_len",
            "lc_time_names", "max_join_size");

    /**
     * Pinned to their values on a fresh connection by every MariaDB {@code SET STATEMENT} (and set by the per-call
     * {@code SET} of {@code session} mode): {@code LAST_INSERT_ID()} is session state that survives {@code ROLLBACK
     * AND CHAIN} and {@code COMMIT AND CHAIN}, so without the pin the next caller on the connection would read the id
     * an earlier write generated, or whatever {@code SELECT LAST_INSERT_ID(x)} set; {@code insert_id}, which a
     * stored function can set, would force the id of the next caller's insert. With the pin the statement sees 0 and
     * MariaDB restores 0 when it ends, whatever it did.
     */
    public static final String FRESH_IDS = "last_insert_id=0, insert_id=0";

    /**
     * {@code sql_mode} flags that change how the server lexes SQL text: {@code ANSI_QUOTES} ({@code "..."} is an
     * identifier, not a string) and {@code NO_BACKSLASH_ESCAPES} ({@code \} is an ordinary character in strings).
     * The service's guard lexes MySQL-family SQL with backslash escapes and {@code "..."} as strings, so a session
     * with either flag would read the text differently from the guard; the combination modes are listed because
     * each re-adds {@code ANSI_QUOTES} when the value is set back ({@code ANSI}, {@code DB2}, {@code MAXDB}, {@code
     * MSSQL}, {@code ORACLE}, {@code POSTGRESQL}).
     */
    public static final List<String> LEXING_SQL_MODES = List.of(
            "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "ANSI", "DB2", "MAXDB", "MSSQL", "ORACLE", "POSTGRESQL");

    /**
     * A connection's {@code sql_mode} without the flags of {@link #LEXING_SQL_MODES}; the dialect sets the session to
     * it when a connection opens (and pins it), so that the server reads SQL text the way the guard does.
     *
     * @param sqlMode the session's {@code sql_mode} as the server printed it (comma-separated)
     * @return the same flags, in the same order, without those
     */
    public static String guardCompatibleSqlMode(String sqlMode) {
        requireNonNull(sqlMode, "sqlMode is null");
        StringBuilder b = new StringBuilder();
        for (String flag : sqlMode.split(",")) {
            String f = flag.strip();
            if (f.isEmpty() || LEXING_SQL_MODES.contains(f.toUpperCase(java.util.Locale.ROOT))) {
                continue;
            }
            b.append(b.isEmpty() ? "" : ",").append(f);
        }
        return b.toString();
    }

    private final ServerInfo server;
    private final TimeLimitMode mode;
    private final String pins;

    /**
     * A strategy for one server, without pinned session variables.
     *
     * @param server the detected (or pinned) server
     * @param configured the configured mode; {@link TimeLimitMode#AUTO} picks by flavour
     * @throws IllegalArgumentException when the mode cannot work on this flavour
     */
    public MySqlSessionStrategy(ServerInfo server, TimeLimitMode configured) {
        this(server, configured, Map.of());
    }

    /**
     * A strategy for one server.
     *
     * @param server the detected (or pinned) server
     * @param configured the configured mode; {@link TimeLimitMode#AUTO} picks by flavour
     * @param pinned values of {@link #PINNED_VARIABLES} read at open (name to value as the server printed it);
     *     used by MariaDB's {@code SET STATEMENT}; a value that is not a plain number or a quote-free string is
     *     left out
     * @throws IllegalArgumentException when the mode cannot work on this flavour
     */
    public MySqlSessionStrategy(ServerInfo server, TimeLimitMode configured, Map<String, String> pinned) {
        this.server = requireNonNull(server, "server is null");
        this.mode = resolve(requireNonNull(configured, "configured is null"), server.flavor(), "mysql.time_limit_mode");
        requireNonNull(pinned, "pinned is null");
        StringBuilder b = new StringBuilder();
        for (String name : PINNED_VARIABLES) {
            String value = pinned.get(name);
            String literal = value == null ? null : literal(value);
            if (literal != null) {
                b.append(", ").append(name).append('=').append(literal);
            }
        }
        this.pins = b.toString();
    }

    /**
     * Why the dialect refuses {@code sql} before sending anything, or null. A statement that begins with {@code SET
     * STATEMENT} (after whitespace and comments, also inside an executable comment {@code /*!...*}{@code /}) would
     * be nested in the dialect's own {@code SET STATEMENT ... FOR}, and its settings would override the dialect's
     * pins for that statement: measured on MariaDB 10.11, {@code SET STATEMENT tx_read_only=0 FOR CREATE TABLE ...}
     * sent as a read creates the table (the DDL's implicit commit runs read-write), and {@code max_statement_time=0}
     * lifts the time limit. In {@code session} mode the same statement overrides the per-call {@code SET}. MySQL
     * refuses {@code SET STATEMENT} as a syntax error, so the check holds for both flavours.
     *
     * <p>Also refused: {@code USE <database>}, which MariaDB runs under {@code SET STATEMENT} too and which changes the
     * current database for every later call on the connection (unqualified names then reach another database's
     * tables); nothing the dialect sends can put it back without a round trip, and nothing in a call may need it.
     *
     * @param sql the user's statement
     * @return the reason, or null when the statement may be sent
     */
    public static String refusal(String sql) {
        requireNonNull(sql, "sql is null");
        List<String> words = firstWords(sql, 2);
        if (words.size() == 2 && words.get(0).equalsIgnoreCase("SET") && words.get(1).equalsIgnoreCase("STATEMENT")) {
            return "the statement begins with SET STATEMENT, which would override the settings the mysql dialect pins"
                    + " for it (read-only, time limit, session settings); nothing was sent";
        }
        if (!words.isEmpty() && words.get(0).equalsIgnoreCase("USE")) {
            return "USE would change the current database for every later call on the pooled connection; name the"
                    + " database in the statement instead; nothing was sent";
        }
        return null;
    }

    /**
     * The first {@code n} words of {@code sql}, skipping whitespace, comments ({@code #}, {@code -- }, {@code /* *}{@code
     * /}) and the markers of executable comments ({@code /*!}, {@code /*M!} with their version digits, and the {@code
     * *}{@code /} that closes one), whose content MariaDB and MySQL run as SQL. Stops at anything else.
     */
    static List<String> firstWords(String sql, int n) {
        List<String> words = new java.util.ArrayList<>(n);
        int i = 0;
        int len = sql.length();
        int executable = 0; // open executable comments
        while (i < len && words.size() < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || (c == '-' && sql.startsWith("--", i)
                    && (i + 2 == len || Character.isWhitespace(sql.charAt(i + 2)) || Character.isISOControl(sql.charAt(i + 2))))) {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? len : nl + 1;
            } else if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                i += sql.startsWith("/*!", i) ? 3 : 4;
                while (i < len && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                executable++;
            } else if (sql.startsWith("/*", i)) {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? len : close + 2;
            } else if (executable > 0 && sql.startsWith("*/", i)) {
                executable--;
                i += 2;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < len && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
                words.add(sql.substring(i, end));
                i = end;
            } else {
                break;
            }
        }
        return words;
    }

    /** A number as is, a string quoted; null for values that would need escaping (never pinned). */
    static String literal(String value) {
        if (value.matches("-?\\d+(\\.\\d+)?")) {
            return value;
        }
        if (value.indexOf('\'') >= 0 || value.indexOf('\\') >= 0 || value.chars().anyMatch(c -> c < 0x20)) {
            return null;
        }
        return "'" + value + "'";
    }

    /**
     * The effective mode for a flavour.
     *
     * @param configured the configured mode
     * @param flavor the server's flavour
     * @param key the property name, for the message
     * @return {@link TimeLimitMode#HINT}, {@link TimeLimitMode#SET_STATEMENT} or {@link TimeLimitMode#SESSION}
     * @throws IllegalArgumentException for {@code hint} on MariaDB (ignored there silently) or {@code
     *     set_statement} on MySQL (a syntax error there)
     */
    static TimeLimitMode resolve(TimeLimitMode configured, ServerInfo.Flavor flavor, String key) {
        boolean mariadb = flavor == ServerInfo.Flavor.MARIADB;
        return switch (configured) {
            case AUTO -> mariadb ? TimeLimitMode.SET_STATEMENT : TimeLimitMode.HINT;
            case HINT -> {
                if (mariadb) {
                    throw new IllegalArgumentException(key + ": 'hint' does not work on MariaDB, which ignores"
                            + " the MAX_EXECUTION_TIME hint silently; use auto, set_statement or session");
                }
                yield TimeLimitMode.HINT;
            }
            case SET_STATEMENT -> {
                if (!mariadb) {
                    throw new IllegalArgumentException(key + ": 'set_statement' is MariaDB syntax and does not"
                            + " work on MySQL; use auto, hint or session");
                }
                yield TimeLimitMode.SET_STATEMENT;
            }
            case SESSION -> TimeLimitMode.SESSION;
        };
    }

    /**
     * The server this strategy plans for.
     *
     * @return the server
     */
    public ServerInfo server() {
        return server;
    }

    /**
     * The effective time-limit mode.
     *
     * @return never {@link TimeLimitMode#AUTO}
     */
    public TimeLimitMode mode() {
        return mode;
    }

    /**
     * What a new pooled connection runs once, after the flavour check, before its first call.
     *
     * @param access the pool's access mode
     * @return the statements, in order
     */
    public List<String> openStatements(AccessMode access) {
        return access == AccessMode.READ
                ? List.of("SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY")
                : List.of("SET SESSION TRANSACTION READ WRITE", "START TRANSACTION READ WRITE");
    }

    /**
     * What a failed write sends instead of {@link #COMMIT_AND_CHAIN}; reads always send {@link #ROLLBACK_AND_CHAIN}.
     *
     * @return {@code ROLLBACK AND CHAIN}
     */
    public String releaseAfterFailure() {
        return ROLLBACK_AND_CHAIN;
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        return planned(request).plan();
    }

    /**
     * The plan plus whether the server itself enforces the limit for this statement (the dialect's client-side
     * kill then waits {@code mysql.client_cancel_grace} longer, so that the server's cheaper stop comes first).
     *
     * @param request the request, with the time left as its timeout
     * @return the plan and the flag
     */
    public Planned planned(QueryRequest request) {
        requireNonNull(request, "request is null");
        long ms = millis(request.timeout());
        String sql = request.sql();
        boolean read = request.mode() == AccessMode.READ;
        String after = read ? ROLLBACK_AND_CHAIN : COMMIT_AND_CHAIN;
        String ro = server.readOnlyVariable();
        boolean mariadb = server.flavor() == ServerInfo.Flavor.MARIADB;

        if (mode == TimeLimitMode.SET_STATEMENT) {
            String settings = "max_statement_time=" + seconds(ms) + (read ? ", " + ro + "=1" : "") + pins + ", "
                    + FRESH_IDS;
            return new Planned(new SessionPlan(List.of(), "SET STATEMENT " + settings + " FOR " + sql, List.of(after),
                    Map.of(), 2, describe(read, "SET STATEMENT pins max_statement_time"
                            + (read ? ", the read-only session default" : "")
                            + (pins.isEmpty() ? "" : ", the session settings read at open")
                            + " and LAST_INSERT_ID() for the statement and restores them after it")), true);
        }
        if (mode == TimeLimitMode.HINT) {
            if (!read) {
                // max_execution_time and its hint apply to read-only SELECTs only
                return new Planned(new SessionPlan(List.of(), sql, List.of(after), Map.of(), 2,
                        describe(false, "MySQL has no server-side limit for writes: the client kills the statement"
                                + " (KILL QUERY from a second connection) when the limit passes")), false);
            }
            Optional<String> hinted = SelectHint.placeMaxExecutionTime(sql, ms);
            if (hinted.isPresent()) {
                return new Planned(new SessionPlan(List.of(), hinted.get(), List.of(after), Map.of(), 2,
                        describe(true, "the MAX_EXECUTION_TIME hint on the statement's first SELECT")), true);
            }
        }
        // SESSION, or a MySQL read whose first token is not SELECT
        if (mariadb) {
            String set = "SET SESSION max_statement_time = " + seconds(ms) + (read ? ", SESSION " + ro + " = 1" : "")
                    + ", SESSION last_insert_id = 0, SESSION insert_id = 0";
            return new Planned(new SessionPlan(List.of(set), sql, List.of(after), Map.of(), 3,
                    describe(read, "max_statement_time" + (read ? ", the read-only session default" : "")
                            + " and LAST_INSERT_ID() set on every call")), true);
        }
        if (!read) {
            return new Planned(new SessionPlan(List.of(), sql, List.of(after), Map.of(), 2,
                    describe(false, "MySQL has no server-side limit for writes: the client kills the statement"
                            + " (KILL QUERY from a second connection) when the limit passes")), false);
        }
        String set = "SET SESSION max_execution_time = " + ms + ", SESSION " + ro + " = ON";
        return new Planned(new SessionPlan(List.of(set), sql, List.of(after), Map.of(), 3,
                describe(true, (mode == TimeLimitMode.HINT ? "the hint cannot be placed (the first token is not"
                        + " SELECT), so " : "") + "max_execution_time and the read-only session default set on"
                        + " every call; max_execution_time covers SELECT statements only")), false);
    }

    private String describe(boolean read, String limit) {
        return server.label() + ": " + (read
                ? "a chained read-only transaction (ROLLBACK AND CHAIN on release, status flags verified)"
                : "a chained read-write transaction (COMMIT AND CHAIN, ROLLBACK AND CHAIN on failure)")
                + "; time limit: " + limit;
    }

    /**
     * A timeout in whole milliseconds, rounded up, at least 1 and at most {@code 2^32-1} (MySQL's maximum).
     *
     * @param timeout the timeout
     * @return milliseconds
     */
    static long millis(Duration timeout) {
        long ms;
        try {
            ms = timeout.toMillis() + (timeout.toNanosPart() % 1_000_000 == 0 ? 0 : 1);
        } catch (ArithmeticException tooLong) {
            ms = Long.MAX_VALUE;
        }
        return Math.max(1, Math.min(ms, 4_294_967_295L));
    }

    /**
     * Milliseconds as MariaDB's seconds with three decimals.
     *
     * @param ms milliseconds
     * @return for example {@code 0.300}
     */
    static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).toPlainString();
    }

    /**
     * A plan, and whether the server enforces its time limit.
     *
     * @param plan the plan
     * @param serverEnforcesLimit true when the statement carries a limit the server applies
     */
    public record Planned(SessionPlan plan, boolean serverEnforcesLimit) {
        /** Validates the fields. */
        public Planned {
            requireNonNull(plan, "plan is null");
        }
    }
}
