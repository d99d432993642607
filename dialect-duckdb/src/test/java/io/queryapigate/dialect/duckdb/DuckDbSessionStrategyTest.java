package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden plans: exactly what each call sends. */
class DuckDbSessionStrategyTest {

    private static final QueryRequest READ = QueryRequest.read("SELECT title FROM film WHERE film_id = ?",
            List.of(new Parameter("film_id", 1L, JDBCType.BIGINT)), Duration.ofSeconds(30), 1000);
    private static final QueryRequest WRITE =
            QueryRequest.read("UPDATE film SET length = length + 1 WHERE film_id = ?",
                    List.of(new Parameter("film_id", 1L, JDBCType.BIGINT)), Duration.ofSeconds(30), 1000)
                    .withMode(AccessMode.WRITE);

    @Test
    void readOnlyDatabaseSendsTheStatementAlone() {
        DuckDbSessionStrategy strategy = new DuckDbSessionStrategy(true);
        SessionPlan expected = new SessionPlan(List.of(), "SELECT title FROM film WHERE film_id = ?", List.of(), Map.of(), 0,
                "fresh DuckDB connection per call, closed after it (no setting, variable, temporary object or prepared"
                        + " statement outlives the call); writes refused by DuckDB itself (database opened read-only);"
                        + " the time limit interrupts the statement");
        assertThat(strategy.plan(READ)).isEqualTo(expected);
        assertThat(strategy.plan(WRITE)).isEqualTo(new SessionPlan(List.of(),
                "UPDATE film SET length = length + 1 WHERE film_id = ?", List.of(), Map.of(), 0, expected.description()));
    }

    @Test
    void writableDatabaseWrapsReadsInAReadOnlyTransaction() {
        DuckDbSessionStrategy strategy = new DuckDbSessionStrategy(false);
        assertThat(strategy.plan(READ)).isEqualTo(new SessionPlan(
                List.of("BEGIN TRANSACTION READ ONLY"), "SELECT title FROM film WHERE film_id = ?", List.of("ROLLBACK"),
                Map.of(), 0,
                "fresh DuckDB connection per call, closed after it; the statement runs in BEGIN TRANSACTION READ ONLY"
                        + " and is rolled back, so a single-statement write is refused (defence in depth: the database"
                        + " file is writable); the time limit interrupts the statement"));
    }

    @Test
    void writableDatabaseRunsWritesInAutocommit() {
        assertThat(new DuckDbSessionStrategy(false).plan(WRITE)).isEqualTo(new SessionPlan(
                List.of(), "UPDATE film SET length = length + 1 WHERE film_id = ?", List.of(), Map.of(), 0,
                "fresh DuckDB connection per call, closed after it; the statement runs in autocommit and is committed"
                        + " when it succeeds; the time limit interrupts the statement"));
    }

    @Test
    void planDoesNotDependOnLimitsOrStreaming() {
        DuckDbSessionStrategy strategy = new DuckDbSessionStrategy(true);
        QueryRequest other = new QueryRequest(READ.sql(), List.of(), AccessMode.READ, Duration.ofMillis(5), 1, true, "req-1");
        assertThat(strategy.plan(other)).isEqualTo(strategy.plan(READ));
    }
}
