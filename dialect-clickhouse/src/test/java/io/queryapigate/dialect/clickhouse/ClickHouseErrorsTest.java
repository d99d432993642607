package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Exception codes and HTTP statuses to error classes. */
class ClickHouseErrorsTest {

    @ParameterizedTest
    @CsvSource({
            "159, TIMEOUT", "164, NOT_READ_ONLY", "396, ROW_LIMIT", "394, CANCELLED",
            "60, SYNTAX", "62, SYNTAX", "47, SYNTAX", "46, SYNTAX", "81, SYNTAX", "113, SYNTAX",
            "497, PERMISSION_DENIED", "192, PERMISSION_DENIED", "193, PERMISSION_DENIED", "516, PERMISSION_DENIED",
            "202, UNAVAILABLE", "241, RESOURCE_LIMIT", "395, INTERNAL"})
    void byCode(int code, DialectError expected) {
        assertThat(ClickHouseErrors.classify(code, 500)).isEqualTo(expected);
    }

    @Test
    void byStatusWithoutACode() {
        assertThat(ClickHouseErrors.classify(-1, 401)).isEqualTo(DialectError.PERMISSION_DENIED);
        assertThat(ClickHouseErrors.classify(-1, 503)).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(ClickHouseErrors.classify(-1, 500)).isEqualTo(DialectError.INTERNAL);
    }

    @Test
    void oldAndNewErrorTexts() {
        String old = "Code: 60, e.displayText() = DB::Exception: Table default.nope doesn't exist., e.what() = DB::Exception\n";
        assertThat(ClickHouseErrors.code(old)).isEqualTo(60);
        assertThat(ClickHouseErrors.message(old)).isEqualTo("DB::Exception: Table default.nope doesn't exist.");
        String current = "Code: 60. DB::Exception: Table default.nope does not exist. (UNKNOWN_TABLE) (version 24.8.1.1)\n";
        assertThat(ClickHouseErrors.code(current)).isEqualTo(60);
        assertThat(ClickHouseErrors.message(current)).startsWith("Code: 60. DB::Exception: Table default.nope");
        assertThat(ClickHouseErrors.code("Bad Gateway")).isEqualTo(-1);
        assertThat(ClickHouseErrors.code("Code: 99999999999999999999, x")).isEqualTo(-1);
    }

    @Test
    void exceptionsCarryTheCodeAndTheConnection() {
        DialectException e = ClickHouseErrors.fromServer("crm",
                "Code: 164, e.displayText() = DB::Exception: Cannot insert into table in readonly mode, e.what() = DB::Exception",
                500);
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(e.sqlState()).isEqualTo("164");
        assertThat(e.getMessage()).isEqualTo("connection 'crm': ClickHouse error 164: DB::Exception: Cannot insert into"
                + " table in readonly mode");
        DialectException proxy = ClickHouseErrors.fromServer("crm", "<html>bad gateway</html>", 502);
        assertThat(proxy.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(proxy.sqlState()).isNull();
        assertThat(ClickHouseErrors.message("x".repeat(5000))).hasSize(ClickHouseErrors.MAX_MESSAGE + 3);
    }
}
