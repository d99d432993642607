package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden plans: exactly what each kind of call sends, without a server. */
class PostgresSessionStrategyTest {

    private static final String SQL = "SELECT id, name FROM accounts WHERE id = ?";
    private static final List<Parameter> ID = List.of(new Parameter("id", 7L, JDBCType.BIGINT));
    private final PostgresSessionStrategy strategy = PostgresSessionStrategy.withDefaults();

    @Test
    void aReadIsOneMessageWithTheResetReadOnlyAndTimeLimitFirst() {
        SessionPlan plan = strategy.plan(QueryRequest.read(SQL, ID, Duration.ofSeconds(30), 1000));
        assertThat(plan).isEqualTo(new SessionPlan(
                List.of("RESET ALL", "RESET SESSION AUTHORIZATION", "SET LOCAL DateStyle = ISO", "SET TRANSACTION READ ONLY",
                        "SET LOCAL statement_timeout = 30000", "DISCARD SEQUENCES",
                        "DEALLOCATE ALL", "SELECT pg_advisory_unlock_all()"),
                SQL, List.of("UNLISTEN *", "CLOSE ALL", "RESET ALL"), Map.of(), 1, PostgresSessionStrategy.READ_DESCRIPTION));
        assertThat(PostgresSessionStrategy.message(plan.before(), plan.statement(), plan.after())).isEqualTo(
                "RESET ALL; RESET SESSION AUTHORIZATION; SET LOCAL DateStyle = ISO; SET TRANSACTION READ ONLY;"
                        + " SET LOCAL statement_timeout = 30000; DISCARD SEQUENCES; DEALLOCATE ALL;"
                        + " SELECT pg_advisory_unlock_all(); SELECT id, name FROM accounts WHERE id = ?\n; UNLISTEN *\n; CLOSE ALL\n; RESET ALL");
    }

    @Test
    void aWriteIsOneMessageThatDropsTemporaryTablesAfterTheStatement() {
        String insert = "INSERT INTO accounts (name) VALUES (?) RETURNING id";
        SessionPlan plan = strategy.plan(new QueryRequest(insert, List.of(new Parameter("name", "x", JDBCType.VARCHAR)),
                AccessMode.WRITE, Duration.ofMillis(2500), 1000, false, "r1"));
        assertThat(plan).isEqualTo(new SessionPlan(
                List.of("RESET ALL", "RESET SESSION AUTHORIZATION", "SET LOCAL statement_timeout = 2500",
                        "DISCARD SEQUENCES", "DEALLOCATE ALL", "SELECT pg_advisory_unlock_all()"),
                insert, List.of("DISCARD TEMP", "UNLISTEN *", "CLOSE ALL", "RESET ALL"), Map.of(), 1,
                PostgresSessionStrategy.WRITE_DESCRIPTION));
        assertThat(PostgresSessionStrategy.message(plan.before(), plan.statement(), plan.after())).isEqualTo(
                "RESET ALL; RESET SESSION AUTHORIZATION; SET LOCAL statement_timeout = 2500; DISCARD SEQUENCES;"
                        + " DEALLOCATE ALL; SELECT pg_advisory_unlock_all(); INSERT INTO accounts (name) VALUES (?) RETURNING id\n"
                        + "; DISCARD TEMP\n; UNLISTEN *\n; CLOSE ALL\n; RESET ALL");
        // a write ignores the streaming flag: it has no rows to stream
        assertThat(strategy.plan(new QueryRequest(insert, List.of(), AccessMode.WRITE, Duration.ofSeconds(1), 10, true, "")))
                .extracting(SessionPlan::statement, SessionPlan::roundTrips).containsExactly(insert, 1);
    }

    @Test
    void aStreamingReadKeepsATransactionAndACursor() {
        QueryRequest request = new QueryRequest(SQL, ID, AccessMode.READ, Duration.ofMinutes(5), 1_000_000, true, "r2");
        SessionPlan plan = new PostgresSessionStrategy(500).plan(request);
        assertThat(plan).isEqualTo(new SessionPlan(
                List.of("BEGIN", "RESET ALL", "RESET SESSION AUTHORIZATION", "SET LOCAL DateStyle = ISO",
                        "SET TRANSACTION READ ONLY", "SET LOCAL statement_timeout = 300000", "DISCARD SEQUENCES",
                        "DEALLOCATE ALL", "SELECT pg_advisory_unlock_all()"),
                "DECLARE qag_stream NO SCROLL CURSOR FOR " + SQL,
                List.of("FETCH FORWARD 500 FROM qag_stream", "ROLLBACK"), Map.of(), 2,
                PostgresSessionStrategy.STREAM_DESCRIPTION));
        // with a row limit below the fetch size, one row more than the limit tells whether there was more
        assertThat(new PostgresSessionStrategy(500).plan(new QueryRequest(SQL, ID, AccessMode.READ, Duration.ofSeconds(1),
                20, true, "")).after()).containsExactly("FETCH FORWARD 21 FROM qag_stream", "ROLLBACK");
    }

    @Test
    void aDescribeResetsTheSessionInAReadOnlyTransactionAndRollsItBack() {
        QueryRequest request = QueryRequest.read(SQL, ID, Duration.ofSeconds(5), 1);
        assertThat(strategy.describePlan(request, null)).isEqualTo(new SessionPlan(
                List.of("BEGIN", "RESET ALL", "RESET SESSION AUTHORIZATION", "SET TRANSACTION READ ONLY",
                        "SET LOCAL statement_timeout = 5000"),
                SQL, List.of("ROLLBACK"), Map.of(), 3, PostgresSessionStrategy.DESCRIBE_DESCRIPTION));
        assertThat(strategy.describePlan(request, "billing").before()).containsExactly("BEGIN", "RESET ALL",
                "RESET SESSION AUTHORIZATION", "SET LOCAL search_path = \"billing\", pg_temp", "SET TRANSACTION READ ONLY",
                "SET LOCAL statement_timeout = 5000");
    }

    @Test
    void aPinnedSchemaIsQuotedAndSearchedBeforeTemporaryObjects() {
        QueryRequest read = QueryRequest.read(SQL, ID, Duration.ofSeconds(1), 10);
        assertThat(strategy.plan(read, "billing").before()).containsExactly("RESET ALL", "RESET SESSION AUTHORIZATION",
                "SET LOCAL DateStyle = ISO", "SET LOCAL search_path = \"billing\", pg_temp", "SET TRANSACTION READ ONLY",
                "SET LOCAL statement_timeout = 1000", "DISCARD SEQUENCES", "DEALLOCATE ALL",
                "SELECT pg_advisory_unlock_all()");
        assertThat(strategy.plan(read.withMode(AccessMode.WRITE), "We\"ird; DROP").before())
                .contains("SET LOCAL search_path = \"We\"\"ird; DROP\", pg_temp");
        assertThat(strategy.plan(read, null)).isEqualTo(strategy.plan(read));
        assertThatThrownBy(() -> strategy.plan(read, " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> strategy.plan(read, "a\0b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTimeLimitIsWholeMillisecondsRoundedUp() {
        assertThat(PostgresSessionStrategy.statementTimeout(Duration.ofNanos(1))).isEqualTo("SET LOCAL statement_timeout = 1");
        assertThat(PostgresSessionStrategy.statementTimeout(Duration.ofNanos(1_500_000))).endsWith("= 2");
        assertThat(PostgresSessionStrategy.statementTimeout(Duration.ofMillis(200))).endsWith("= 200");
        assertThat(PostgresSessionStrategy.statementTimeout(Duration.ofDays(100))).endsWith("= " + Integer.MAX_VALUE);
        assertThat(PostgresSessionStrategy.statementTimeout(Duration.ofSeconds(Long.MAX_VALUE))).endsWith("= " + Integer.MAX_VALUE);
    }

    @Test
    void fetchesAskForTheFetchSizeOrOneRowPastTheLimit() {
        PostgresSessionStrategy s = new PostgresSessionStrategy(1000);
        assertThat(s.fetchRows(1_000_000, 0)).isEqualTo(1000);
        assertThat(s.fetchRows(2500, 2000)).isEqualTo(501);
        assertThat(s.fetchRows(2500, 2500)).isEqualTo(1);
        assertThat(s.fetchRows(1000, 0)).isEqualTo(1000);
        assertThat(s.fetchRows(999, 0)).isEqualTo(1000);
        assertThatThrownBy(() -> new PostgresSessionStrategy(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statementsAfterTheUsersStartOnANewLine() {
        // a trailing line comment must not swallow DISCARD TEMP
        assertThat(PostgresSessionStrategy.message(List.of("RESET ALL"), "UPDATE t SET x = 1 -- done", List.of("DISCARD TEMP")))
                .isEqualTo("RESET ALL; UPDATE t SET x = 1 -- done\n; DISCARD TEMP");
        assertThat(PostgresStatements.split("RESET ALL; UPDATE t SET x = 1 -- done\n; DISCARD TEMP", true)).hasSize(3);
    }

    @Test
    void thePlanIsAPureFunctionOfTheRequest() {
        QueryRequest read = QueryRequest.read(SQL, ID, Duration.ofMillis(1234), 10);
        assertThat(strategy.plan(read)).isEqualTo(strategy.plan(read));
        assertThat(strategy.plan(read).before()).contains("SET LOCAL statement_timeout = 1234");
    }
}
