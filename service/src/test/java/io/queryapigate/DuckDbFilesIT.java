package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A DuckDB connection with {@code duckdb.allowed_paths} through the REST API: ad-hoc SQL and a saved query read
 * Parquet and CSV files beneath the allowed directory; {@code ..}, a symbolic link, a sibling directory, another
 * absolute path, a URL, {@code COPY}, {@code ATTACH} and settings are refused, by the guard or by DuckDB.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DuckDbFilesIT {
    private static final Path DATA;
    private static final DropwizardAppExtension<GatewayConfiguration> APP;

    static {
        try {
            DATA = Files.createTempDirectory("qag-duck-files-");
            Path sales = Files.createDirectories(DATA.resolve("sales"));
            Path sibling = Files.createDirectories(DATA.resolve("sales2"));
            Files.writeString(sibling.resolve("secret.csv"), "secret\ns3cr3t\n");
            Files.writeString(sales.resolve("regions.csv"), "region,share\nnorth,0.25\nsouth,0.75\n");
            Files.createSymbolicLink(sales.resolve("link.csv"), sibling.resolve("secret.csv"));
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                s.execute("COPY (SELECT range AS id, range * 10 AS amount FROM range(5)) TO '"
                        + sales.resolve("2026.parquet") + "' (FORMAT parquet)");
            }
            Path init = Files.createTempFile("qag-duck-files-", ".sql");
            Files.writeString(init, "CREATE TABLE shops (id INTEGER);\n");
            APP = new DropwizardAppExtension<>(GatewayApplication.class, TestingConfig.write(
                    "  files:\n    dialect: duckdb\n    url: files.duckdb\n    poolSize: 1\n    properties:\n"
                            + "      duckdb.init_script: " + init + "\n      duckdb.allowed_paths: " + sales + "/\n",
                    "").toString());
        } catch (IOException | SQLException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    private static Http http;
    private static String reader;

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        reader = http.key("reader", Map.of("connections", List.of("files"), "adhoc_sql", true));
    }

    private static Reply sql(String sql) {
        return http.sql(reader, "files", sql);
    }

    @Test
    void adHocSqlReadsParquetAndCsvInsideTheAllowedDirectory() {
        Reply parquet = sql("SELECT sum(amount) AS total FROM read_parquet('" + DATA + "/sales/*.parquet')");
        assertThat(parquet.status()).as(parquet.body()).isEqualTo(200);
        assertThat(parquet.json().get(0).get("total").asLong()).isEqualTo(100L);
        Reply csv = sql("SELECT region FROM read_csv('" + DATA + "/sales/regions.csv') ORDER BY region");
        assertThat(csv.status()).as(csv.body()).isEqualTo(200);
        assertThat(csv.json().get(1).get("region").asText()).isEqualTo("south");
    }

    @Test
    void aSavedQueryReadsTheFilesWithBoundParameters() {
        Reply saved = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "sales_total",
                "sql", "SELECT sum(amount) AS total FROM read_parquet('" + DATA + "/sales/*.parquet') WHERE id >= :min",
                "parameters", Map.of("min", "int"), "connection_name", "files", "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        Reply outside = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "sibling",
                "sql", "SELECT * FROM read_csv('" + DATA + "/sales/../sales2/secret.csv')",
                "connection_name", "files", "publish", true)));
        assertThat(outside.status()).as(outside.body()).isEqualTo(201);
        String key = http.post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "files-key",
                "queries", List.of("sales_total", "sibling")))).json().get("secret").asText();
        Reply total = http.get("/q/sales_total?min=3", key);
        assertThat(total.status()).as(total.body()).isEqualTo(200);
        assertThat(total.json().get(0).get("total").asLong()).isEqualTo(70L);
        Reply refused = http.get("/q/sibling", key);
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("s3cr3t");
    }

    @Test
    void nothingElseIsReachable() {
        for (String sql : List.of(
                "SELECT * FROM read_csv('" + DATA + "/sales/../sales2/secret.csv')",
                "SELECT * FROM read_csv('" + DATA + "/sales2/secret.csv')",
                "SELECT * FROM read_csv('" + DATA + "/sales/link.csv')",
                "SELECT * FROM read_csv('/etc/passwd')",
                "SELECT * FROM read_csv('https://example.com/x.csv')",
                "SELECT * FROM '" + DATA + "/sales2/secret.csv'")) {
            Reply r = sql(sql);
            assertThat(r.status()).as(sql + ": " + r.body()).isEqualTo(403);
            assertThat(r.body()).doesNotContain("s3cr3t");
        }
        for (String sql : List.of(
                "COPY (SELECT 1) TO '" + DATA + "/sales/out.csv'",
                "ATTACH '" + DATA + "/sales/x.duckdb'",
                "SET enable_external_access = true",
                "INSTALL httpfs",
                "LOAD httpfs")) {
            Reply r = sql(sql);
            assertThat(r.status()).as(sql + ": " + r.body()).isIn(400, 403);
        }
        assertThat(Files.exists(DATA.resolve("sales/out.csv"))).isFalse();
        assertThat(Files.exists(DATA.resolve("sales/x.duckdb"))).isFalse();
    }
}
