package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Per-key grants end to end, on a writable DuckDB database where the SQL guard is the only lock: table allow-lists
 * (schema-qualified), write grants narrowed to operations, column masking and address restrictions. Every refusal
 * is checked to have changed nothing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class GrantsAppIT {
    private static final String MASKING_KEY = "test-masking-key-0123456789";
    private static final Path CONFIG = config();
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    private static Path config() {
        try {
            Path init = Files.createTempFile("qag-shop-", ".sql");
            Files.writeString(init, """
                    CREATE TABLE customer (id INTEGER, name VARCHAR, email VARCHAR, ssn VARCHAR);
                    INSERT INTO customer VALUES (1, 'Ada', 'ada@example.com', '123-45-6789'),
                                                (2, 'Bob', 'bob@example.com', '987-65-4321');
                    CREATE TABLE orders (id INTEGER, customer_id INTEGER, total DECIMAL(8,2));
                    INSERT INTO orders VALUES (10, 1, 12.50), (11, 2, 7.25);
                    CREATE SCHEMA billing;
                    CREATE TABLE billing.customer (id INTEGER, card VARCHAR);
                    INSERT INTO billing.customer VALUES (1, '4111-1111');
                    """);
            String shop = "  shop:\n    dialect: duckdb\n    url: shop.duckdb\n    poolSize: 2\n    properties:\n"
                    + "      duckdb.read_only: \"false\"\n      duckdb.init_script: " + init + "\n";
            return TestingConfig.write(shop, "security:\n  allowWrites: true\n  maskingKey: " + MASKING_KEY + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static String key(String name, Map<String, Object> grants) {
        Map<String, Object> body = new java.util.HashMap<>(grants);
        body.put("name", name);
        Reply r = http.post("/api/v1/api-keys", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("secret").asText();
    }

    private static Reply sql(String key, String sql) {
        return http.post("/execute_sql", key, Http.json(Map.of("sql", sql, "connection_name", "shop")));
    }

    private static long count(String table) {
        return sql(ADMIN, "SELECT count(*) AS n FROM " + table).json().get(0).get("n").asLong();
    }

    private static void refused(Reply r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().get("code").asText()).isEqualTo(code);
    }

    @Test
    void tableAllowListsAreSchemaQualified() {
        String k = key("only-customer", Map.of("connections", List.of("shop"), "adhoc_sql", true,
                "allowed_tables", List.of("customer")));
        assertThat(sql(k, "SELECT name FROM customer ORDER BY id").status()).isEqualTo(200);
        assertThat(sql(k, "SELECT name FROM main.customer ORDER BY id").status()).isEqualTo(200);
        refused(sql(k, "SELECT card FROM billing.customer"), 403, "table_not_allowed");
        refused(sql(k, "SELECT * FROM orders"), 403, "table_not_allowed");
        refused(sql(k, "SELEC name FRM customer"), 400, "sql_not_parseable");
        refused(sql(k, "SELECT c.name FROM customer c JOIN orders o ON o.customer_id = c.id"), 403,
                "table_not_allowed");
        refused(sql(k, "SELECT name FROM customer WHERE id IN (SELECT customer_id FROM orders)"), 403,
                "table_not_allowed");
        refused(sql(k, "WITH x AS (SELECT * FROM orders) SELECT * FROM x"), 403, "table_not_allowed");
        refused(sql(k, "SELECT * FROM information_schema.tables"), 403, "table_not_allowed");
        refused(sql(k, "SELECT name FROM customer UNION SELECT card FROM billing.customer"), 403,
                "table_not_allowed");
        Reply file = sql(k, "SELECT * FROM read_csv('/etc/passwd')");
        assertThat(file.status()).as(file.body()).isEqualTo(403);
        assertThat(file.json().get("code").asText()).isIn("read_only", "table_not_allowed");
    }

    @Test
    void writesNeedAGrantAndAreNarrowedToOperations() {
        String reader = key("reader", Map.of("connections", List.of("shop"), "adhoc_sql", true));
        String inserter = key("inserter", Map.of("connections", List.of("shop"), "adhoc_sql", true,
                "allow_writes", true, "allowed_write_ops", List.of("insert")));
        long orders = count("orders");
        refused(sql(reader, "INSERT INTO orders VALUES (99, 1, 1.00)"), 403, "read_only");
        refused(sql(reader, "WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d"), 403, "read_only");
        refused(sql(reader, "EXPLAIN ANALYZE DELETE FROM orders"), 403, "read_only");
        refused(sql(reader, "SELECT 1; DELETE FROM orders"), 400, "multiple_statements");
        refused(sql(inserter, "DELETE FROM orders"), 403, "write_op_not_allowed");
        refused(sql(inserter, "EXPLAIN ANALYZE DELETE FROM orders"), 403, "write_op_not_allowed");
        assertThat(count("orders")).isEqualTo(orders);

        Reply inserted = sql(inserter, "INSERT INTO orders VALUES (99, 1, 1.00)");
        assertThat(inserted.status()).as(inserted.body()).isEqualTo(200);
        assertThat(inserted.json().get("rows_affected").asLong()).isEqualTo(1);
        assertThat(count("orders")).isEqualTo(orders + 1);
        assertThat(sql(ADMIN, "DELETE FROM orders WHERE id = 99").json().get("rows_affected").asLong())
                .isEqualTo(1);
    }

    @Test
    void maskedColumnsAreReplacedByProvenanceOrRefused() throws Exception {
        String k = key("masked", Map.of("connections", List.of("shop"), "adhoc_sql", true, "mask", List.of(
                Map.of("column", "customer.email", "action", "last", "keep", 4),
                Map.of("column", "customer.ssn", "action", "null"),
                Map.of("column", "main.customer.name", "action", "hash"))));
        Reply r = sql(k, "SELECT c.id, c.email, ssn, upper(c.name) AS shout, o.total FROM customer c"
                + " JOIN orders o ON o.customer_id = c.id WHERE c.id = 1");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode row = r.json().get(0);
        assertThat(row.get("id").asInt()).isEqualTo(1);
        assertThat(row.get("email").asText()).isEqualTo("***********.com");
        assertThat(row.get("ssn").isNull()).isTrue();
        assertThat(row.get("shout").asText()).isEqualTo(hmac("ADA"));
        assertThat(row.get("total").decimalValue()).isEqualByComparingTo("12.50");
        assertThat(sql(k, "SELECT total FROM orders WHERE id = 10").json().get(0).get("total").decimalValue())
                .isEqualByComparingTo("12.50");
        refused(sql(k, "SELECT * FROM customer"), 403, "column_masked_unresolvable");
        refused(sql(k, "SELECT x.email FROM (SELECT email FROM customer) x"), 403, "column_masked_unresolvable");
        refused(sql(k, "SELECT (SELECT email FROM customer LIMIT 1) AS e FROM orders"), 403,
                "column_masked_unresolvable");
        refused(sql(k, "SELECT email FROM customer UNION ALL SELECT 'x'"), 403, "column_masked_unresolvable");
        Reply admin = sql(ADMIN, "SELECT email FROM customer WHERE id = 1");
        assertThat(admin.json().get(0).get("email").asText()).isEqualTo("ada@example.com");
    }

    private static String hmac(String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(MASKING_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void keysRestrictedToAddressesAreRefusedElsewhere() {
        String local = key("local-only", Map.of("connections", List.of("shop"), "adhoc_sql", true,
                "allowed_ips", List.of("127.0.0.1", "::1")));
        String elsewhere = key("office-only", Map.of("connections", List.of("shop"), "adhoc_sql", true,
                "allowed_ips", List.of("10.0.0.0/8")));
        String nowhere = key("nowhere", Map.of("connections", List.of("shop"), "adhoc_sql", true,
                "allowed_ips", List.of()));
        assertThat(sql(local, "SELECT 1 AS one").status()).isEqualTo(200);
        refused(sql(elsewhere, "SELECT 1 AS one"), 401, "unauthorized");
        refused(sql(nowhere, "SELECT 1 AS one"), 401, "unauthorized");
        Reply spoofed = http.send(http.builder("/execute_sql", elsewhere).header("Content-Type", "application/json")
                .header("X-Forwarded-For", "10.1.2.3")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Http.json(Map.of("sql", "SELECT 1",
                        "connection_name", "shop")))).build());
        assertThat(spoofed.status()).as("X-Forwarded-For is ignored without trusted proxies").isEqualTo(401);
        refused(http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"bad-ip\", \"allowed_ips\": [\"10.0.0.0/33\"]}"),
                400, "invalid_body");
        refused(http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"bad-ip2\", \"allowed_ips\": [\"example.com\"]}"),
                400, "invalid_body");
    }

    @Test
    void savedQueriesAreCheckedAgainstTheCallersTables() {
        Reply q = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "order_totals", "sql",
                "SELECT id, total FROM orders ORDER BY id", "connection_name", "shop", "publish", true)));
        assertThat(q.status()).as(q.body()).isEqualTo(201);
        String restricted = key("restricted-saved", Map.of("queries", List.of("order_totals"),
                "allowed_tables", List.of("customer")));
        refused(http.get("/q/order_totals", restricted), 403, "table_not_allowed");
        String allowed = key("allowed-saved", Map.of("queries", List.of("order_totals"),
                "allowed_tables", List.of("orders")));
        assertThat(http.get("/q/order_totals", allowed).status()).isEqualTo(200);
    }
}
