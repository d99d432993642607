package io.queryapigate.dialect.h2;

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

/** Golden plans: exactly what each call sends after opening its session. */
class H2SessionStrategyTest {

    private static final String SELECT = "SELECT title FROM film WHERE film_id = ?";
    private static final String UPDATE = "UPDATE film SET length = length + 1 WHERE film_id = ?";
    private static final QueryRequest READ = QueryRequest.read(SELECT,
            List.of(new Parameter("film_id", 1L, JDBCType.BIGINT)), Duration.ofMillis(2500), 1000);
    private static final QueryRequest WRITE = QueryRequest.read(UPDATE,
            List.of(new Parameter("film_id", 1L, JDBCType.BIGINT)), Duration.ofSeconds(30), 1000)
            .withMode(AccessMode.WRITE);

    @Test
    void aReadOnlyFileSendsTheTimeLimitAndTheStatement() {
        H2SessionStrategy strategy = new H2SessionStrategy(true, false);
        assertThat(strategy.plan(READ)).isEqualTo(new SessionPlan(List.of("SET QUERY_TIMEOUT 2500", H2SessionStrategy.LAZY), SELECT, List.of(),
                Map.of(), 0, H2SessionStrategy.READ_ONLY_FILE));
    }

    @Test
    void aReadElsewhereRunsWithAutocommitOffAndIsRolledBack() {
        assertThat(new H2SessionStrategy(false, false).plan(READ)).isEqualTo(new SessionPlan(
                List.of("SET QUERY_TIMEOUT 2500", H2SessionStrategy.LAZY, "SET AUTOCOMMIT FALSE"), SELECT, List.of("ROLLBACK"), Map.of(), 0,
                H2SessionStrategy.ROLLED_BACK_READ));
        // on a server: the session's opening, three statements before, the statement, the rollback
        assertThat(new H2SessionStrategy(false, true).plan(READ).roundTrips()).isEqualTo(6);
    }

    @Test
    void aWriteRunsInAutocommit() {
        assertThat(new H2SessionStrategy(false, true).plan(WRITE)).isEqualTo(new SessionPlan(
                List.of("SET QUERY_TIMEOUT 30000", H2SessionStrategy.LAZY), UPDATE, List.of(), Map.of(), 4, H2SessionStrategy.WRITE));
    }

    @Test
    void theServerSideLimitIsNeverZeroWhichWouldMeanNone() {
        assertThat(H2SessionStrategy.queryTimeout(READ.withTimeout(Duration.ofNanos(1)))).isEqualTo("SET QUERY_TIMEOUT 1");
        assertThat(H2SessionStrategy.queryTimeout(READ.withTimeout(Duration.ofDays(365))))
                .isEqualTo("SET QUERY_TIMEOUT " + Integer.MAX_VALUE);
    }
}
