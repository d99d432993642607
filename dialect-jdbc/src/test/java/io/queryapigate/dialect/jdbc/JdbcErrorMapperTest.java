package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JdbcErrorMapperTest {

    private final JdbcErrorMapper mapper = new JdbcErrorMapper();

    @ParameterizedTest
    @CsvSource({
        "08001, UNAVAILABLE",
        "08006, UNAVAILABLE",
        "08S01, UNAVAILABLE",
        "57014, TIMEOUT",
        "25006, NOT_READ_ONLY",
        "42501, PERMISSION_DENIED",
        "42601, SYNTAX",
        "42P01, SYNTAX",
        "42S02, SYNTAX",
        "22012, SYNTAX",
        "22P02, SYNTAX",
        "23505, CONSTRAINT",
        "23503, CONSTRAINT",
        "23502, CONSTRAINT",
        "40001, CONFLICT",
        "40P01, CONFLICT",
        "53200, RESOURCE_LIMIT",
        "53100, RESOURCE_LIMIT",
        "54000, RESOURCE_LIMIT",
        "XX000, INTERNAL",
    })
    void classifiesBySqlState(String state, DialectError expected) {
        assertThat(mapper.classify(new SQLException("boom", state))).isEqualTo(expected);
    }

    @Test
    void withoutStateFallsBackToTheExceptionType() {
        assertThat(mapper.classify(new SQLTimeoutException("slow"))).isEqualTo(DialectError.TIMEOUT);
        assertThat(mapper.classify(new SQLNonTransientConnectionException("gone"))).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(mapper.classify(new SQLException("no state"))).isEqualTo(DialectError.INTERNAL);
        assertThat(mapper.classify(new SQLException("bad state", "ABC"))).isEqualTo(DialectError.INTERNAL);
    }

    @Test
    void aStateAnywhereInTheChainBeatsTheExceptionType() {
        SQLException first = new SQLTimeoutException("batch failed");
        first.setNextException(new SQLException("relation does not exist", "42P01"));
        assertThat(mapper.classify(first)).isEqualTo(DialectError.SYNTAX);
    }

    @Test
    void vendorRulesDecideWhenTheStateDoesNot() {
        JdbcErrorMapper vendor = new JdbcErrorMapper() {
            @Override
            protected DialectError classifyVendor(SQLException exception) {
                return exception.getErrorCode() == 1290 ? DialectError.NOT_READ_ONLY : null;
            }
        };
        assertThat(vendor.classify(new SQLException("read-only", "HY000", 1290))).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(vendor.classify(new SQLException("other", "HY000", 1))).isEqualTo(DialectError.INTERNAL);
        assertThat(vendor.classify(new SQLException("syntax", "42000", 1290))).isEqualTo(DialectError.SYNTAX);
    }

    @Test
    void aCyclicChainDoesNotLoopForever() {
        SQLException a = new SQLException("a");
        SQLException b = new SQLException("b");
        a.setNextException(b);
        b.setNextException(a);
        assertThat(mapper.classify(a)).isEqualTo(DialectError.INTERNAL);
    }

    @Test
    void translateKeepsTheCauseStateAndMessage() {
        SQLException cause = new SQLException("  relation \"x\" does not exist \n", "42P01");
        DialectException e = mapper.translate(cause);
        assertThat(e.error()).isEqualTo(DialectError.SYNTAX);
        assertThat(e.sqlState()).isEqualTo("42P01");
        assertThat(e.getMessage()).isEqualTo("relation \"x\" does not exist");
        assertThat(e.getCause()).isSameAs(cause);

        DialectException vendorCode = mapper.translate(new SQLException("denied", null, 1142), DialectError.PERMISSION_DENIED);
        assertThat(vendorCode.sqlState()).isEqualTo("1142");
        assertThat(vendorCode.error()).isEqualTo(DialectError.PERMISSION_DENIED);

        assertThat(mapper.translate(new SQLException()).getMessage()).isEqualTo("SQLException");
    }
}
