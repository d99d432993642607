package io.queryapigate.dialect.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One configured connection's access to its database: long-lived, shared by all requests, thread-safe.
 *
 * <p>The service creates a dialect at startup through {@link DialectFactory#create}, calls {@link #execute} from
 * many request threads at once, calls {@link #checkHealth} from its health checks, {@link #describe} when a saved
 * query's version is saved, and {@link #close} once at shutdown. A dialect owns its pool of sessions (connections)
 * and its session-safety strategy: every call must start from the same session state whatever earlier calls on a
 * reused session did (see {@link SessionStrategy}).
 *
 * <p>Failures are reported as {@link DialectException}s carrying a {@link DialectError}; a dialect never lets a
 * driver exception escape, and never puts credentials into exception messages.
 */
public interface Dialect extends AutoCloseable {

    /**
     * What this dialect guarantees; the service and the contract tests rely on it.
     *
     * @return an immutable set of capabilities
     */
    Set<Capability> capabilities();

    /**
     * The session-safety strategy, as data: what each call sends before, with and after the user's statement.
     *
     * @return the strategy; never null
     */
    SessionStrategy sessionStrategy();

    /**
     * The SQL family the service's guard parses this dialect's statements as: one of {@code postgres}, {@code
     * mysql}, {@code duckdb}, {@code trino}, {@code clickhouse}, {@code sqlite} or {@code generic}. It decides
     * the parser's options, which functions count as reading files or changing session state, the engine's
     * catalogue schemas, how a page is written, and, unless {@link #lexicalRules()} says otherwise, the quoting and
     * escaping rules and so how statements split. Third-party dialects close to one of these return it; others
     * return {@code generic}, which is the strictest.
     *
     * @return the family name; {@code generic} by default
     */
    default String sqlFamily() {
        return "generic";
    }

    /**
     * The language of this dialect's statements: {@code sql}, or {@code mongo} for a dialect whose {@link
     * QueryRequest#sql()} is a MongoDB query document in JSON (see {@link MongoQueryGuard}) with {@code :name}
     * placeholders as whole string leaves, and whose {@link QueryRequest#parameters()} are bound by {@link
     * Parameter#name()}. The service sends SQL only to {@code sql} dialects and query documents only to {@code mongo}
     * ones, and checks a query document with {@link MongoQueryGuard} before the dialect does.
     *
     * @return {@code sql} by default
     * @since SPI 1.5
     */
    default String queryLanguage() {
        return "sql";
    }

    /**
     * How this dialect's engine reads SQL text: which quotes make strings and which quote names, whether
     * backslashes escape, which comments exist and whether they nest, how names compare, and the other readings
     * its servers may use by version or setting. The service's guard, its {@code :name} marker parser and its
     * paging all read statements with these rules, so a dialect whose engine reads text differently from its
     * {@link #sqlFamily()} (or whose family is {@code generic}) gets a guard that follows its engine by
     * overriding this. Must return the same rules every time.
     *
     * @return the rules; by default the built-in rules of {@link #sqlFamily()} ({@link LexicalRules#forFamily})
     * @since SPI 1.1
     */
    default LexicalRules lexicalRules() {
        return LexicalRules.forFamily(sqlFamily());
    }

    /**
     * The catalog and schema that unqualified table names resolve to on this connection, for table allow-lists.
     * May open a session the first time it is called; must not change afterwards.
     *
     * @return the namespace; {@link TableNamespace#UNKNOWN} by default
     */
    default TableNamespace defaultNamespace() {
        return TableNamespace.UNKNOWN;
    }

    /**
     * Live figures about the dialect's sessions for the service's metrics, such as {@code pool.active}, {@code
     * pool.idle}, {@code pool.total} and {@code pool.waiting}. Called from the metrics reporter's thread at any time;
     * must be cheap and must not block. The set of names must not change after creation.
     *
     * @return name to current value; empty by default
     */
    default java.util.Map<String, Number> metrics() {
        return java.util.Map.of();
    }

    /**
     * What the connection's database user may do beyond what the gateway needs, as one human-readable line per
     * finding, for the operator: for example that the user is a superuser, can read or write files on the database
     * server, run programs there, terminate other sessions, see other sessions' SQL, or bypass row-level security.
     * Each line says what the user can do and what to do instead (which privilege to drop, which role to use). The
     * lines name no password and hold no other secret.
     *
     * <p>The service calls this once per connection at startup, in the background, and logs each line as a warning;
     * its {@code check --connect} command prints them. It is advice only: nothing is refused because of it.
     *
     * <p>May open a session (or send a request) and run read-only catalog queries; must return within about
     * {@code timeout} and must not change anything on the database. Must not throw: when the database cannot be
     * reached or the privileges cannot be read, return an empty list or a single line saying that they could not be
     * checked and why. Engines without a reliable way to tell return an empty list, which the default does.
     *
     * @param timeout the longest the check may take; positive
     * @return one line per finding, in a stable order; empty when nothing was found or nothing can be checked
     */
    default java.util.List<String> privilegeWarnings(Duration timeout) {
        return java.util.List.of();
    }

    /**
     * Runs one statement and pushes its result into {@code sink}, row by row, without buffering the whole result.
     *
     * <p>The dialect applies the request's time limit (on the database side wherever the engine allows), binds
     * {@link QueryRequest#parameters()} as real parameters, runs {@link AccessMode#READ} requests in a session that
     * refuses writes where it declares {@link Capability#SERVER_ENFORCED_READ_ONLY}, and stops reading after
     * {@link QueryRequest#maxRows()} rows (reporting {@link QueryStats#truncated()} when more were available).
     * It stops early, without error, when the sink's {@link RowSink#row} returns {@code false}.
     *
     * <p>Blocking: this method returns when the statement has finished or failed. It may be called concurrently from
     * any number of threads; it waits for a free session when the pool is exhausted, and fails with
     * {@link DialectError#UNAVAILABLE} if none frees up within the request's time limit.
     *
     * @param request the statement, its parameters and limits
     * @param sink where the columns and rows go; used only from the calling thread
     * @return counts for the finished call
     * @throws DialectException when the statement fails, times out, is cancelled or cannot reach the database
     */
    QueryStats execute(QueryRequest request, RowSink sink);

    /**
     * The columns {@code request}'s statement would return, asked of the database without running the statement:
     * prepared-statement metadata, a {@code DESCRIBE}, whatever the engine offers that plans or analyses a statement
     * but does not execute it. The service calls it when a saved query's version is saved, and keeps the answer with
     * the version (its API description shows them); never on a call's path.
     *
     * <p>The rules: nothing the statement does may happen (no rows read, no function called for its effect, no
     * write); where the engine evaluates constant expressions or scalar subqueries while analysing a statement, the
     * dialect says so in its documentation. The describe runs in a session prepared as for a {@link AccessMode#READ}
     * call (read-only where the engine allows, the session-safety strategy applied, the next call unaffected),
     * within {@link QueryRequest#timeout()}, waiting for a pooled session like {@link #execute}. {@code request}'s
     * parameters carry the declared types with null values, so that an engine that types {@code ?} markers from
     * their bound types can; {@link QueryRequest#mode()}, {@code maxRows} and {@code streaming} do not matter.
     *
     * <p>Columns come in result order with the name, type name and JDBC type that {@link #execute} would hand the
     * sink, and {@link ColumnInfo#nullability()} where the engine knows it.
     *
     * @param request the statement, with typed null parameters
     * @return the columns; an empty list for a statement that returns no rows (a write without {@code RETURNING},
     *     DDL); an empty {@code Optional} when this dialect cannot tell without running the statement (the default:
     *     a dialect that does not implement it; an engine that leaves a column's type open until values are bound)
     * @throws DialectException as {@link #execute} does: {@link DialectError#SYNTAX} for a statement the database
     *     refuses, {@link DialectError#UNAVAILABLE} when it cannot be reached, {@link DialectError#TIMEOUT}
     * @since SPI 1.2
     */
    default Optional<List<ColumnInfo>> describe(QueryRequest request) {
        return Optional.empty();
    }

    /**
     * The database server's product name and version as it reports them (JDBC's {@code DatabaseMetaData}, a
     * {@code version()} call), for an administrator testing a connection.
     *
     * @param timeout the longest it may take
     * @return such as {@code "PostgreSQL 16.4"}; empty by default (a dialect that cannot tell)
     * @throws DialectException with {@link DialectError#UNAVAILABLE} when the database cannot be reached
     * @since SPI 1.3
     */
    default Optional<String> serverVersion(Duration timeout) {
        return Optional.empty();
    }

    /**
     * The databases (or schemas, for engines where a database is a schema: MySQL, ClickHouse) that this connection's
     * credentials can see on its server, for an administrator choosing what to browse or connect to. System ones
     * ({@code information_schema}, {@code pg_catalog}, {@code system}) are left out.
     *
     * <p>Runs in a pooled session prepared as for a {@link AccessMode#READ} call, within {@code timeout}.
     *
     * @param timeout the longest it may take
     * @return the names, sorted; empty by default (a dialect that cannot tell)
     * @throws DialectException with {@link DialectError#UNAVAILABLE} when the database cannot be reached,
     *     {@link DialectError#TIMEOUT} when it does not answer in time
     * @since SPI 1.3
     */
    default List<String> databases(Duration timeout) {
        return List.of();
    }

    /**
     * The tables and views of one database, with their columns, primary keys and comments, read from the engine's
     * catalogue ({@code information_schema}, {@code pg_catalog}, {@code system.columns}, {@code duckdb_columns()}),
     * never from the tables themselves. System schemas are left out. Only what the connection's credentials may see
     * is listed (the catalogue's own filtering).
     *
     * <p>Runs in a pooled session prepared as for a {@link AccessMode#READ} call, within {@code timeout}; the next
     * call is unaffected.
     *
     * @param database empty for the database the connection points at (all its non-system schemas); else one of
     *     {@link #databases}' names. A dialect that cannot read another database's catalogue from its sessions
     *     refuses with {@link DialectError#SYNTAX} and a message saying so
     * @param timeout the longest it may take
     * @return the tables in a stable order (schema, then name); an empty {@code Optional} when this dialect cannot
     *     describe its catalogue (the default)
     * @throws DialectException as {@link #databases} does; {@link DialectError#SYNTAX} for an unknown database
     * @since SPI 1.3
     */
    default Optional<List<SchemaTable>> describeNamespace(Optional<String> database, Duration timeout) {
        return Optional.empty();
    }

    /**
     * Checks that the database answers within {@code timeout}.
     *
     * @param timeout the longest the check may take
     * @throws DialectException with {@link DialectError#UNAVAILABLE} when the database does not answer
     */
    void checkHealth(Duration timeout);

    /**
     * Releases every pooled session. Calls after close fail with {@link DialectError#UNAVAILABLE}. Idempotent.
     */
    @Override
    void close();
}
