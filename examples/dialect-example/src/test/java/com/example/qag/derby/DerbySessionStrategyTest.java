package com.example.qag.derby;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden plans, and the typed markers of the fallback. */
class DerbySessionStrategyTest {

    private final DerbySessionStrategy strategy = new DerbySessionStrategy();

    @Test
    void aReadAndAWriteSendTheStatementAloneAndSayHowTheSessionIsKeptSafe() {
        QueryRequest read = QueryRequest.read("SELECT id FROM t WHERE id = ?",
                List.of(new Parameter("id", 1L, JDBCType.BIGINT)), Duration.ofSeconds(5), 10);
        SessionPlan plan = strategy.plan(read);
        assertThat(plan.before()).isEmpty();
        assertThat(plan.statement()).isEqualTo("SELECT id FROM t WHERE id = ?");
        assertThat(plan.after()).isEmpty();
        assertThat(plan.settings()).isEmpty();
        assertThat(plan.description()).startsWith(DerbySessionStrategy.READ).contains("read-only", "interrupts");

        SessionPlan write = strategy.plan(read.withMode(AccessMode.WRITE));
        assertThat(write.statement()).isEqualTo(read.sql());
        assertThat(write.before()).isEmpty();
        assertThat(write.description()).startsWith(DerbySessionStrategy.WRITE).contains("replaces it");
    }

    @Test
    void markersAreCastToTheirDeclaredTypesOutsideLiteralsNamesAndComments() {
        List<Parameter> parameters = List.of(
                new Parameter("label", "x", JDBCType.VARCHAR),
                new Parameter("amount", new BigDecimal("-0.01"), JDBCType.DECIMAL),
                new Parameter("day", LocalDate.of(2000, 2, 29), JDBCType.DATE),
                new Parameter("on", null, JDBCType.BOOLEAN),
                new Parameter("n", 5L, JDBCType.BIGINT));
        String sql = "SELECT ? AS \"what?\", '?' AS q -- a ? here\n"
                + "FROM t /* and ? */ WHERE amount = ? AND day > ? AND coalesce(active, ?) FETCH FIRST ? ROWS ONLY";
        assertThat(DerbySessionStrategy.typeMarkers(sql, parameters)).isEqualTo(
                "SELECT CAST(? AS VARCHAR(32672)) AS \"what?\", '?' AS q -- a ? here\n"
                        + "FROM t /* and ? */ WHERE amount = CAST(? AS DECIMAL(31, 2)) AND day > CAST(? AS DATE)"
                        + " AND coalesce(active, CAST(? AS BOOLEAN)) FETCH FIRST ? ROWS ONLY");
    }

    @Test
    void aDoubledQuoteStaysInsideItsLiteralAndExtraMarkersStayBare() {
        List<Parameter> one = List.of(new Parameter("n", 1L, JDBCType.INTEGER));
        assertThat(DerbySessionStrategy.typeMarkers("VALUES ('it''s ?', ?, ?)", one))
                .isEqualTo("VALUES ('it''s ?', CAST(? AS INTEGER), ?)");
        assertThat(DerbySessionStrategy.typeMarkers("VALUES /* a /* ? */ ? */ ?", one))
                .as("comments nest in Derby").isEqualTo("VALUES /* a /* ? */ ? */ CAST(? AS INTEGER)");
        assertThat(DerbySessionStrategy.typeMarkers("SELECT a FROM t OFFSET ? ROWS", one))
                .isEqualTo("SELECT a FROM t OFFSET ? ROWS");
    }
}
