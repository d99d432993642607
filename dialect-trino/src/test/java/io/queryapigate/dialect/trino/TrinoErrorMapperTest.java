package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TrinoErrorMapperTest {
    private final TrinoErrorMapper mapper = new TrinoErrorMapper();

    /** What trino-jdbc 476 throws for a failed query (measured): SQLSTATE null, the Trino code as vendor code. */
    static SQLException queryFailed(int code, String message) {
        return new SQLException("Query failed (#20261129_203005_00373_m2dru): " + message, (String) null, code);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "131075, EXCEEDED_TIME_LIMIT, TIMEOUT",
        "131077, EXCEEDED_CPU_LIMIT, TIMEOUT",
        "23, READ_ONLY_VIOLATION, NOT_READ_ONLY",
        "4, PERMISSION_DENIED, PERMISSION_DENIED",
        "3, USER_CANCELED, CANCELLED",
        "38, ADMINISTRATIVELY_KILLED, CANCELLED",
        "1, SYNTAX_ERROR, SYNTAX",
        "46, TABLE_NOT_FOUND, SYNTAX",
        "47, COLUMN_NOT_FOUND, SYNTAX",
        "44, CATALOG_NOT_FOUND, SYNTAX",
        "45, SCHEMA_NOT_FOUND, SYNTAX",
        "57, MISSING_SCHEMA_NAME, SYNTAX",
        "8, DIVISION_BY_ZERO, SYNTAX",
        "9, INVALID_CAST_ARGUMENT, SYNTAX",
        "13, NOT_SUPPORTED, SYNTAX",
        "0, GENERIC_USER_ERROR, SYNTAX",
        "131074, QUERY_QUEUE_FULL, UNAVAILABLE",
        "65541, NO_NODES_AVAILABLE, UNAVAILABLE",
        "65548, SERVER_STARTING_UP, UNAVAILABLE",
        "31, QUERY_REJECTED, UNAVAILABLE",
        "22, TRANSACTION_ALREADY_ABORTED, INTERNAL",
        "65536, GENERIC_INTERNAL_ERROR, INTERNAL",
        "131073, EXCEEDED_GLOBAL_MEMORY_LIMIT, RESOURCE_LIMIT",
        "16777216, HIVE_METASTORE_ERROR, INTERNAL"
    })
    void queryFailuresByCode(int code, String name, DialectError expected) {
        SQLException e = queryFailed(code, name);
        assertThat(mapper.classify(e)).isEqualTo(expected);
        DialectException translated = mapper.translate(e);
        assertThat(translated.error()).isEqualTo(expected);
        assertThat(translated.sqlState()).isEqualTo(code == 0 ? null : Integer.toString(code));
    }

    @Test
    void networkFailuresAreUnavailable() {
        SQLException refused = new SQLException("Error executing query: java.net.ConnectException: Failed to connect",
                new UncheckedIOException(new ConnectException("Connection refused")));
        assertThat(mapper.classify(refused)).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(DialectError.UNAVAILABLE.retryable()).isTrue();
    }

    @Test
    void driverFailuresWithoutATrinoErrorAreInternal() {
        // what our own cancel looks like; the dialect decides it from its TimeLimit before asking the mapper
        SQLException cancelled = new SQLException("Error fetching results", new CancellationException());
        assertThat(mapper.classify(cancelled)).isEqualTo(DialectError.INTERNAL);
    }

    @Test
    void refusalsCausedByTheReadOnlyTransaction() {
        assertThat(TrinoErrorMapper.refusedByTransaction(
                queryFailed(13, "Procedures cannot be called within a transaction (use autocommit mode)"))).isTrue();
        assertThat(TrinoErrorMapper.refusedByTransaction(
                queryFailed(0, "Can't set authorization user in the middle of a transaction"))).isTrue();
        assertThat(TrinoErrorMapper.refusedByTransaction(
                queryFailed(13, "This connector does not support modifying table rows"))).isFalse();
        assertThat(TrinoErrorMapper.refusedByTransaction(new SQLException("cannot be called within a transaction")))
                .isFalse();
    }
}
