package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Golden plans: exactly what a call sends. docs/dialects/trino.md quotes these. */
class TrinoSessionStrategyTest {
    private final TrinoSessionStrategy strategy = new TrinoSessionStrategy(Optional.of("tpch"), Optional.of("tiny"),
            ZoneId.of("UTC"), "queryapigate", List.of());

    @Test
    void aReadRunsInAReadOnlyTransactionWithTheLimitAsSessionProperties() {
        SessionPlan plan = strategy.plan(new QueryRequest("SELECT name FROM nation", List.of(), AccessMode.READ,
                Duration.ofMillis(1500), 100, false, "req-7"));
        assertThat(plan.before()).containsExactly("START TRANSACTION ISOLATION LEVEL READ UNCOMMITTED, READ ONLY");
        assertThat(plan.statement()).isEqualTo("SELECT name FROM nation");
        assertThat(plan.after()).containsExactly("ROLLBACK");
        assertThat(plan.settings()).isEqualTo(Map.of(
                "query_max_run_time", "1500ms",
                "query_max_execution_time", "1500ms",
                "X-Trino-Catalog", "tpch",
                "X-Trino-Schema", "tiny",
                "X-Trino-Time-Zone", "UTC",
                "X-Trino-Source", "queryapigate",
                "X-Trino-Trace-Token", "req-7"));
        assertThat(plan.roundTrips()).as("typical HTTP requests").isEqualTo(12);
        assertThat(plan.description()).contains("READ ONLY transaction").contains("1500ms");
    }

    @Test
    void aWriteIsTheStatementAloneInAutoCommit() {
        SessionPlan plan = strategy.plan(new QueryRequest("INSERT INTO t VALUES (1)", List.of(), AccessMode.WRITE,
                Duration.ofSeconds(30), 1, false, ""));
        assertThat(plan.before()).isEmpty();
        assertThat(plan.statement()).isEqualTo("INSERT INTO t VALUES (1)");
        assertThat(plan.after()).isEmpty();
        assertThat(plan.settings()).containsEntry("query_max_run_time", "30000ms")
                .containsEntry("query_max_execution_time", "30000ms")
                .doesNotContainKey("X-Trino-Trace-Token");
        assertThat(plan.roundTrips()).isEqualTo(5);
        assertThat(plan.description()).contains("auto-commit");
    }

    @Test
    void parametersTravelInExecuteImmediate() {
        SessionPlan plan = strategy.plan(QueryRequest.read("SELECT * FROM nation WHERE name = ? AND comment <> 'it''s'",
                List.of(new Parameter("name", "x", JDBCType.VARCHAR), new Parameter("n", 1L, JDBCType.BIGINT)),
                Duration.ofSeconds(1), 10));
        assertThat(plan.statement()).isEqualTo("EXECUTE IMMEDIATE 'SELECT * FROM nation WHERE name = ? AND comment <> "
                + "''it''''s''' USING <literal :name>, <literal :n>");
    }

    @Test
    void limitsAreWholeMillisecondsRoundedUp() {
        assertThat(TrinoSessionStrategy.limit(Duration.ofNanos(1))).isEqualTo("1ms");
        assertThat(TrinoSessionStrategy.limit(Duration.ofMillis(299).plusNanos(1))).isEqualTo("300ms");
        assertThat(TrinoSessionStrategy.limit(Duration.ofSeconds(2))).isEqualTo("2000ms");
        assertThat(TrinoSessionStrategy.limit(Duration.ofDays(365_000))).isEqualTo("9000000000000ms");
    }

    @Test
    void optionalHeadersAppearOnlyWhenConfigured() {
        SessionPlan plan = new TrinoSessionStrategy(Optional.empty(), Optional.empty(), ZoneId.of("Europe/Berlin"),
                "qag", List.of("a", "b")).plan(QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(1), 1));
        assertThat(plan.settings()).doesNotContainKeys("X-Trino-Catalog", "X-Trino-Schema")
                .containsEntry("X-Trino-Time-Zone", "Europe/Berlin")
                .containsEntry("X-Trino-Client-Tags", "a,b")
                .containsEntry("X-Trino-Source", "qag");
    }

    @Test
    void aRequestIdThatCannotBeAHeaderIsNotSent() {
        SessionPlan plan = strategy.plan(new QueryRequest("SELECT 1", List.of(), AccessMode.READ,
                Duration.ofSeconds(1), 1, false, "bad\r\nX-Evil: 1"));
        assertThat(plan.settings()).doesNotContainKey("X-Trino-Trace-Token");
    }
}
