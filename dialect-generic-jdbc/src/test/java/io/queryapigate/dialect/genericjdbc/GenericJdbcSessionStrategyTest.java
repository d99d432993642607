package io.queryapigate.dialect.genericjdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden plans: the statement as it is (no LIMIT appended), and the JDBC calls around it. */
class GenericJdbcSessionStrategyTest {

    private static final String SQL = "SELECT id FROM t WHERE id = ?";
    private final GenericJdbcSessionStrategy strategy = new GenericJdbcSessionStrategy();

    @Test
    void aReadIsReadOnlyAndRolledBack() {
        SessionPlan plan = strategy.plan(QueryRequest.read(SQL, List.of(), Duration.ofSeconds(5), 10));
        assertThat(plan).isEqualTo(new SessionPlan(List.of(), SQL, List.of(), Map.of("readOnly", "true",
                "autoCommit", "false", "end", "rollback"), 1, GenericJdbcSessionStrategy.READ));
    }

    @Test
    void aWriteAutocommits() {
        SessionPlan plan = strategy.plan(new QueryRequest("DELETE FROM t", List.of(), AccessMode.WRITE,
                Duration.ofSeconds(5), 10, false, "r"));
        assertThat(plan).isEqualTo(new SessionPlan(List.of(), "DELETE FROM t", List.of(), Map.of("readOnly", "false",
                "autoCommit", "true", "end", "autocommit"), 1, GenericJdbcSessionStrategy.WRITE));
    }

    @Test
    void aWriteWithACeilingIsOneTransactionTheDialectEnds() {
        SessionPlan plan = strategy.plan(new QueryRequest("DELETE FROM t", List.of(), AccessMode.WRITE,
                Duration.ofSeconds(5), 10, false, "r", null, 3));
        assertThat(plan.settings()).isEqualTo(Map.of("readOnly", "false", "autoCommit", "false", "end", "commit"));
        assertThat(plan.description()).isEqualTo(GenericJdbcSessionStrategy.CEILING);
    }

    @Test
    void aPageIsNeverWrittenIntoTheStatement() {
        String sql = "SELECT id FROM t ORDER BY id";
        assertThat(strategy.plan(QueryRequest.read(sql, List.of(), Duration.ofSeconds(5), 3)).statement())
                .isEqualTo(sql);
    }
}
