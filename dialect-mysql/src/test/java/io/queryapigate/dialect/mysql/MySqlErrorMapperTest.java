package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Vendor codes decide before SQLSTATEs: 42000 is a syntax error and an access denial alike. */
class MySqlErrorMapperTest {
    private final MySqlErrorMapper mapper = new MySqlErrorMapper();

    @ParameterizedTest
    @CsvSource({
        "1969, 70100, TIMEOUT",
        "3024, HY000, TIMEOUT",
        "1205, HY000, TIMEOUT",
        "1317, 70100, CANCELLED",
        "1792, 25006, NOT_READ_ONLY",
        "1142, 42000, PERMISSION_DENIED",
        "1044, 42000, PERMISSION_DENIED",
        "1045, 28000, PERMISSION_DENIED",
        "1227, 42000, PERMISSION_DENIED",
        "1370, 42000, PERMISSION_DENIED",
        "1064, 42000, SYNTAX",
        "1049, 42000, SYNTAX",
        "1146, 42S02, SYNTAX",
        "1054, 42S22, SYNTAX",
        "1062, 23000, CONSTRAINT",
        "1452, 23000, CONSTRAINT",
        "1213, 40001, CONFLICT",
        "1040, 08004, UNAVAILABLE",
        "2013, HY000, UNAVAILABLE",
        "2002, HY000, UNAVAILABLE",
        "0, 08S01, UNAVAILABLE",
        "9999, 42000, SYNTAX",
        "9999, HY000, INTERNAL",
    })
    void classifies(int code, String state, DialectError expected) {
        assertThat(mapper.classify(new SQLException("m", state, code))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "The MariaDB server is running with the --read-only option so it cannot execute this statement | NOT_READ_ONLY",
        "The MySQL server is running with the --skip-grant-tables option                                | INTERNAL",
    })
    void readOnlyServerByMessage(String message, DialectError expected) {
        assertThat(mapper.classify(new SQLException(message, "HY000", 1290))).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void connectionExceptionsAreUnavailable() {
        assertThat(mapper.classify(new SQLNonTransientConnectionException("gone", null, 0)))
                .isEqualTo(DialectError.UNAVAILABLE);
        assertThat(mapper.translate(new SQLException("denied", "42000", 1142)).sqlState()).isEqualTo("42000");
    }
}
