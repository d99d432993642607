package io.queryapigate.dialect.testkit;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.TableNamespace;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract every dialect proves against its real database: subclass it once per database (and per server
 * version worth testing), supply the hooks, and every test below runs against that database.
 *
 * <p>Each test starts from a fresh fixture: {@link #setUpFixture} runs {@link #fixtureStatements()} through the
 * subclass's own access to the database (JDBC, HTTP), not through the dialect, so that a dialect bug cannot hide
 * in the fixture. The fixture is the table {@value #TABLE} with the rows of {@link #EXPECTED_ROWS}.
 *
 * <p>Tests that depend on a guarantee prove it when the dialect declares it in {@link Dialect#capabilities()}:
 * read-only enforcement ({@link Capability#SERVER_ENFORCED_READ_ONLY}), time limits ({@link
 * Capability#SERVER_SIDE_TIMEOUT}) and cancellation ({@link Capability#CANCELLATION}); a dialect that lacks one
 * must say so in {@link #lackedCapabilities()}, and the test then checks that it is not declared. Nothing is skipped.
 *
 * <p>Dialects are created through {@link #dialect(int)}, which closes them after each test.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class AbstractDialectContractTest {

    /** The fixture table. */
    public static final String TABLE = "qag_contract";

    /** The fixture's columns, in table order. */
    public static final List<String> COLUMNS =
            List.of("id", "big", "amount", "ratio", "name", "active", "created_on", "updated_at");

    /** The fixture's rows ordered by id, in {@link #COLUMNS} order, as the dialect must deliver them. */
    public static final List<List<Object>> EXPECTED_ROWS = List.of(
            List.of(1, 9_007_199_254_740_993L, new BigDecimal("1234.50"), 0.5d, "alpha", true,
                    LocalDate.of(2024, 1, 15), LocalDateTime.of(2024, 1, 15, 10, 30, 0)),
            List.of(2, -42L, new BigDecimal("-0.01"), -1.25d, "beta", false,
                    LocalDate.of(1999, 12, 31), LocalDateTime.of(1999, 12, 31, 23, 59, 59)),
            List.of(3, 0L, new BigDecimal("0.00"), 0.0d, "gamma ünïcödé ✓", true,
                    LocalDate.of(2000, 2, 29), LocalDateTime.of(2000, 2, 29, 0, 0, 0)),
            List.of(4, 4_000_000_000L, new BigDecimal("99999.99"), 1.0e10d, "it's", false,
                    LocalDate.of(2038, 1, 19), LocalDateTime.of(2038, 1, 19, 3, 14, 8)),
            Arrays.asList(5, null, null, null, null, null, null, null));

    /** The portable SQL that creates the fixture; see {@link #fixtureStatements()}. */
    public static final List<String> FIXTURE_SQL = List.of(
            "DROP TABLE IF EXISTS qag_contract_evil",
            "DROP TABLE IF EXISTS " + TABLE,
            "CREATE TABLE " + TABLE + " (id INTEGER NOT NULL PRIMARY KEY, big BIGINT, amount DECIMAL(12,2),"
                    + " ratio DOUBLE PRECISION, name VARCHAR(100), active BOOLEAN, created_on DATE,"
                    + " updated_at TIMESTAMP)",
            "INSERT INTO " + TABLE + " VALUES (1, 9007199254740993, 1234.50, 0.5, 'alpha', TRUE,"
                    + " DATE '2024-01-15', TIMESTAMP '2024-01-15 10:30:00')",
            "INSERT INTO " + TABLE + " VALUES (2, -42, -0.01, -1.25, 'beta', FALSE,"
                    + " DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59')",
            "INSERT INTO " + TABLE + " VALUES (3, 0, 0.00, 0.0, 'gamma ünïcödé ✓', TRUE,"
                    + " DATE '2000-02-29', TIMESTAMP '2000-02-29 00:00:00')",
            "INSERT INTO " + TABLE + " VALUES (4, 4000000000, 99999.99, 10000000000.0, 'it''s', FALSE,"
                    + " DATE '2038-01-19', TIMESTAMP '2038-01-19 03:14:08')",
            "INSERT INTO " + TABLE + " (id) VALUES (5)");

    /** The schema browser's fixture table; see {@link #schemaFixtureStatements()}. */
    public static final String SCHEMA_TABLE = "qag_schema";
    /** The schema browser's fixture view. */
    public static final String SCHEMA_VIEW = "qag_schema_view";
    /** The comment on {@value #SCHEMA_TABLE}. */
    public static final String TABLE_COMMENT = "qag schema table";
    /** The comment on {@value #SCHEMA_TABLE}{@code .label}. */
    public static final String COLUMN_COMMENT = "the label";

    /** The time limit of ordinary calls in these tests. */
    protected static final Duration LIMIT = Duration.ofSeconds(30);

    private static final String SELECT_ALL = "SELECT " + String.join(", ", COLUMNS) + " FROM " + TABLE + " ORDER BY id";

    private final List<Dialect> opened = new ArrayList<>();

    // ---------------------------------------------------------------- hooks

    /**
     * Creates the dialect under test, through its factory, with the given pool size and the subclass's usual
     * properties. Called after {@link #setUpFixture}, possibly several times per test.
     *
     * @param poolSize the pool size for {@code DialectContext.poolSize}
     * @return a new dialect
     * @throws Exception when the database cannot be prepared
     */
    protected abstract Dialect createDialect(int poolSize) throws Exception;

    /**
     * Runs the fixture statements, in order, through the subclass's own access to the database (not the
     * dialect). Called before each test.
     *
     * @param statements the statements, normally {@link #fixtureStatements()}
     * @throws Exception when the database refuses them
     */
    protected abstract void setUpFixture(List<String> statements) throws Exception;

    /**
     * The statements that create {@value #TABLE} with the rows of {@link #EXPECTED_ROWS}. The default, {@link
     * #FIXTURE_SQL}, is standard SQL that DuckDB, PostgreSQL and MySQL accept; engines with other DDL override it
     * and must produce the same rows.
     *
     * @return the statements
     */
    protected List<String> fixtureStatements() {
        return FIXTURE_SQL;
    }

    /**
     * A read that runs far longer than 2 seconds (minutes, ideally) without using much memory, such as a sleep
     * function or a big cross join that returns one row.
     *
     * @return the SQL
     */
    protected abstract String slowQuery();

    /**
     * A read that runs between roughly 0.3 and 5 seconds, used right after a timed-out call to show that the
     * short limit did not stay on the session. Empty to skip that part.
     *
     * @return the SQL, or empty
     */
    protected Optional<String> moderatelySlowQuery() {
        return Optional.empty();
    }

    /**
     * Pairs of a statement that changes session state and a query that reads it, each with the value the query
     * returns in a fresh session. At least one is required.
     *
     * @return the probes
     */
    protected abstract List<SessionStateProbe> sessionStateProbes();

    /**
     * Makes the database unreachable for {@code dialect} the way an operator or a failure would: stop the server,
     * remove the file. Called once, at the end of a test.
     *
     * @param dialect the dialect that must then report {@link DialectError#UNAVAILABLE}
     * @throws Exception when that fails
     */
    protected abstract void makeUnavailable(Dialect dialect) throws Exception;

    /**
     * Writes that a read-only call must refuse; they target the fixture.
     *
     * @return the statements
     */
    protected List<String> writeStatements() {
        return List.of(
                "INSERT INTO " + TABLE + " (id, name) VALUES (99, 'intruder')",
                "UPDATE " + TABLE + " SET name = 'changed' WHERE id = 1",
                "DELETE FROM " + TABLE,
                "CREATE TABLE qag_contract_evil (x INTEGER)");
    }

    /**
     * The classes a refused write may be reported as; {@link DialectError#NOT_READ_ONLY} unless the engine can
     * only say "permission denied".
     *
     * @return the accepted classes
     */
    protected Set<DialectError> readOnlyViolationErrors() {
        return Set.of(DialectError.NOT_READ_ONLY);
    }

    /**
     * Whether the dialect describes statements ({@link Dialect#describe}). A dialect that cannot says so here, and
     * the describe tests then check that it answers empty, and never runs the statement to find out.
     *
     * @return true by default
     */
    protected boolean describesStatements() {
        return true;
    }

    /**
     * Whether {@link Dialect#describe} reports the fixture's nullability: {@code id} never NULL, {@code name}
     * nullable. A dialect whose engine does not say checks instead that every column is {@link
     * Nullability#UNKNOWN}.
     *
     * @return false by default
     */
    protected boolean describesNullability() {
        return false;
    }

    /**
     * A read that the database accepts and describes but that fails when it runs (a run-time error, not a
     * syntax one), for showing that {@link Dialect#describe} does not run it. One column. The default, a scalar
     * subquery that returns five rows, fails at run time on PostgreSQL, MySQL, DuckDB and Trino.
     *
     * @return the SQL
     */
    protected String failsWhenRun() {
        return "SELECT (SELECT id FROM " + TABLE + ") AS one_id";
    }

    /**
     * Whether the dialect describes its catalogue ({@link Dialect#databases}, {@link Dialect#describeNamespace}). A
     * dialect built against SPI 1.2 says no here, and the catalogue tests then check that it answers empty.
     *
     * @return true by default
     */
    protected boolean describesNamespaces() {
        return true;
    }

    /**
     * Whether the dialect reports its server's product and version ({@link Dialect#serverVersion}); one built
     * against SPI 1.2 says no here, and the test then checks that it answers empty.
     *
     * @return true by default
     */
    protected boolean reportsServerVersion() {
        return true;
    }

    /**
     * The statements that create the schema browser's fixture, run through {@link #setUpFixture} by the catalogue
     * tests only: the table {@value #SCHEMA_TABLE} with columns {@code id} (integer, NOT NULL), {@code code}
     * (text, NOT NULL), {@code label} (text, nullable, with the comment {@value #COLUMN_COMMENT}), a primary key of
     * {@code (id, code)} (or the engine's nearest: a sorting key), the table comment {@value #TABLE_COMMENT}, and
     * the view {@value #SCHEMA_VIEW} of its {@code id} and {@code label}. They must drop what an earlier run left.
     * The default is PostgreSQL's and DuckDB's DDL.
     *
     * @return the statements
     */
    protected List<String> schemaFixtureStatements() {
        return List.of(
                "DROP VIEW IF EXISTS " + SCHEMA_VIEW,
                "DROP TABLE IF EXISTS " + SCHEMA_TABLE,
                "CREATE TABLE " + SCHEMA_TABLE + " (id INTEGER NOT NULL, code VARCHAR(20) NOT NULL, label VARCHAR(40),"
                        + " PRIMARY KEY (id, code))",
                "COMMENT ON TABLE " + SCHEMA_TABLE + " IS '" + TABLE_COMMENT + "'",
                "COMMENT ON COLUMN " + SCHEMA_TABLE + ".label IS '" + COLUMN_COMMENT + "'",
                "CREATE VIEW " + SCHEMA_VIEW + " AS SELECT id, label FROM " + SCHEMA_TABLE);
    }

    /**
     * Whether the engine keeps table comments; one that cannot (ClickHouse before 21.6) checks that none is
     * reported.
     *
     * @return true by default
     */
    protected boolean keepsTableComments() {
        return true;
    }

    /**
     * Whether the engine has primary keys or sorting keys that {@link #schemaFixtureStatements()} declares; one
     * without (Trino) checks that no column is reported as part of one.
     *
     * @return true by default
     */
    protected boolean hasPrimaryKeys() {
        return true;
    }

    /**
     * Where the fixture's tables live as {@link Dialect#describeNamespace} names it; by default the dialect's
     * {@link Dialect#defaultNamespace()}.
     *
     * @param dialect the dialect under test
     * @return the namespace
     */
    protected TableNamespace fixtureNamespace(Dialect dialect) {
        return dialect.defaultNamespace();
    }

    /**
     * A dialect, created through {@link #createDialect} and closed after the test.
     *
     * @param poolSize the pool size
     * @return the dialect
     * @throws Exception when creation fails
     */
    protected final Dialect dialect(int poolSize) throws Exception {
        Dialect dialect = requireNonNull(createDialect(poolSize), "createDialect returned null");
        opened.add(dialect);
        return dialect;
    }

    /**
     * A read request with the contract's usual limits.
     *
     * @param sql the statement
     * @param parameters its parameters
     * @return the request
     */
    protected static QueryRequest read(String sql, Parameter... parameters) {
        return QueryRequest.read(sql, List.of(parameters), LIMIT, 10_000);
    }

    /**
     * Runs {@code request} into a new {@link RecordingSink}.
     *
     * @param dialect the dialect
     * @param request the request
     * @return the sink, holding the result
     */
    protected static RecordingSink run(Dialect dialect, QueryRequest request) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        return sink;
    }

    /**
     * The failure of {@code request}; fails the test when the call succeeds.
     *
     * @param dialect the dialect
     * @param request the request
     * @return the exception
     */
    protected static DialectException failure(Dialect dialect, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as("expected %s to fail", request.sql()).isNotNull();
        return e;
    }

    @BeforeEach
    final void createFixture() throws Exception {
        setUpFixture(fixtureStatements());
    }

    @AfterEach
    final void closeDialects() {
        for (Dialect dialect : opened) {
            dialect.close();
        }
        opened.clear();
    }

    // ---------------------------------------------------------------- a. reads, types, parameters

    @Test
    void readDeliversRowsColumnsTypesAndNulls() throws Exception {
        Dialect dialect = dialect(1);
        RecordingSink sink = new RecordingSink();
        QueryStats stats = dialect.execute(read(SELECT_ALL), sink);

        assertThat(stats).isEqualTo(new QueryStats(5, -1, false));
        assertThat(sink.columnsCalls()).isEqualTo(1);
        assertThat(sink.columnNames()).isEqualTo(COLUMNS);
        List<JDBCType> types = sink.columns().stream().map(ColumnInfo::type).toList();
        assertThat(types.get(1)).isEqualTo(JDBCType.BIGINT);
        assertThat(types.get(2)).isIn(JDBCType.DECIMAL, JDBCType.NUMERIC);
        assertThat(types.get(3)).isIn(JDBCType.DOUBLE, JDBCType.FLOAT);
        assertThat(types.get(4)).isIn(JDBCType.VARCHAR, JDBCType.NVARCHAR, JDBCType.LONGVARCHAR, JDBCType.CHAR);
        assertThat(types.get(5)).isIn(JDBCType.BOOLEAN, JDBCType.BIT);
        assertThat(types.get(6)).isEqualTo(JDBCType.DATE);
        assertThat(types.get(7)).isEqualTo(JDBCType.TIMESTAMP);
        assertThat(sink.columns()).allSatisfy(c -> assertThat(c.typeName()).isNotBlank());

        assertThat(sink.rows()).hasSize(5);
        for (int r = 0; r < 5; r++) {
            List<Object> row = sink.rows().get(r);
            List<Object> expected = EXPECTED_ROWS.get(r);
            assertThat(((Number) row.get(0)).longValue()).as("id").isEqualTo(((Number) expected.get(0)).longValue());
            assertThat(row.get(0)).as("id kind").isInstanceOfAny(Integer.class, Long.class);
            for (int c = 1; c < COLUMNS.size(); c++) {
                // equals() on BigDecimal also compares the scale: 1234.50 must not come back as 1234.5
                assertThat(row.get(c)).as("row %d, %s", r + 1, COLUMNS.get(c)).isEqualTo(expected.get(c));
            }
        }
        assertThat(sink.rows().get(0).get(1)).isInstanceOf(Long.class);
        assertThat(((BigDecimal) sink.rows().get(0).get(2)).scale()).isEqualTo(2);
        assertThat(sink.rows().get(4).subList(1, COLUMNS.size())).containsOnlyNulls();
    }

    @Test
    void emptyResultStillDeliversColumns() throws Exception {
        RecordingSink sink = run(dialect(1), read("SELECT id, name FROM " + TABLE + " WHERE id < 0"));
        assertThat(sink.columnsCalls()).isEqualTo(1);
        assertThat(sink.columnNames()).containsExactly("id", "name");
        assertThat(sink.rows()).isEmpty();
    }

    @Test
    void boundParametersOfEachTypeSelectTheRightRows() throws Exception {
        Dialect dialect = dialect(1);
        record Case(String where, Parameter parameter, List<Long> ids) {}
        List<Case> cases = List.of(
                new Case("id = ?", new Parameter("id", 3L, JDBCType.BIGINT), List.of(3L)),
                new Case("big = ?", new Parameter("big", 9_007_199_254_740_993L, JDBCType.BIGINT), List.of(1L)),
                new Case("amount = ?", new Parameter("amount", new BigDecimal("-0.01"), JDBCType.DECIMAL), List.of(2L)),
                new Case("ratio = ?", new Parameter("ratio", 1.0e10d, JDBCType.DOUBLE), List.of(4L)),
                new Case("name = ?", new Parameter("name", "gamma ünïcödé ✓", JDBCType.VARCHAR), List.of(3L)),
                new Case("name = ?", new Parameter("name", "it's", JDBCType.VARCHAR), List.of(4L)),
                new Case("active = ?", new Parameter("active", false, JDBCType.BOOLEAN), List.of(2L, 4L)),
                new Case("created_on = ?", new Parameter("day", LocalDate.of(2000, 2, 29), JDBCType.DATE), List.of(3L)),
                new Case("updated_at = ?",
                        new Parameter("at", LocalDateTime.of(2038, 1, 19, 3, 14, 8), JDBCType.TIMESTAMP), List.of(4L)),
                new Case("created_on > ?", new Parameter("after", LocalDate.of(2020, 1, 1), JDBCType.DATE),
                        List.of(1L, 4L)),
                new Case("coalesce(name, 'n/a') = coalesce(?, 'n/a')", new Parameter("name", null, JDBCType.VARCHAR),
                        List.of(5L)));
        for (Case c : cases) {
            RecordingSink sink = run(dialect, read("SELECT id FROM " + TABLE + " WHERE " + c.where() + " ORDER BY id",
                    c.parameter()));
            assertThat(sink.column("id")).as(c.where() + " with " + c.parameter())
                    .map(v -> ((Number) v).longValue())
                    .isEqualTo(c.ids());
        }
    }

    @Test
    void aStringParameterIsDataNeverSql() throws Exception {
        Dialect dialect = dialect(1);
        String attack = "x'; DROP TABLE " + TABLE + "; --";
        RecordingSink sink = run(dialect, read("SELECT id, name FROM " + TABLE + " WHERE name = ?",
                new Parameter("name", attack, JDBCType.VARCHAR)));
        assertThat(sink.rows()).isEmpty();

        RecordingSink echo = run(dialect, read("SELECT id, ? AS echoed FROM " + TABLE + " WHERE id = 1",
                new Parameter("name", attack, JDBCType.VARCHAR)));
        assertThat(echo.column("echoed")).containsExactly(attack);
        assertThat(countRows(dialect)).isEqualTo(5);
    }

    // ---------------------------------------------------------------- b. row limits and early stop

    @Test
    void maxRowsStopsTheReadAndReportsTruncation() throws Exception {
        Dialect dialect = dialect(1);
        String sql = "SELECT id FROM " + TABLE + " ORDER BY id";

        RecordingSink three = new RecordingSink();
        QueryStats stats = dialect.execute(QueryRequest.read(sql, List.of(), LIMIT, 3), three);
        assertThat(three.column("id")).map(v -> ((Number) v).longValue()).containsExactly(1L, 2L, 3L);
        assertThat(stats).isEqualTo(new QueryStats(3, -1, true));

        RecordingSink exactlyFive = new RecordingSink();
        assertThat(dialect.execute(QueryRequest.read(sql, List.of(), LIMIT, 5), exactlyFive))
                .isEqualTo(new QueryStats(5, -1, false));
        assertThat(exactlyFive.rows()).hasSize(5);
    }

    @Test
    void aSinkReturningFalseStopsTheReadWithoutError() throws Exception {
        Dialect dialect = dialect(1);
        RecordingSink two = new RecordingSink(2);
        QueryStats stats = dialect.execute(read("SELECT id FROM " + TABLE + " ORDER BY id"), two);
        assertThat(two.column("id")).map(v -> ((Number) v).longValue()).containsExactly(1L, 2L);
        assertThat(stats.rows()).isEqualTo(2);
        assertThat(stats.truncated()).isFalse();
        assertThat(countRows(dialect)).as("the next call on the single session works").isEqualTo(5);
    }

    /**
     * The capabilities this dialect deliberately does not have. A capability-gated test then checks that the
     * dialect indeed does not declare it (instead of being skipped); a dialect that lacks one without saying so here
     * fails the test. Empty by default: every dialect is expected to have them all.
     *
     * @return the capabilities the subclass knows its dialect lacks
     */
    protected java.util.Set<Capability> lackedCapabilities() {
        return java.util.Set.of();
    }

    private boolean lacksOnPurpose(Dialect dialect, Capability capability) {
        boolean declared = dialect.capabilities().contains(capability);
        assertThat(declared || lackedCapabilities().contains(capability))
                .as("the dialect does not declare " + capability + "; override lackedCapabilities() if that is meant")
                .isTrue();
        assertThat(declared && lackedCapabilities().contains(capability))
                .as(capability + " is both declared and listed in lackedCapabilities()").isFalse();
        return !declared;
    }

    // ---------------------------------------------------------------- c. read-only enforced by the database

    @Test
    void writesSentAsReadsAreRefusedByTheDatabase() throws Exception {
        Dialect dialect = dialect(1);
        if (lacksOnPurpose(dialect, Capability.SERVER_ENFORCED_READ_ONLY)) {
            return;
        }
        for (String write : writeStatements()) {
            DialectException e = failure(dialect, read(write));
            assertThat(e.error()).as(write + ": " + e.getMessage()).isIn(readOnlyViolationErrors());
        }
        assertThat(countRows(dialect)).isEqualTo(5);
        assertThat(run(dialect, read("SELECT name FROM " + TABLE + " WHERE id = 1")).singleValue()).isEqualTo("alpha");
        assertThat(failure(dialect, read("SELECT * FROM qag_contract_evil")).error()).isEqualTo(DialectError.SYNTAX);
    }

    // ---------------------------------------------------------------- d. time limits

    @Test
    void theTimeLimitStopsASlowQueryAndDoesNotStayOnTheSession() throws Exception {
        Dialect dialect = dialect(1);
        if (lacksOnPurpose(dialect, Capability.SERVER_SIDE_TIMEOUT)) {
            return;
        }

        long start = System.nanoTime();
        DialectException e = failure(dialect, read(slowQuery()).withTimeout(Duration.ofMillis(300)));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(elapsedMillis).as("stopped soon after the 300 ms limit").isBetween(250L, 1_500L);

        assertThat(countRows(dialect)).isEqualTo(5);
        Optional<String> moderate = moderatelySlowQuery();
        if (moderate.isPresent()) {
            RecordingSink sink = run(dialect, read(moderate.get()));
            assertThat(sink.rows()).as("the slower query ran to its end under a 30 s limit").isNotEmpty();
        }
    }

    @Test
    void theCancelCallbackStopsARunningQuery() throws Exception {
        Dialect dialect = dialect(1);
        if (lacksOnPurpose(dialect, Capability.CANCELLATION)) {
            return;
        }

        RecordingSink sink = new RecordingSink();
        Thread canceller = sink.cancelAfter(java.time.Duration.ofMillis(200));
        long start = System.nanoTime();
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(read(slowQuery()), sink));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        canceller.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(e).as("the slow query was not cancelled").isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.CANCELLED);
        assertThat(elapsedMillis).isLessThan(2_000L);
        assertThat(countRows(dialect)).isEqualTo(5);
        assertThatCode(() -> sink.cancel()).as("cancelling after the end does nothing").doesNotThrowAnyException();
    }

    // ---------------------------------------------------------------- e. session state does not leak

    @Test
    void sessionStateDoesNotLeakIntoTheNextCall() throws Exception {
        List<SessionStateProbe> probes = sessionStateProbes();
        assertThat(probes).as("at least one session state probe").isNotEmpty();
        Dialect dialect = dialect(1);
        for (SessionStateProbe probe : probes) {
            String before = text(run(dialect, read(probe.read())));
            assertThat(before).as(probe.description() + ": default in a fresh session").isEqualTo(probe.expectedDefault());

            run(dialect, read(probe.change()).withMode(probe.changeMode()));

            String after = text(run(dialect, read(probe.read())));
            assertThat(after).as(probe.description() + ": the next call on the single session").isEqualTo(probe.expectedDefault());
        }
    }

    // ---------------------------------------------------------------- f. health and close

    @Test
    void healthPassesThenReportsUnavailable() throws Exception {
        Dialect dialect = dialect(1);
        assertThatCode(() -> dialect.checkHealth(Duration.ofSeconds(5))).doesNotThrowAnyException();
        makeUnavailable(dialect);
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.checkHealth(Duration.ofSeconds(5)));
        assertThat(e).as("checkHealth after makeUnavailable").isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.error().retryable()).isTrue();
    }

    @Test
    void callsAfterCloseFailUnavailable() throws Exception {
        Dialect dialect = dialect(1);
        assertThat(countRows(dialect)).isEqualTo(5);
        dialect.close();
        dialect.close();
        assertThat(failure(dialect, read("SELECT 1")).error()).isEqualTo(DialectError.UNAVAILABLE);
        if (describesStatements()) {
            DialectException described = catchThrowableOfType(DialectException.class,
                    () -> dialect.describe(describing("SELECT 1")));
            assertThat(described).as("describe after close").isNotNull();
            assertThat(described.error()).isEqualTo(DialectError.UNAVAILABLE);
        }
        if (reportsServerVersion()) {
            DialectException version = catchThrowableOfType(DialectException.class, () -> dialect.serverVersion(LIMIT));
            assertThat(version).as("serverVersion after close").isNotNull();
            assertThat(version.error()).isEqualTo(DialectError.UNAVAILABLE);
        }
        if (describesNamespaces()) {
            DialectException databases = catchThrowableOfType(DialectException.class, () -> dialect.databases(LIMIT));
            assertThat(databases).as("databases after close").isNotNull();
            assertThat(databases.error()).isEqualTo(DialectError.UNAVAILABLE);
            DialectException namespace = catchThrowableOfType(DialectException.class,
                    () -> dialect.describeNamespace(Optional.empty(), LIMIT));
            assertThat(namespace).as("describeNamespace after close").isNotNull();
            assertThat(namespace.error()).isEqualTo(DialectError.UNAVAILABLE);
        }
        DialectException health = catchThrowableOfType(DialectException.class, () -> dialect.checkHealth(Duration.ofSeconds(5)));
        assertThat(health).isNotNull();
        assertThat(health.error()).isEqualTo(DialectError.UNAVAILABLE);
    }

    // ---------------------------------------------------------------- g. error classes

    @Test
    void invalidStatementsAreSyntaxErrors() throws Exception {
        Dialect dialect = dialect(1);
        DialectException syntax = failure(dialect, read("SELEC id FROM " + TABLE));
        assertThat(syntax.error()).as(syntax.getMessage()).isEqualTo(DialectError.SYNTAX);
        DialectException unknownTable = failure(dialect, read("SELECT * FROM qag_no_such_table"));
        assertThat(unknownTable.error()).as(unknownTable.getMessage()).isEqualTo(DialectError.SYNTAX);
        DialectException unknownColumn = failure(dialect, read("SELECT no_such_column FROM " + TABLE));
        assertThat(unknownColumn.error()).as(unknownColumn.getMessage()).isEqualTo(DialectError.SYNTAX);
        assertThat(countRows(dialect)).as("the session is usable after errors").isEqualTo(5);
    }

    // ---------------------------------------------------------------- h. concurrency

    @Test
    void concurrentReadsOnASmallPoolAllSucceedWithTheirOwnResults() throws Exception {
        Dialect dialect = dialect(2);
        int threads = 8;
        int callsPerThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    int ok = 0;
                    for (int i = 0; i < callsPerThread; i++) {
                        int id = (thread + i) % 4 + 1;
                        try {
                            RecordingSink sink = run(dialect, read("SELECT id, name FROM " + TABLE + " WHERE id = ?",
                                    new Parameter("id", (long) id, JDBCType.BIGINT)));
                            Object name = sink.rows().size() == 1 ? sink.rows().get(0).get(1) : null;
                            if (EXPECTED_ROWS.get(id - 1).get(4).equals(name)) {
                                ok++;
                            } else {
                                problems.add("id " + id + " returned " + sink.rows());
                            }
                        } catch (RuntimeException e) {
                            problems.add("id " + id + " failed: " + e);
                        }
                    }
                    return ok;
                }));
            }
            start.countDown();
            int ok = 0;
            for (Future<Integer> f : done) {
                ok += f.get(90, TimeUnit.SECONDS);
            }
            assertThat(problems).isEmpty();
            assertThat(ok).isEqualTo(threads * callsPerThread);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------- i. the session plan

    @Test
    void theSessionPlanCarriesTheStatement() throws Exception {
        Dialect dialect = dialect(1);
        QueryRequest request = read("SELECT id FROM " + TABLE + " WHERE id = ?", new Parameter("id", 1L, JDBCType.BIGINT));
        SessionPlan plan = dialect.sessionStrategy().plan(request);
        assertThat(plan.statement()).contains(request.sql());
        assertThat(plan.description()).isNotBlank();
        SessionPlan writePlan = dialect.sessionStrategy().plan(request.withMode(AccessMode.WRITE));
        assertThat(writePlan.statement()).contains(request.sql());
    }

    // ---------------------------------------------------------------- j. describing without running

    @Test
    void describeNamesTheColumnsAndTypesThatARunDelivers() throws Exception {
        Dialect dialect = dialect(1);
        String sql = "SELECT id, amount, name, created_on, updated_at, active FROM " + TABLE + " WHERE id = ?";
        Optional<List<ColumnInfo>> described = dialect.describe(describing(sql, new Parameter("id", null, JDBCType.BIGINT)));
        if (!describesStatements()) {
            assertThat(described).isEmpty();
            return;
        }
        assertThat(described).isPresent();
        List<ColumnInfo> columns = described.get();
        assertThat(columns).extracting(ColumnInfo::name)
                .containsExactly("id", "amount", "name", "created_on", "updated_at", "active");
        assertThat(columns.get(0).type()).isIn(JDBCType.INTEGER, JDBCType.BIGINT);
        assertThat(columns.get(1).type()).isIn(JDBCType.DECIMAL, JDBCType.NUMERIC);
        assertThat(columns.get(2).type()).isIn(JDBCType.VARCHAR, JDBCType.NVARCHAR, JDBCType.LONGVARCHAR, JDBCType.CHAR);
        assertThat(columns.get(3).type()).isEqualTo(JDBCType.DATE);
        assertThat(columns.get(4).type()).isEqualTo(JDBCType.TIMESTAMP);
        assertThat(columns.get(5).type()).isIn(JDBCType.BOOLEAN, JDBCType.BIT);

        RecordingSink ran = run(dialect, read(sql, new Parameter("id", 1L, JDBCType.BIGINT)));
        assertThat(columns).as("what a run of the statement hands the sink")
                .map(c -> new ColumnInfo(c.name(), c.typeName(), c.type()))
                .isEqualTo(ran.columns().stream().map(c -> new ColumnInfo(c.name(), c.typeName(), c.type())).toList());
        if (describesNullability()) {
            assertThat(columns.get(0).nullability()).as("id is NOT NULL").isEqualTo(Nullability.NO_NULLS);
            assertThat(columns.get(2).nullability()).as("name").isEqualTo(Nullability.NULLABLE);
        } else {
            assertThat(columns).extracting(ColumnInfo::nullability).containsOnly(Nullability.UNKNOWN);
        }
    }

    @Test
    void describeDoesNotRunTheStatement() throws Exception {
        Dialect dialect = dialect(1);
        DialectException whenRun = failure(dialect, read(failsWhenRun()));
        assertThat(whenRun.error()).as(whenRun.getMessage()).isNotEqualTo(DialectError.UNAVAILABLE);

        long start = System.nanoTime();
        Optional<List<ColumnInfo>> slow = dialect.describe(describing(slowQuery()));
        Optional<List<ColumnInfo>> failing = dialect.describe(describing(failsWhenRun()));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(elapsedMillis).as("the slow query (minutes when run) was described, not run").isLessThan(5_000L);
        if (describesStatements()) {
            assertThat(slow).as("the slow query").hasValueSatisfying(columns -> assertThat(columns).hasSize(1));
            assertThat(failing).as("a statement that fails when run").hasValueSatisfying(columns ->
                    assertThat(columns).hasSize(1));
        } else {
            assertThat(slow).isEmpty();
            assertThat(failing).isEmpty();
        }
        assertThat(countRows(dialect)).as("the single session is free and usable").isEqualTo(5);
    }

    @Test
    void describingAWriteAnswersNoColumnsAndChangesNothing() throws Exception {
        Dialect dialect = dialect(1);
        for (String write : writeStatements()) {
            Optional<List<ColumnInfo>> described = dialect.describe(describing(write));
            if (describesStatements()) {
                assertThat(described).as(write).contains(List.of());
            } else {
                assertThat(described).as(write).isEmpty();
            }
        }
        assertThat(countRows(dialect)).isEqualTo(5);
        assertThat(run(dialect, read("SELECT name FROM " + TABLE + " WHERE id = 1")).singleValue()).isEqualTo("alpha");
        assertThat(failure(dialect, read("SELECT * FROM qag_contract_evil")).error()).isEqualTo(DialectError.SYNTAX);
    }

    @Test
    void describeRefusesAnInvalidStatementAndLeavesTheSessionAsItWas() throws Exception {
        Dialect dialect = dialect(1);
        if (describesStatements()) {
            DialectException unknownColumn = catchThrowableOfType(DialectException.class,
                    () -> dialect.describe(describing("SELECT no_such_column FROM " + TABLE)));
            assertThat(unknownColumn).as("describing an unknown column").isNotNull();
            assertThat(unknownColumn.error()).as(unknownColumn.getMessage()).isEqualTo(DialectError.SYNTAX);
        }
        dialect.describe(describing("SELECT id FROM " + TABLE));
        assertThat(countRows(dialect)).isEqualTo(5);
        if (dialect.capabilities().contains(Capability.SERVER_ENFORCED_READ_ONLY)) {
            String write = writeStatements().get(0);
            assertThat(failure(dialect, read(write)).error()).as("a read after describing is still read-only")
                    .isIn(readOnlyViolationErrors());
        }
        assertThat(countRows(dialect)).isEqualTo(5);
    }

    // ---------------------------------------------------------------- l. a write's ceiling of affected rows

    @Test
    void aWriteOverItsCeilingIsRolledBackAndReadersStayReadOnly() throws Exception {
        Dialect dialect = dialect(1);
        if (lacksOnPurpose(dialect, Capability.AFFECTED_ROWS_CEILING)) {
            return;
        }
        String update = "UPDATE " + TABLE + " SET name = 'ceiling' WHERE id <= 3";
        AffectedRowsExceeded over = catchThrowableOfType(AffectedRowsExceeded.class,
                () -> dialect.execute(ceiling(update, 2), new RecordingSink()));
        assertThat(over).as("three rows changed, two allowed").isNotNull();
        assertThat(over.affected()).isEqualTo(3);
        assertThat(over.ceiling()).isEqualTo(2);
        assertThat(over.error()).isEqualTo(DialectError.ROW_LIMIT);
        assertThat(ceilingRows(dialect)).as("rolled back").isZero();
        assertReaderAsBefore(dialect);

        QueryStats stats = dialect.execute(ceiling(update, 3), new RecordingSink());
        assertThat(stats.updateCount()).isEqualTo(3);
        assertThat(ceilingRows(dialect)).as("committed within the ceiling").isEqualTo(3);
        assertReaderAsBefore(dialect);
        QueryStats none = dialect.execute(ceiling("DELETE FROM " + TABLE + " WHERE id = -1", 1), new RecordingSink());
        assertThat(none.updateCount()).isZero();
        assertThat(countRows(dialect)).isEqualTo(5);
    }

    private static QueryRequest ceiling(String sql, long maxAffectedRows) {
        return new QueryRequest(sql, List.of(), AccessMode.WRITE, LIMIT, 100, false, "contract", null,
                maxAffectedRows);
    }

    private static long ceilingRows(Dialect dialect) {
        Object count = run(dialect, read("SELECT count(*) FROM " + TABLE + " WHERE name = 'ceiling'")).singleValue();
        return ((Number) count).longValue();
    }

    /** The single session after a write: its defaults, and read-only for a read where the database enforces it. */
    private void assertReaderAsBefore(Dialect dialect) {
        SessionStateProbe probe = sessionStateProbes().get(0);
        assertThat(text(run(dialect, read(probe.read())))).as(probe.description() + " after a write with a ceiling")
                .isEqualTo(probe.expectedDefault());
        if (dialect.capabilities().contains(Capability.SERVER_ENFORCED_READ_ONLY)) {
            assertThat(failure(dialect, read(writeStatements().get(0))).error())
                    .as("a read after a write with a ceiling is still read-only").isIn(readOnlyViolationErrors());
        }
    }

    // ---------------------------------------------------------------- k. the schema browser and the server's version

    @Test
    void describeNamespaceShowsTablesViewsColumnsKeysAndComments() throws Exception {
        setUpFixture(schemaFixtureStatements());
        Dialect dialect = dialect(1);
        Optional<List<SchemaTable>> described = dialect.describeNamespace(Optional.empty(), LIMIT);
        if (!describesNamespaces()) {
            assertThat(described).isEmpty();
            assertThat(dialect.databases(LIMIT)).isEmpty();
            return;
        }
        assertThat(described).isPresent();
        List<SchemaTable> tables = described.get();
        TableNamespace namespace = fixtureNamespace(dialect);

        SchemaTable table = relation(tables, namespace, SCHEMA_TABLE);
        assertThat(table.kind()).isEqualTo(SchemaTable.Kind.TABLE);
        assertThat(table.comment()).isEqualTo(keepsTableComments() ? Optional.of(TABLE_COMMENT) : Optional.empty());
        assertThat(table.columns()).extracting(SchemaColumn::name).containsExactly("id", "code", "label");
        SchemaColumn id = table.columns().get(0);
        SchemaColumn code = table.columns().get(1);
        SchemaColumn label = table.columns().get(2);
        assertThat(id.type()).isIn(JDBCType.INTEGER, JDBCType.BIGINT);
        assertThat(label.type()).isIn(JDBCType.VARCHAR, JDBCType.NVARCHAR, JDBCType.LONGVARCHAR, JDBCType.CHAR);
        assertThat(table.columns()).allSatisfy(c -> assertThat(c.typeName()).isNotBlank());
        assertThat(id.nullability()).as("id NOT NULL").isEqualTo(Nullability.NO_NULLS);
        assertThat(code.nullability()).as("code NOT NULL").isEqualTo(Nullability.NO_NULLS);
        assertThat(label.nullability()).as("label").isEqualTo(Nullability.NULLABLE);
        assertThat(id.primaryKey()).as("id in the key").isEqualTo(hasPrimaryKeys());
        assertThat(code.primaryKey()).as("code in the key").isEqualTo(hasPrimaryKeys());
        assertThat(label.primaryKey()).as("label in the key").isFalse();
        assertThat(label.comment()).contains(COLUMN_COMMENT);
        assertThat(id.comment()).isEmpty();

        SchemaTable view = relation(tables, namespace, SCHEMA_VIEW);
        assertThat(view.kind()).isEqualTo(SchemaTable.Kind.VIEW);
        assertThat(view.columns()).extracting(SchemaColumn::name).containsExactly("id", "label");
        assertThat(view.columns()).noneMatch(SchemaColumn::primaryKey);

        SchemaTable contract = relation(tables, namespace, TABLE);
        RecordingSink ran = run(dialect, read(SELECT_ALL));
        assertThat(contract.columns()).extracting(SchemaColumn::name).containsExactlyElementsOf(COLUMNS);
        assertThat(contract.columns()).as("the JDBC types a run of the table hands the sink")
                .extracting(SchemaColumn::type)
                .containsExactlyElementsOf(ran.columns().stream().map(ColumnInfo::type).toList());

        assertThat(tables).as("no system schema").noneSatisfy(t -> assertThat(isSystemSchema(t.namespace())).isTrue());
        assertThat(tables).as("ordered by catalog, schema, name").isSortedAccordingTo(CATALOGUE_ORDER);
        assertThat(dialect.describeNamespace(Optional.empty(), LIMIT)).as("a second call").isEqualTo(described);
        assertSessionAsItWas(dialect);
    }

    @Test
    void databasesListTheConnectionsOwnAndANamedOneIsDescribedAnUnknownOneRefused() throws Exception {
        setUpFixture(schemaFixtureStatements());
        Dialect dialect = dialect(1);
        if (!describesNamespaces()) {
            assertThat(dialect.databases(LIMIT)).isEmpty();
            assertThat(dialect.describeNamespace(Optional.of("qag_no_such_database"), LIMIT)).isEmpty();
            return;
        }
        TableNamespace namespace = fixtureNamespace(dialect);
        String own = namespace.catalog() != null ? namespace.catalog() : namespace.schema();
        List<String> databases = dialect.databases(LIMIT);
        assertThat(databases).contains(own).doesNotHaveDuplicates().isSorted();
        assertThat(databases).as("no system database")
                .noneMatch(name -> SYSTEM_SCHEMAS.contains(name.toLowerCase(Locale.ROOT)));

        Optional<List<SchemaTable>> named = dialect.describeNamespace(Optional.of(own), LIMIT);
        assertThat(named).isPresent();
        assertThat(relation(named.get(), namespace, SCHEMA_TABLE).columns()).hasSize(3);

        DialectException unknown = catchThrowableOfType(DialectException.class,
                () -> dialect.describeNamespace(Optional.of("qag_no_such_database"), LIMIT));
        assertThat(unknown).as("an unknown database").isNotNull();
        assertThat(unknown.error()).as(unknown.getMessage()).isEqualTo(DialectError.SYNTAX);
        assertThat(unknown.getMessage()).contains("qag_no_such_database");
        assertSessionAsItWas(dialect);
    }

    @Test
    void serverVersionNamesTheProductAndItsVersion() throws Exception {
        Dialect dialect = dialect(1);
        Optional<String> version = dialect.serverVersion(LIMIT);
        if (!reportsServerVersion()) {
            assertThat(version).isEmpty();
            return;
        }
        // a product name may have words of its own: "HSQL Database Engine 2.7.4"
        assertThat(version).hasValueSatisfying(v -> assertThat(v).as("product, blank, version")
                .matches("(?s)\\p{L}[\\p{L}\\d ]* v?\\d.*")); // a product name may hold digits (H2) or words
        assertSessionAsItWas(dialect);
    }

    // ---------------------------------------------------------------- helpers

    /** Names of the engines' system schemas and databases, none of which the catalogue methods may list. */
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "pg_catalog", "pg_toast", "system",
            "mysql", "performance_schema", "sys", "temp");

    private static final Comparator<SchemaTable> CATALOGUE_ORDER = Comparator
            .comparing((SchemaTable t) -> Objects.requireNonNullElse(t.namespace().catalog(), ""))
            .thenComparing(t -> Objects.requireNonNullElse(t.namespace().schema(), ""))
            .thenComparing(SchemaTable::name);

    private static boolean isSystemSchema(TableNamespace namespace) {
        String schema = Objects.requireNonNullElse(namespace.schema(), "").toLowerCase(Locale.ROOT);
        return SYSTEM_SCHEMAS.contains(schema) || schema.startsWith("pg_");
    }

    private static SchemaTable relation(List<SchemaTable> tables, TableNamespace namespace, String name) {
        List<SchemaTable> found = tables.stream()
                .filter(t -> t.name().equals(name) && t.namespace().equals(namespace)).toList();
        assertThat(found).as("%s in %s among %s", name, namespace,
                tables.stream().map(t -> t.namespace() + "." + t.name()).toList()).hasSize(1);
        return found.get(0);
    }

    /** The catalogue calls ran on the single pooled session: it still answers, with its defaults, read-only. */
    private void assertSessionAsItWas(Dialect dialect) {
        assertThat(countRows(dialect)).isEqualTo(5);
        SessionStateProbe probe = sessionStateProbes().get(0);
        assertThat(text(run(dialect, read(probe.read())))).as(probe.description() + " after the catalogue calls")
                .isEqualTo(probe.expectedDefault());
        if (dialect.capabilities().contains(Capability.SERVER_ENFORCED_READ_ONLY)) {
            assertThat(failure(dialect, read(writeStatements().get(0))).error())
                    .as("a read after the catalogue calls is still read-only").isIn(readOnlyViolationErrors());
        }
        assertThat(countRows(dialect)).isEqualTo(5);
    }


    private static long countRows(Dialect dialect) {
        Object count = run(dialect, read("SELECT count(*) FROM " + TABLE)).singleValue();
        return ((Number) count).longValue();
    }

    /** A describe request as the service sends one: a read, parameters typed and null, a few seconds. */
    private static QueryRequest describing(String sql, Parameter... parameters) {
        return QueryRequest.read(sql, List.of(parameters), Duration.ofSeconds(10), 1);
    }

    private static String text(RecordingSink sink) {
        Object value = sink.rows().isEmpty() ? null : sink.rows().get(0).get(0);
        return value == null ? null : value.toString();
    }

    /**
     * A session-state change and the query that reveals it.
     *
     * @param description what is changed, for failure messages
     * @param change the statement that changes session state; it must succeed
     * @param changeMode the mode {@code change} is sent with
     * @param read a query whose first value shows the state
     * @param expectedDefault that value's string form in a fresh session, or null for SQL NULL
     */
    public record SessionStateProbe(
            String description, String change, AccessMode changeMode, String read, String expectedDefault) {
        /** Validates the fields. */
        public SessionStateProbe {
            requireNonNull(description, "description is null");
            requireNonNull(change, "change is null");
            requireNonNull(changeMode, "changeMode is null");
            requireNonNull(read, "read is null");
        }

        /**
         * A probe whose change is sent as a read.
         *
         * @param description what is changed
         * @param change the statement that changes session state
         * @param read the query that reveals it
         * @param expectedDefault its value in a fresh session, or null
         * @return the probe
         */
        public static SessionStateProbe of(String description, String change, String read, String expectedDefault) {
            return new SessionStateProbe(description, change, AccessMode.READ, read, expectedDefault);
        }
    }
}
