package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.DialectCalls;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code duckdb.allowed_paths}: SQL reads Parquet and CSV files beneath the allowed directory (and the one allowed
 * file), and nothing else: not through {@code ..}, a symbolic link, a sibling directory whose name starts with the
 * allowed one's, another absolute path, a URL, {@code ATTACH}, {@code COPY}, an extension, or a setting. Real files
 * written by the test, a real DuckDB.
 */
class DuckDbAllowedPathsTest {

    @TempDir
    Path home;

    private Path sales;
    private Path sibling;
    private Path outside;
    private Path prices;
    private final List<Dialect> dialects = new ArrayList<>();

    @BeforeEach
    void writeFiles() throws Exception {
        sales = Files.createDirectories(home.resolve("data/sales"));
        sibling = Files.createDirectories(home.resolve("data/sales2"));
        outside = Files.createDirectories(home.resolve("private"));
        prices = home.resolve("data/prices.csv");
        Files.writeString(prices, "sku,price\na,1.5\nb,2.5\n");
        Files.writeString(sibling.resolve("secret.csv"), "secret\ns3cr3t-sibling\n");
        Files.writeString(outside.resolve("secret.csv"), "secret\ns3cr3t-outside\n");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("shop.duckdb"));
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE shops AS SELECT range AS id FROM range(2)");
            s.execute("COPY (SELECT range AS id, range * 10 AS amount FROM range(3)) TO '" + sales.resolve("2025.parquet")
                    + "' (FORMAT parquet)");
            s.execute("COPY (SELECT range + 3 AS id, range * 10 AS amount FROM range(4)) TO '"
                    + sales.resolve("2026.parquet") + "' (FORMAT parquet)");
            s.execute("COPY (SELECT 's3cr3t-parquet' AS secret) TO '" + outside.resolve("secret.parquet")
                    + "' (FORMAT parquet)");
        }
        Files.writeString(sales.resolve("regions.csv"), "region,share\nnorth,0.25\nsouth,0.75\n");
        Files.createSymbolicLink(sales.resolve("link.csv"), outside.resolve("secret.csv"));
        Files.createSymbolicLink(sales.resolve("linkdir"), outside);
    }

    @AfterEach
    void close() {
        dialects.forEach(Dialect::close);
    }

    private Dialect dialect(boolean readOnly, String allowedPaths) {
        DialectContext context = new DialectContext("files", "shop.duckdb", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, 2, home);
        Dialect dialect = new DuckDbDialectFactory().create(context, Map.of("duckdb.read_only", Boolean.toString(readOnly),
                DuckDbDialectConfig.ALLOWED_PATHS, allowedPaths));
        dialects.add(dialect);
        return dialect;
    }

    private Dialect allowingSales(boolean readOnly) {
        return dialect(readOnly, sales + "/, " + prices);
    }

    private static RecordingSink run(Dialect dialect, String sql) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000), sink);
        return sink;
    }

    private static DialectException refused(Dialect dialect, String sql, AccessMode mode) {
        DialectException e = DialectCalls.refused(dialect, sql, mode);
        assertThat(e.getMessage()).doesNotContain("s3cr3t");
        return e;
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void parquetAndCsvFilesInsideTheAllowedPathsAreRead(boolean readOnly) {
        Dialect dialect = allowingSales(readOnly);
        assertThat(run(dialect, "SELECT count(*), sum(amount) FROM read_parquet('" + sales + "/*.parquet')").rows())
                .containsExactly(List.of(7L, 90L));
        assertThat(run(dialect, "SELECT sum(amount) FROM '" + sales.resolve("2026.parquet") + "'").singleValue())
                .isEqualTo(60L);
        assertThat(run(dialect, "SELECT region FROM read_csv('" + sales.resolve("regions.csv") + "') ORDER BY 1")
                .column("region")).containsExactly("north", "south");
        assertThat(run(dialect, "SELECT sum(price) FROM read_csv('" + prices + "')").singleValue())
                .isEqualTo(4.0);
        assertThat(run(dialect, "SELECT count(*) FROM shops").singleValue()).isEqualTo(2L);
        // a path DuckDB folds back inside the prefix is inside
        assertThat(run(dialect, "SELECT count(*) FROM read_parquet('" + sales + "/../sales/2025.parquet')")
                .singleValue()).isEqualTo(3L);
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void nothingOutsideTheAllowedPathsIsReachable(boolean readOnly) {
        Dialect dialect = allowingSales(readOnly);
        for (String path : List.of(
                sales + "/../sales2/secret.csv",
                sales + "/../../private/secret.csv",
                sales + "/./../sales2/secret.csv",
                sibling + "/secret.csv",
                sales + "2/secret.csv",
                outside + "/secret.csv",
                sales.resolve("link.csv").toString(),
                sales + "/linkdir/secret.csv",
                home.resolve("data") + "/sales*/secret.csv",
                home.resolve("data/prices.csv") + "/../sales2/secret.csv",
                "/etc/passwd",
                "file://" + outside + "/secret.csv",
                "~/secret.csv",
                "https://example.com/prices.csv",
                "s3://bucket/prices.csv")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, "SELECT * FROM read_csv('" + path + "')", mode);
                assertThat(e.error()).as(path + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            }
        }
        for (String sql : List.of(
                "SELECT * FROM read_parquet('" + outside + "/secret.parquet')",
                "SELECT * FROM '" + outside + "/secret.parquet'",
                "SELECT * FROM read_text('" + outside + "/secret.csv')",
                "SELECT * FROM glob('" + home.resolve("data") + "/*')",
                "SELECT * FROM glob('" + sales + "/linkdir/*')",
                "SELECT * FROM read_csv('" + sales + "/*.csv')")) { // the glob matches link.csv, which points out
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            }
        }
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void nothingIsWrittenAttachedInstalledOrUnlocked(boolean readOnly) throws Exception {
        Dialect dialect = allowingSales(readOnly);
        Path copy = sales.resolve("copy.csv");
        for (String sql : List.of(
                "COPY (SELECT 1 AS x) TO '" + copy + "'",
                "copy shops TO '" + copy + "' (FORMAT csv)",
                "EXPORT DATABASE '" + sales.resolve("export") + "'",
                "ATTACH '" + sales.resolve("new.duckdb") + "' AS other",
                "ATTACH '" + home.resolve("shop.duckdb") + "' AS again",
                "INSTALL httpfs",
                "LOAD httpfs",
                "LOAD '" + sales.resolve("x.duckdb_extension") + "'",
                "SET allowed_directories = ['/']",
                "SET allowed_paths = ['" + outside + "/secret.csv']",
                "SET enable_external_access = true",
                "RESET lock_configuration",
                "SET disabled_filesystems = ''")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            }
        }
        try (var listing = Files.list(sales)) {
            assertThat(listing.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("2025.parquet", "2026.parquet", "regions.csv", "link.csv", "linkdir");
        }
        // DuckDB adds its own spill directory (temp_directory) to the allowed directories, always
        assertThat(run(dialect, "SELECT current_setting('allowed_directories')::VARCHAR").singleValue())
                .isEqualTo("[" + sales + "/, " + home.resolve("shop.duckdb.tmp") + "/]");
        assertThat(run(dialect, "SELECT current_setting('enable_external_access')").singleValue()).isEqualTo(false);
        assertThat(run(dialect, "SELECT current_setting('lock_configuration')").singleValue()).isEqualTo(true);
    }

    @Test
    void aDirectoryWithoutTheTrailingSlashIsStillADirectoryAndDoesNotCoverItsSibling() {
        Dialect dialect = dialect(true, sales.toString());
        assertThat(run(dialect, "SELECT count(*) FROM read_parquet('" + sales + "/2025.parquet')").singleValue())
                .isEqualTo(3L);
        assertThat(refused(dialect, "SELECT * FROM read_csv('" + sibling + "/secret.csv')", AccessMode.READ).error())
                .isEqualTo(DialectError.PERMISSION_DENIED);
    }

    @Test
    void withoutAllowedPathsNoFileIsReadAndCopyIsLeftToDuckDb() {
        Dialect dialect = dialect(true, " , ");
        assertThat(run(dialect, "SELECT current_setting('allowed_directories')::VARCHAR").singleValue())
                .isEqualTo("[" + home.resolve("shop.duckdb.tmp") + "/]");
        assertThat(refused(dialect, "SELECT * FROM read_parquet('" + sales + "/2025.parquet')", AccessMode.READ).error())
                .isEqualTo(DialectError.PERMISSION_DENIED);
        DialectException copy = refused(dialect, "COPY (SELECT 1) TO '" + sales.resolve("x.csv") + "'", AccessMode.WRITE);
        assertThat(copy.getMessage()).doesNotStartWith("the duckdb dialect refuses");
        assertThat(Files.exists(sales.resolve("x.csv"))).isFalse();
    }

    @Test
    void badEntriesStopTheConnectionNamingTheKey() {
        for (String bad : List.of("data/sales/", sales + "/../private/", "/", sales + "/*.parquet",
                "https://example.com/x.csv", "s3://bucket/sales/", sales + "/it's.csv", sales + "/[x]")) {
            assertThatThrownBy(() -> dialect(true, bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("duckdb.allowed_paths: ");
        }
        assertThatThrownBy(() -> dialect(true, "")).hasMessage("duckdb.allowed_paths: expected comma-separated absolute"
                + " paths, got an empty value");
    }

    @Test
    void theConfigSplitsDirectoriesFromFiles() {
        DuckDbDialectConfig config = DuckDbDialectConfig.fromProperties(Map.of(DuckDbDialectConfig.ALLOWED_PATHS,
                " " + sales + "/ ," + prices + ", " + outside + ", /no/such/file.csv"));
        assertThat(config.allowedDirectories()).containsExactly(sales + "/", outside + "/");
        assertThat(config.allowedFiles()).containsExactly(prices.toString(), "/no/such/file.csv");
        assertThat(config.readsFiles()).isTrue();
        assertThat(DuckDbDialectConfig.defaults().readsFiles()).isFalse();
    }
}
