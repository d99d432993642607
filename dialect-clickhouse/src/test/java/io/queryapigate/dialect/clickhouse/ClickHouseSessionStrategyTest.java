package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden plans: exactly what each call sends. */
class ClickHouseSessionStrategyTest {
    private static final ClickHouseSessionStrategy STRATEGY = new ClickHouseSessionStrategy("crm");
    private static final QueryRequest READ = QueryRequest.read("SELECT id, name FROM customer WHERE id = ?",
            List.of(new Parameter("id", 7L, JDBCType.BIGINT)), Duration.ofMillis(300), 1000);

    @Test
    void aDescribeWrapsTheStatementWithItsMarkersAsTypedNulls() {
        QueryRequest request = QueryRequest.read("SELECT id, ? AS since FROM customer WHERE id = ? -- trailing",
                List.of(new Parameter("since", null, JDBCType.DATE), new Parameter("id", null, JDBCType.BIGINT)),
                Duration.ofSeconds(5), 1);
        ClickHouseSessionStrategy.Prepared describe = STRATEGY.describing(request);
        assertThat(describe.body()).isEqualTo("DESCRIBE TABLE (SELECT id,  CAST(NULL AS Nullable(Date))  AS since"
                + " FROM customer WHERE id =  CAST(NULL AS Nullable(Int64)) \n)\nFORMAT TabSeparatedWithNamesAndTypes");
        assertThat(describe.settings()).containsEntry("readonly", "1").containsEntry("database", "crm")
                .containsEntry("max_result_rows", "10001");
        assertThat(describe.plan().statement()).startsWith("DESCRIBE TABLE (SELECT id, ? AS since");

        ClickHouseSessionStrategy.Prepared write = STRATEGY.describing(QueryRequest.read(
                "INSERT INTO customer VALUES (1)", List.of(), Duration.ofSeconds(5), 1));
        assertThat(write.body()).isNull();
        assertThat(write.returnsRows()).isFalse();
        ClickHouseSessionStrategy.Prepared show = STRATEGY.describing(QueryRequest.read("SHOW TABLES", List.of(),
                Duration.ofSeconds(5), 1));
        assertThat(show.body()).isNull();
        assertThat(show.returnsRows()).isTrue();
    }

    @Test
    void aReadIsOnePostWithItsLimitsAsSettings() {
        SessionPlan plan = STRATEGY.plan(READ);
        assertThat(plan).isEqualTo(new SessionPlan(List.of(),
                "SELECT id, name FROM customer WHERE id = ?\nFORMAT TabSeparatedWithNamesAndTypes", List.of(),
                Map.of("readonly", "1", "max_execution_time", "1", "max_result_rows", "1001",
                        "result_overflow_mode", "break", "extremes", "0", "database", "crm"),
                1,
                "read: one HTTP POST, no session_id (nothing a statement sets outlives its request); readonly=1"
                        + " (writes, DDL, SET and SETTINGS clauses refused by the server; KILL refused by the"
                        + " dialect); time limit: a client timer at the exact limit kills the query by query_id"
                        + " (KILL QUERY), with max_execution_time=1 s (whole seconds, rounded up) as the server's"
                        + " backstop; rows capped at maxRows+1 (result_overflow_mode=break), streamed as"
                        + " TabSeparatedWithNamesAndTypes; 1 parameter rendered as escaped ClickHouse literals at the"
                        + " ? markers"));
    }

    @Test
    void theBodyCarriesTheLiteralsAndTheSettingsKeepTheirOrder() {
        ClickHouseSessionStrategy.Prepared p = STRATEGY.prepare(READ, true);
        assertThat(p.body()).isEqualTo("SELECT id, name FROM customer WHERE id =  7 \nFORMAT TabSeparatedWithNamesAndTypes");
        assertThat(p.returnsRows()).isTrue();
        assertThat(p.settings().keySet()).containsExactly("readonly", "max_execution_time", "max_result_rows",
                "result_overflow_mode", "extremes", "database");
    }

    @Test
    void aWriteHasNoReadonlyAndNoFormat() {
        QueryRequest write = QueryRequest.read("INSERT INTO events (id) VALUES (?)",
                List.of(new Parameter("id", 1L, JDBCType.BIGINT)), Duration.ofSeconds(30), 1000).withMode(AccessMode.WRITE);
        SessionPlan plan = STRATEGY.plan(write);
        assertThat(plan.statement()).isEqualTo("INSERT INTO events (id) VALUES (?)");
        assertThat(plan.settings()).isEqualTo(Map.of("max_execution_time", "30", "database", "crm"));
        assertThat(plan.roundTrips()).isEqualTo(1);
        assertThat(plan.description()).startsWith("write: one HTTP POST, no session_id").doesNotContain("readonly=1");
        assertThat(STRATEGY.prepare(write, true).body()).isEqualTo("INSERT INTO events (id) VALUES ( 1 )");
    }

    @Test
    void timeLimitsAreWholeSecondsRoundedUp() {
        assertThat(ClickHouseSessionStrategy.seconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(ClickHouseSessionStrategy.seconds(Duration.ofMillis(1000))).isEqualTo(1);
        assertThat(ClickHouseSessionStrategy.seconds(Duration.ofMillis(1001))).isEqualTo(2);
        assertThat(ClickHouseSessionStrategy.seconds(Duration.ofMinutes(2))).isEqualTo(120);
    }

    @Test
    void trailingSemicolonsGoBeforeFormatIsAppended() {
        QueryRequest r = QueryRequest.read("SELECT 1; -- done", List.of(), Duration.ofSeconds(5), 10);
        assertThat(STRATEGY.plan(r).statement()).isEqualTo("SELECT 1\nFORMAT TabSeparatedWithNamesAndTypes");
    }

    @Test
    void gzipAddsHttpCompression() {
        assertThat(new ClickHouseSessionStrategy("crm", true).plan(READ).settings())
                .containsEntry("enable_http_compression", "1");
    }

    @Test
    void refusedBeforeAnythingIsSent() {
        assertThat(refusal("KILL QUERY WHERE 1", AccessMode.READ)).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(refusal("SELECT k, count() FROM t GROUP BY k WITH TOTALS", AccessMode.READ))
                .isEqualTo(DialectError.SYNTAX);
        assertThat(refusal("SELECT 'unterminated", AccessMode.READ)).isEqualTo(DialectError.SYNTAX);
        assertThat(refusal("SELECT ?, ?", AccessMode.READ)).isEqualTo(DialectError.SYNTAX);
        QueryRequest kill = QueryRequest.read("KILL QUERY WHERE query_id = 'x'", List.of(), Duration.ofSeconds(5), 10)
                .withMode(AccessMode.WRITE);
        assertThat(STRATEGY.plan(kill).statement()).as("a write key may kill").endsWith("FORMAT TabSeparatedWithNamesAndTypes");
    }

    private static DialectError refusal(String sql, AccessMode mode) {
        QueryRequest r = QueryRequest.read(sql, List.of(new Parameter("p", 1L, JDBCType.BIGINT)), Duration.ofSeconds(5), 10)
                .withMode(mode);
        try {
            STRATEGY.prepare(r, true);
        } catch (DialectException e) {
            return e.error();
        }
        throw new AssertionError("not refused: " + sql);
    }

    @Test
    void thePlanDoesNotDependOnTheRequestIdOrStreaming() {
        QueryRequest other = new QueryRequest(READ.sql(), READ.parameters(), AccessMode.READ, READ.timeout(),
                READ.maxRows(), true, "req-42");
        assertThat(STRATEGY.plan(other)).isEqualTo(STRATEGY.plan(READ));
        assertThatThrownBy(() -> STRATEGY.plan(null)).isInstanceOf(NullPointerException.class);
    }
}
