package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config/demo/demo-duckdb.sql, created the way the quickstart creates it, is complete and deterministic. */
class DemoDatabaseTest {

    private static final Path SCRIPT = Path.of("../config/demo/demo-duckdb.sql");
    private static final String CHECKSUM = "SELECT md5(string_agg(x, '|' ORDER BY x)) FROM ("
            + " SELECT 'f' || f::VARCHAR AS x FROM film f"
            + " UNION ALL SELECT 'c' || c::VARCHAR FROM customer c"
            + " UNION ALL SELECT 'r' || r::VARCHAR FROM rental r)";

    @TempDir
    Path home;

    private Dialect demo(String file) {
        return new DuckDbDialectFactory().create(new DialectContext("demo", file, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, 4, home), Map.of("duckdb.read_only", "true",
                "duckdb.init_script", SCRIPT.toString()));
    }

    private static RecordingSink run(Dialect dialect, String sql, Parameter... parameters) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read(sql, List.of(parameters), Duration.ofSeconds(30), 10_000), sink);
        return sink;
    }

    @Test
    void matchesItsHeaderAndIsTheSameOnEveryRun() throws Exception {
        assertThat(SCRIPT).isRegularFile();
        String first;
        try (Dialect dialect = demo("demo.duckdb")) {
            assertThat(run(dialect, "SELECT (SELECT count(*) FROM film), (SELECT count(DISTINCT title) FROM film),"
                    + " (SELECT count(*) FROM customer), (SELECT count(*) FROM customer WHERE NOT active),"
                    + " (SELECT count(*) FROM rental), (SELECT count(*) FROM rental WHERE return_date IS NULL),"
                    + " (SELECT sum(amount) FROM rental)").rows())
                    .containsExactly(List.of(300L, 300L, 200L, 11L, 5000L, 217L, new BigDecimal("26568.99")));

            RecordingSink film = run(dialect, Files.readString(Path.of("src/test/resources/film-by-id.sql")),
                    new Parameter("film_id", 1L, JDBCType.BIGINT));
            assertThat(film.columnNames()).containsExactly("film_id", "title", "release_year", "rating", "rental_rate", "length", "rentals");
            assertThat(film.rows()).containsExactly(List.of(1, "FROSTY ARMAGEDDON", 1990, "PG-13", new BigDecimal("2.99"), 99, 16L));

            assertThat(run(dialect, "SELECT first_name, last_name, email, active, (SELECT count(*) FROM rental r"
                    + " WHERE r.customer_id = c.customer_id) FROM customer c WHERE customer_id = 1").rows())
                    .containsExactly(List.of("MARY", "NGUYEN", "mary.nguyen.1@example.com", true, 25L));
            assertThat(run(dialect, "SELECT count(*) FROM rental r LEFT JOIN customer c USING (customer_id)"
                    + " LEFT JOIN film f USING (film_id) WHERE c.customer_id IS NULL OR f.film_id IS NULL").singleValue())
                    .isEqualTo(0L);
            first = (String) run(dialect, CHECKSUM).singleValue();
        }
        try (Dialect again = demo("again.duckdb")) {
            assertThat(run(again, CHECKSUM).singleValue()).isEqualTo(first);
        }
    }
}
