package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writable DuckDB's ceiling of affected rows (the contract test runs read-only, where the capability is not
 * declared): above it rolled back, within it committed, with and without RETURNING.
 */
class DuckDbCeilingTest {
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path home;

    @Test
    void aWriteOverItsCeilingIsRolledBackAndOneWithinIsCommitted() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("w.duckdb"))) {
            c.createStatement().execute("CREATE TABLE t AS SELECT range AS id, 0 AS v FROM range(3)");
        }
        DialectContext context = new DialectContext("w", "w.duckdb", Optional.empty(), Optional.empty(), T, 10_000,
                2, home);
        try (Dialect dialect = new DuckDbDialectFactory().create(context, Map.of("duckdb.read_only", "false"))) {
            assertThat(dialect.capabilities()).contains(Capability.AFFECTED_ROWS_CEILING);
            AffectedRowsExceeded over = catchThrowableOfType(AffectedRowsExceeded.class,
                    () -> dialect.execute(write("UPDATE t SET v = 1", 2), new RecordingSink()));
            assertThat(over).isNotNull();
            assertThat(over.affected()).isEqualTo(3);
            assertThat(sum(dialect)).as("rolled back").isZero();
            AffectedRowsExceeded returning = catchThrowableOfType(AffectedRowsExceeded.class,
                    () -> dialect.execute(write("UPDATE t SET v = 1 RETURNING id", 2), new RecordingSink()));
            assertThat(returning).as("RETURNING rows count as changed").isNotNull();
            assertThat(sum(dialect)).isZero();
            QueryStats within = dialect.execute(write("UPDATE t SET v = 1", 3), new RecordingSink());
            assertThat(within.updateCount()).isEqualTo(3);
            assertThat(sum(dialect)).as("committed").isEqualTo(3);
        }
    }

    private static QueryRequest write(String sql, long ceiling) {
        return new QueryRequest(sql, List.of(), AccessMode.WRITE, T, 100, false, "t", null, ceiling);
    }

    private static long sum(Dialect dialect) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read("SELECT sum(v) FROM t", List.of(), T, 10), sink);
        return ((Number) sink.singleValue()).longValue();
    }
}
