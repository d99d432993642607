package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectError;
import java.io.IOException;
import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PostgresErrorMapperTest {

    private final PostgresErrorMapper mapper = new PostgresErrorMapper();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "57014, TIMEOUT",
        "25006, NOT_READ_ONLY",
        "25001, NOT_READ_ONLY",
        "42501, PERMISSION_DENIED",
        "08000, UNAVAILABLE",
        "08001, UNAVAILABLE",
        "08006, UNAVAILABLE",
        "08P01, UNAVAILABLE",
        "57P01, UNAVAILABLE",
        "57P02, UNAVAILABLE",
        "57P03, UNAVAILABLE",
        "53300, UNAVAILABLE",
        "28P01, UNAVAILABLE",
        "3D000, UNAVAILABLE",
        "42P01, SYNTAX",
        "42703, SYNTAX",
        "42601, SYNTAX",
        "42883, SYNTAX",
        "22012, SYNTAX",
        "0A000, SYNTAX",
        "3F000, SYNTAX",
        "40001, CONFLICT",
        "40P01, CONFLICT",
        "23505, CONSTRAINT",
        "53200, RESOURCE_LIMIT",
        "XX000, INTERNAL",
    })
    void classifiesBySqlState(String state, DialectError expected) {
        assertThat(mapper.classify(new SQLException("x", state))).isEqualTo(expected);
        assertThat(mapper.translate(new SQLException("message", state)).sqlState()).isEqualTo(state);
    }

    @Test
    void socketFailuresWithoutAStateAreUnavailable() {
        assertThat(mapper.classify(new SQLException("broken pipe", null, new IOException("broken pipe"))))
                .isEqualTo(DialectError.UNAVAILABLE);
        assertThat(mapper.classify(new SQLException("something"))).isEqualTo(DialectError.INTERNAL);
    }
}
