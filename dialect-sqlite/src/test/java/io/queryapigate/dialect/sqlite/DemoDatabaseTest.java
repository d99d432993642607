package io.queryapigate.dialect.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * config/demo/demo-sqlite.sql, created the way the quickstart creates it (sqlite.init_script), matches its header,
 * the DuckDB demo's fixed points, and is the same on every run; a failing script leaves no file behind.
 */
class DemoDatabaseTest {

    private static final Path SCRIPT = Path.of("../config/demo/demo-sqlite.sql");
    private static final String FILM = "SELECT f.film_id, f.title, f.release_year, f.rating, f.rental_rate, f.length,"
            + " count(r.rental_id) AS rentals FROM film f LEFT JOIN rental r ON r.film_id = f.film_id"
            + " WHERE f.film_id = ? GROUP BY f.film_id";
    private static final String CHECKSUM = "SELECT group_concat(x, '|') FROM (SELECT x FROM ("
            + " SELECT 'f' || film_id || title || release_year || rating || rental_rate || length AS x FROM film"
            + " UNION ALL SELECT 'c' || customer_id || email || active || created_at FROM customer"
            + " UNION ALL SELECT 'r' || rental_id || film_id || customer_id || rental_date || coalesce(return_date, '-')"
            + " || amount FROM rental) ORDER BY x)";

    @TempDir
    Path home;

    private Dialect demo(String file, Path script) {
        return new SqliteDialectFactory().create(new DialectContext("demo", file, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, 4, home), Map.of("sqlite.init_script", script.toString()));
    }

    private static RecordingSink run(Dialect dialect, String sql, Parameter... parameters) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read(sql, List.of(parameters), Duration.ofSeconds(30), 10_000), sink);
        return sink;
    }

    @Test
    void matchesItsHeaderAndIsTheSameOnEveryRun() {
        assertThat(SCRIPT).isRegularFile();
        String first;
        try (Dialect dialect = demo("demo.sqlite", SCRIPT)) {
            assertThat(run(dialect, "SELECT (SELECT count(*) FROM film), (SELECT count(DISTINCT title) FROM film),"
                    + " (SELECT count(*) FROM customer), (SELECT count(*) FROM customer WHERE NOT active),"
                    + " (SELECT count(*) FROM rental), (SELECT count(*) FROM rental WHERE return_date IS NULL),"
                    + " (SELECT printf('%.2f', sum(amount)) FROM rental)").rows())
                    .containsExactly(List.of(300, 300, 200, 11, 5000, 217, "26568.99"));

            RecordingSink film = run(dialect, FILM, new Parameter("film_id", 1L, JDBCType.BIGINT));
            assertThat(film.columnNames())
                    .containsExactly("film_id", "title", "release_year", "rating", "rental_rate", "length", "rentals");
            assertThat(film.rows()).containsExactly(List.of(1, "FROSTY ARMAGEDDON", 1990, "PG-13", new BigDecimal("2.99"),
                    99, 16));

            assertThat(run(dialect, "SELECT first_name, last_name, email, active, created_at, (SELECT count(*) FROM"
                    + " rental r WHERE r.customer_id = c.customer_id) FROM customer c WHERE customer_id = 1").rows())
                    .containsExactly(List.of("MARY", "NGUYEN", "mary.nguyen.1@example.com", true,
                            LocalDateTime.of(2023, 4, 8, 9, 41), 25));
            assertThat(run(dialect, "SELECT count(*) FROM rental r LEFT JOIN customer c USING (customer_id)"
                    + " LEFT JOIN film f USING (film_id) WHERE c.customer_id IS NULL OR f.film_id IS NULL").singleValue())
                    .isEqualTo(0);
            first = (String) run(dialect, CHECKSUM).singleValue();
        }
        try (Dialect again = demo("again.sqlite", SCRIPT)) {
            assertThat(run(again, CHECKSUM).singleValue()).isEqualTo(first);
        }
    }

    @Test
    void aFailingOrMissingScriptStopsStartupNamingTheKeyAndLeavesNoFile() throws Exception {
        Path broken = Files.writeString(home.resolve("broken.sql"), "CREATE TABLE a (x);\nCREATE TABLE a (x);\n");
        assertThatThrownBy(() -> demo("broken.sqlite", broken)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sqlite.init_script: ").hasMessageContaining("table a already exists");
        assertThatThrownBy(() -> demo("missing.sqlite", home.resolve("nope.sql")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sqlite.init_script: no such file");
        try (var files = Files.list(home)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("broken.sql");
        }
    }
}
