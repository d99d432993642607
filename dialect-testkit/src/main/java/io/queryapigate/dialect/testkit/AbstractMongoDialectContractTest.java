package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of a dialect whose {@link Dialect#queryLanguage()} is {@code mongo}: the part of {@link
 * AbstractDialectContractTest} that applies to query documents, proved against the real server.
 *
 * <p>Checked: rows, columns (the union of the documents' keys) and types; an empty result; a find and a pipeline;
 * parameters of each kind bound as values (a value that reads as an operator stays a string; a map is refused);
 * {@code maxRows} and truncation; a sink stopping the read; writes refused, by access mode and by stage ({@code
 * $out}, {@code $merge}, nested too) with the collection left as it was; server-side JavaScript refused; the time
 * limit; health and close; malformed documents as {@link DialectError#SYNTAX}; concurrent reads on a small pool; the
 * session plan; the server's version.
 *
 * <p>Not applicable, and why: session-state leaks (a MongoDB command carries no session settings and the dialect
 * opens no transaction, so there is no state to leak); {@code describe} and {@code describeNamespace} (documents
 * have no schema to read without reading documents); write ceilings (the dialect never writes); cancellation (not
 * claimed: the driver's cursor is not safe to close from another thread; the time limit stops a query).
 */
public abstract class AbstractMongoDialectContractTest {
    /** The fixture collection. */
    public static final String COLLECTION = "qag_contract";
    /** The collection an attack would write to. */
    public static final String EVIL = "qag_contract_evil";
    /** The fixture documents, in {@code _id} order. */
    public static final List<String> DOCUMENTS = List.of(
            "{\"_id\": 1, \"name\": \"alpha\", \"n\": 10, \"big\": {\"$numberLong\": \"9007199254740993\"},"
                    + " \"ratio\": 0.5, \"active\": true, \"tags\": [\"a\", \"b\"], \"at\": {\"$date\":"
                    + " \"2024-01-15T10:30:00Z\"}}",
            "{\"_id\": 2, \"name\": \"beta\", \"n\": 20, \"big\": {\"$numberLong\": \"-42\"}, \"ratio\": -1.25,"
                    + " \"active\": false, \"tags\": [\"b\"]}",
            "{\"_id\": 3, \"name\": \"$gt\", \"n\": 30, \"ratio\": 0.0, \"active\": true}",
            "{\"_id\": 4, \"name\": \"it's\", \"n\": null, \"extra\": {\"x\": 1}}");
    /** The time limit of ordinary calls. */
    protected static final Duration LIMIT = Duration.ofSeconds(30);

    private final List<Dialect> opened = new ArrayList<>();

    /**
     * Creates the dialect under test through its factory.
     *
     * @param poolSize the pool size
     * @return a new dialect
     */
    protected abstract Dialect createDialect(int poolSize) throws Exception;

    /**
     * Replaces the documents of {@code collection} (dropping it first) with {@code documents}, written as extended
     * JSON, through the driver directly.
     *
     * @param collection the collection
     * @param documents the documents; empty: the collection is dropped
     */
    protected abstract void replace(String collection, List<String> documents) throws Exception;

    /**
     * How many documents {@code collection} holds, read through the driver directly.
     *
     * @param collection the collection
     * @return the count; 0 for a collection that does not exist
     */
    protected abstract long count(String collection) throws Exception;

    /**
     * The server's address, for a {@link TcpProxy} in front of it.
     *
     * @return host and port
     */
    protected abstract java.net.InetSocketAddress serverAddress();

    /**
     * Creates the dialect under test, through its factory, reaching the server at {@code hostPort} (a proxy).
     *
     * @param hostPort {@code host:port}
     * @return a new dialect
     */
    protected abstract Dialect createDialect(String hostPort) throws Exception;

    /**
     * A dialect pointing at the same server through a port that does not answer.
     *
     * @return the dialect
     */
    protected abstract Dialect createUnreachableDialect() throws Exception;

    @BeforeEach
    final void createFixture() throws Exception {
        replace(COLLECTION, DOCUMENTS);
        replace(EVIL, List.of());
    }

    @AfterEach
    final void closeDialects() {
        opened.forEach(Dialect::close);
        opened.clear();
    }

    /** A dialect closed after the test. */
    protected final Dialect dialect(int poolSize) throws Exception {
        Dialect d = createDialect(poolSize);
        opened.add(d);
        return d;
    }

    /** A read of {@code query} with named parameters. */
    protected static QueryRequest read(String query, Parameter... parameters) {
        return QueryRequest.read(query, List.of(parameters), LIMIT, 1000);
    }

    /** A find on the fixture. */
    protected static String find(String filter) {
        return "{\"collection\": \"" + COLLECTION + "\", \"filter\": " + filter + ", \"sort\": {\"_id\": 1}}";
    }

    private static Parameter p(String name, Object value, JDBCType type) {
        return new Parameter(name, value, type);
    }

    private List<Object> ids(QueryRequest request) throws Exception {
        RecordingSink sink = new RecordingSink();
        dialect(1).execute(request, sink);
        return sink.rows().isEmpty() ? List.of() : sink.column("_id");
    }

    @Test
    void aFindDeliversTheUnionOfKeysTypesAndNulls() throws Exception {
        RecordingSink sink = new RecordingSink();
        QueryStats stats = dialect(1).execute(read(find("{}")), sink);
        assertThat(stats).isEqualTo(new QueryStats(4, -1, false));
        assertThat(sink.columnsCalls()).isEqualTo(1);
        assertThat(sink.columnNames()).containsExactly("_id", "name", "n", "big", "ratio", "active", "tags", "at",
                "extra");
        assertThat(sink.columns().get(1).type()).isEqualTo(JDBCType.VARCHAR);
        assertThat(sink.columns().get(3).type()).isEqualTo(JDBCType.BIGINT);
        assertThat(sink.columns().get(4).type()).isEqualTo(JDBCType.DOUBLE);
        assertThat(sink.columns().get(5).type()).isEqualTo(JDBCType.BOOLEAN);
        assertThat(sink.rows().get(0)).containsExactly(1, "alpha", 10, 9_007_199_254_740_993L, 0.5, true,
                List.of("a", "b"), java.time.OffsetDateTime.parse("2024-01-15T10:30:00Z"), null);
        assertThat(sink.rows().get(3)).containsExactly(4, "it's", null, null, null, null, null, null, Map.of("x", 1));
    }

    @Test
    void aPipelineGroupsSortsAndProjects() throws Exception {
        RecordingSink sink = new RecordingSink();
        dialect(1).execute(read("{\"collection\": \"" + COLLECTION + "\", \"pipeline\": [{\"$match\": {\"n\":"
                + " {\"$gte\": \":min\"}}}, {\"$group\": {\"_id\": \"$active\", \"total\": {\"$sum\": \"$n\"}}},"
                + " {\"$sort\": {\"total\": -1}}]}", p("min", 10L, JDBCType.BIGINT)), sink);
        assertThat(sink.columnNames()).containsExactly("_id", "total");
        assertThat(sink.rows()).hasSize(2);
        assertThat(sink.rows().get(0).get(0)).isEqualTo(true);
        assertThat(((Number) sink.rows().get(0).get(1)).longValue()).isEqualTo(40);
        assertThat(((Number) sink.rows().get(1).get(1)).longValue()).isEqualTo(20);
    }

    @Test
    void emptyResultStillDeliversColumns() throws Exception {
        RecordingSink sink = new RecordingSink();
        dialect(1).execute(read(find("{\"_id\": -1}")), sink);
        assertThat(sink.columnsCalls()).isEqualTo(1);
        assertThat(sink.rows()).isEmpty();
    }

    @Test
    void boundParametersOfEachKindSelectTheRightRows() throws Exception {
        assertThat(ids(read(find("{\"name\": \":v\"}"), p("v", "beta", JDBCType.VARCHAR)))).containsExactly(2);
        assertThat(ids(read(find("{\"n\": \":v\"}"), p("v", 30L, JDBCType.BIGINT)))).containsExactly(3);
        assertThat(ids(read(find("{\"ratio\": {\"$lt\": \":v\"}}"), p("v", 0.0d, JDBCType.DOUBLE))))
                .containsExactly(2);
        assertThat(ids(read(find("{\"active\": \":v\"}"), p("v", false, JDBCType.BOOLEAN)))).containsExactly(2);
        assertThat(ids(read(find("{\"n\": \":v\"}"), p("v", null, JDBCType.NULL)))).containsExactly(4);
        assertThat(ids(read(find("{\"_id\": {\"$in\": \":v\"}}"), p("v", List.of(1L, 4L), JDBCType.ARRAY))))
                .containsExactly(1, 4);
        assertThat(ids(read(find("{\"at\": {\"$gte\": \":v\"}}"), p("v",
                java.time.OffsetDateTime.parse("2024-01-01T00:00:00Z"), JDBCType.TIMESTAMP_WITH_TIMEZONE))))
                .containsExactly(1);
        assertThatThrownBy(() -> dialect(1).execute(read(find("{\"name\": \":missing\"}")), new RecordingSink()))
                .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                        .isEqualTo(DialectError.SYNTAX));
    }

    @Test
    void aParameterIsAValueNeverAnOperator() throws Exception {
        // the text of an operator stays a string: it matches the document whose name is that text, nothing else
        assertThat(ids(read(find("{\"name\": \":v\"}"), p("v", "{\"$gt\": \"\"}", JDBCType.VARCHAR)))).isEmpty();
        assertThat(ids(read(find("{\"name\": \":v\"}"), p("v", "$gt", JDBCType.VARCHAR)))).containsExactly(3);
        assertThat(ids(read(find("{\"name\": \":v\"}"), p("v", "$where", JDBCType.VARCHAR)))).isEmpty();
        // a document is refused: {"$ne": null} would match every document
        for (Object evil : List.of(Map.of("$ne", "x"), List.of(Map.of("$gt", "")), Map.of("$where", "true"))) {
            assertThatThrownBy(() -> dialect(1).execute(read(find("{\"name\": \":v\"}"), p("v", evil,
                    JDBCType.OTHER)), new RecordingSink()))
                    .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                            .isEqualTo(DialectError.SYNTAX));
        }
    }

    @Test
    void maxRowsStopsTheReadAndReportsTruncation() throws Exception {
        RecordingSink sink = new RecordingSink();
        QueryStats stats = dialect(1).execute(QueryRequest.read(find("{}"), List.of(), LIMIT, 3), sink);
        assertThat(stats).isEqualTo(new QueryStats(3, -1, true));
        assertThat(sink.rows()).hasSize(3);
        RecordingSink exact = new RecordingSink();
        assertThat(dialect(1).execute(QueryRequest.read(find("{}"), List.of(), LIMIT, 4), exact).truncated())
                .isFalse();
        RecordingSink streamed = new RecordingSink();
        QueryStats s = dialect(1).execute(new QueryRequest(find("{}"), List.of(), AccessMode.READ, LIMIT, 2, true,
                "r"), streamed);
        assertThat(s).isEqualTo(new QueryStats(2, -1, true));
    }

    @Test
    void skipAndLimitOfTheDocumentPage() throws Exception {
        assertThat(ids(read("{\"collection\": \"" + COLLECTION + "\", \"sort\": {\"_id\": 1}, \"skip\": 1,"
                + " \"limit\": 2}"))).containsExactly(2, 3);
        assertThat(ids(read("{\"collection\": \"" + COLLECTION + "\", \"pipeline\": [{\"$sort\": {\"_id\": -1}}],"
                + " \"skip\": 1, \"limit\": 2}"))).containsExactly(3, 2);
    }

    @Test
    void aSinkReturningFalseStopsTheReadWithoutError() throws Exception {
        RecordingSink sink = new RecordingSink(2);
        dialect(1).execute(read(find("{}")), sink);
        assertThat(sink.rows()).hasSize(2);
    }

    @Test
    void writesAreRefusedAndChangeNothing() throws Exception {
        Dialect dialect = dialect(1);
        assertThatThrownBy(() -> dialect.execute(read(find("{}")).withMode(AccessMode.WRITE), new RecordingSink()))
                .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                        .isEqualTo(DialectError.NOT_READ_ONLY));
        String c = "{\"collection\": \"" + COLLECTION + "\", \"pipeline\": ";
        List<String> attacks = List.of(
                c + "[{\"$out\": \"" + EVIL + "\"}]}",
                c + "[{\"$match\": {}}, {\"$merge\": {\"into\": \"" + EVIL + "\"}}]}",
                c + "[{\"$merge\": \"" + EVIL + "\"}]}",
                c + "[{\"$facet\": {\"x\": [{\"$out\": \"" + EVIL + "\"}]}}]}",
                c + "[{\"$lookup\": {\"from\": \"" + COLLECTION + "\", \"pipeline\": [{\"$merge\": \"" + EVIL
                        + "\"}], \"as\": \"x\"}}]}",
                c + "[{\"$unionWith\": {\"coll\": \"" + COLLECTION + "\", \"pipeline\": [{\"$out\": \"" + EVIL
                        + "\"}]}}]}",
                c + "[{\"$currentOp\": {}}]}",
                c + "[{\"$listSessions\": {}}]}",
                "{\"collection\": \"system.profile\", \"filter\": {}}");
        for (String attack : attacks) {
            assertThatThrownBy(() -> dialect.execute(read(attack), new RecordingSink())).as(attack)
                    .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                            .isEqualTo(DialectError.PERMISSION_DENIED));
        }
        assertThat(count(EVIL)).isZero();
        assertThat(count(COLLECTION)).isEqualTo(DOCUMENTS.size());
    }

    @Test
    void serverSideJavaScriptIsRefused() throws Exception {
        Dialect dialect = dialect(1);
        List<String> attacks = List.of(
                find("{\"$where\": \"sleep(10000) || true\"}"),
                find("{\"$expr\": {\"$function\": {\"body\": \"function() { return true; }\", \"args\": [],"
                        + " \"lang\": \"js\"}}}"),
                "{\"collection\": \"" + COLLECTION + "\", \"filter\": {}, \"projection\": {\"x\": {\"$function\":"
                        + " {\"body\": \"function() { return 1; }\", \"args\": [], \"lang\": \"js\"}}}}",
                "{\"collection\": \"" + COLLECTION + "\", \"pipeline\": [{\"$group\": {\"_id\": null, \"x\":"
                        + " {\"$accumulator\": {\"init\": \"function() { return 0; }\"}}}}]}",
                "{\"collection\": \"" + COLLECTION + "\", \"pipeline\": [{\"$facet\": {\"f\": [{\"$match\":"
                        + " {\"$where\": \"true\"}}]}}]}");
        for (String attack : attacks) {
            assertThatThrownBy(() -> dialect.execute(read(attack), new RecordingSink())).as(attack)
                    .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                            .isEqualTo(DialectError.PERMISSION_DENIED));
        }
    }

    /**
     * The client-side limit: a server that stops answering (a frozen proxy) fails the call as a timeout soon after
     * its time limit, and the dialect works again once the server answers. The server-side limit ({@code maxTimeMS})
     * is the session plan's.
     */
    @Test
    void theTimeLimitStopsACallWhoseServerStopsAnswering() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(serverAddress()).start()) {
            Dialect dialect = createDialect(proxy.hostPort());
            opened.add(dialect);
            dialect.execute(read(find("{}")), new RecordingSink());
            proxy.freeze();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> dialect.execute(QueryRequest.read(find("{}"), List.of(), Duration.ofMillis(500),
                    10), new RecordingSink()))
                    .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error()).as(e.getMessage())
                            .isEqualTo(DialectError.TIMEOUT));
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            proxy.unfreeze();
            RecordingSink after = new RecordingSink();
            dialect.execute(read(find("{}")), after);
            assertThat(after.rows()).hasSize(DOCUMENTS.size());
        }
    }

    @Test
    void healthPassesThenReportsUnavailable() throws Exception {
        dialect(1).checkHealth(Duration.ofSeconds(10));
        Dialect gone = createUnreachableDialect();
        opened.add(gone);
        assertThatThrownBy(() -> gone.checkHealth(Duration.ofSeconds(2)))
                .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                        .isEqualTo(DialectError.UNAVAILABLE));
        assertThatThrownBy(() -> gone.execute(read(find("{}")), new RecordingSink()))
                .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                        .isIn(DialectError.UNAVAILABLE, DialectError.TIMEOUT));
    }

    @Test
    void callsAfterCloseFailUnavailable() throws Exception {
        Dialect dialect = dialect(1);
        dialect.close();
        dialect.close();
        assertThatThrownBy(() -> dialect.execute(read(find("{}")), new RecordingSink()))
                .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                        .isEqualTo(DialectError.UNAVAILABLE));
    }

    @Test
    void malformedDocumentsAreSyntaxErrors() throws Exception {
        Dialect dialect = dialect(1);
        for (String bad : List.of("SELECT 1", "[1]", "{\"filter\": {}}", "{\"collection\": \"" + COLLECTION
                + "\", \"filter\": [], \"x\": 1}", "{\"collection\": \"" + COLLECTION + "\", \"pipeline\": {}}",
                "{\"collection\": \"" + COLLECTION + "\", \"filter\": {}, \"pipeline\": []}",
                "{\"collection\": \"" + COLLECTION + "\", \"filter\": {\"n\": {\"$nosuchop\": 1}}}")) {
            assertThatThrownBy(() -> dialect.execute(read(bad), new RecordingSink())).as(bad)
                    .isInstanceOfSatisfying(DialectException.class, e -> assertThat(e.error())
                            .isIn(DialectError.SYNTAX, DialectError.PERMISSION_DENIED));
        }
    }

    @Test
    void concurrentReadsOnASmallPoolAllSucceedWithTheirOwnResults() throws Exception {
        Dialect dialect = dialect(2);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Object>>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                long n = 10L * (1 + i % 3);
                results.add(pool.submit(() -> {
                    RecordingSink sink = new RecordingSink();
                    dialect.execute(read(find("{\"n\": \":n\"}"), p("n", n, JDBCType.BIGINT)), sink);
                    return sink.column("n");
                }));
            }
            for (int i = 0; i < 32; i++) {
                assertThat(results.get(i).get()).containsExactly(10 * (1 + i % 3));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theSessionPlanCarriesTheTimeLimit() throws Exception {
        var plan = dialect(1).sessionStrategy().plan(QueryRequest.read(find("{}"), List.of(),
                Duration.ofMillis(1500), 10));
        assertThat(plan.settings()).containsEntry("maxTimeMS", "1500");
        assertThat(plan.before()).isEmpty();
        assertThat(plan.after()).isEmpty();
        assertThat(dialect(1).queryLanguage()).isEqualTo("mongo");
    }

    @Test
    void serverVersionNamesTheProductAndItsVersion() throws Exception {
        assertThat(dialect(1).serverVersion(Duration.ofSeconds(10))).hasValueSatisfying(v -> assertThat(v)
                .matches("(MongoDB|FerretDB) v?\\d+\\.\\d+.*"));
        assertThat(dialect(1).databases(Duration.ofSeconds(10))).isNotEmpty();
    }
}
