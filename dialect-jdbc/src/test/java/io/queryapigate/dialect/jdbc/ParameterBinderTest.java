package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Checks which JDBC setter each value kind goes through, on a statement that records the calls. */
class ParameterBinderTest {

    private final List<String> calls = new ArrayList<>();
    private final PreparedStatement statement = (PreparedStatement) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                calls.add(method.getName() + Arrays.toString(args));
                return null;
            });

    @Test
    void eachKindGoesThroughItsOwnSetter() throws SQLException {
        LocalDate date = LocalDate.of(2024, 2, 29);
        LocalDateTime timestamp = LocalDateTime.of(2024, 2, 29, 13, 14, 15);
        OffsetDateTime zoned = OffsetDateTime.of(2024, 2, 29, 13, 14, 15, 0, ZoneOffset.ofHours(2));
        new ParameterBinder().bindAll(statement, List.of(
                new Parameter("a", 42L, JDBCType.BIGINT),
                new Parameter("b", 2.5d, JDBCType.DOUBLE),
                new Parameter("c", new BigDecimal("12.34"), JDBCType.DECIMAL),
                new Parameter("d", "x'; DROP TABLE t; --", JDBCType.VARCHAR),
                new Parameter("e", true, JDBCType.BOOLEAN),
                new Parameter("f", date, JDBCType.DATE),
                new Parameter("g", timestamp, JDBCType.TIMESTAMP),
                new Parameter("h", zoned, JDBCType.TIMESTAMP_WITH_TIMEZONE),
                new Parameter("i", null, JDBCType.DATE),
                new Parameter("j", null, JDBCType.VARCHAR),
                new Parameter("k", 7, JDBCType.INTEGER)));
        assertThat(calls).containsExactly(
                "setLong[1, 42]",
                "setDouble[2, 2.5]",
                "setBigDecimal[3, 12.34]",
                "setString[4, x'; DROP TABLE t; --]",
                "setBoolean[5, true]",
                "setObject[6, 2024-02-29]",
                "setObject[7, 2024-02-29T13:14:15]",
                "setObject[8, 2024-02-29T13:14:15+02:00]",
                "setNull[9, " + java.sql.Types.DATE + "]",
                "setNull[10, " + java.sql.Types.VARCHAR + "]",
                "setInt[11, 7]");
    }

    @Test
    void aValueOutsideTheSpiKindsIsAnInternalError() {
        assertThatThrownBy(() -> new ParameterBinder().bindAll(statement,
                        List.of(new Parameter("when", new java.util.Date(0), JDBCType.DATE))))
                .isInstanceOfSatisfying(DialectException.class, e -> {
                    assertThat(e.error()).isEqualTo(DialectError.INTERNAL);
                    assertThat(e.getMessage()).contains("'when'").contains("java.util.Date");
                });
        assertThat(calls).isEmpty();
    }
}
