package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The schema browser and descriptions on the real databases: an embedded DuckDB file, PostgreSQL and MariaDB, each
 * with tables, views and comments made here; as the administrator and as keys with table allow-lists and masks.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SchemaBrowserIT {
    private static final TestServers.Server PG = TestServers.postgres();
    private static final TestServers.Server MARIA = TestServers.mariadb();
    private static final String NAME = "qag_sb_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final Path CONFIG = config();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static Http http;

    private static Path config() {
        try {
            Path dir = Files.createTempDirectory("qag-schema-");
            Path duck = dir.resolve("shop.duckdb");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duck); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE customer (id INTEGER PRIMARY KEY, email VARCHAR NOT NULL, tier VARCHAR)");
                s.execute("COMMENT ON TABLE customer IS 'One row per customer'");
                s.execute("COMMENT ON COLUMN customer.email IS 'Where receipts go'");
                s.execute("COMMENT ON COLUMN customer.tier IS 'A to C'");
                s.execute("CREATE SCHEMA sales");
                s.execute("CREATE TABLE sales.orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amt DECIMAL(12,2))");
                s.execute("CREATE TABLE secret_notes (id INTEGER)");
                s.execute("CREATE VIEW tiers AS SELECT DISTINCT tier FROM customer");
            }
            PG.execute("CREATE SCHEMA " + NAME,
                    "CREATE TABLE " + NAME + ".account (id integer PRIMARY KEY, owner text NOT NULL, balance numeric)",
                    "COMMENT ON TABLE " + NAME + ".account IS 'Ledger accounts'",
                    "COMMENT ON COLUMN " + NAME + ".account.balance IS 'In cents'",
                    "CREATE TABLE " + NAME + ".audit (id integer)");
            MARIA.execute("CREATE TABLE " + NAME + " (id INT NOT NULL PRIMARY KEY, label VARCHAR(20) COMMENT 'Shown to"
                    + " people') COMMENT 'Things'");
            int closed;
            try (ServerSocket s = new ServerSocket(0)) {
                closed = s.getLocalPort();
            }
            String connections = "  duck:\n    dialect: duckdb\n    url: " + duck + "\n    poolSize: 2\n"
                    + "    properties:\n      duckdb.read_only: \"true\"\n"
                    + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                    + "\n    password: " + PG.password() + "\n    poolSize: 1\n"
                    + "  maria:\n    dialect: mysql\n    url: " + MARIA.url() + "\n    user: " + MARIA.user()
                    + "\n    password: " + MARIA.password() + "\n    poolSize: 1\n"
                    + "  down:\n    dialect: postgres\n    url: jdbc:postgresql://127.0.0.1:" + closed + "/nothing\n"
                    + "    user: nobody\n    poolSize: 1\n    queryTimeout: 2s\n";
            return TestingConfig.write(connections, "security:\n  allowWrites: true\n");
        } catch (IOException | SQLException e) {
            throw new AssertionError(e);
        }
    }

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @AfterAll
    static void dropTables() {
        PG.execute("DROP SCHEMA IF EXISTS " + NAME + " CASCADE");
        MARIA.execute("DROP TABLE IF EXISTS " + NAME);
    }

    private static JsonNode schema(String connection, String query) {
        Reply r = http.get("/api/v1/connections/" + connection + "/schema" + query, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static JsonNode table(JsonNode schema, String schemaName, String name) {
        for (JsonNode t : schema.get("tables")) {
            if (t.get("name").asText().equals(name) && t.get("schema").asText().equals(schemaName)) {
                return t;
            }
        }
        throw new AssertionError("no table " + schemaName + "." + name + " in " + schema);
    }

    private static JsonNode column(JsonNode table, String name) {
        for (JsonNode c : table.get("columns")) {
            if (c.get("name").asText().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new AssertionError("no column " + name + " in " + table);
    }

    private static List<String> names(JsonNode schema) {
        List<String> out = new ArrayList<>();
        schema.get("tables").forEach(t -> out.add(t.get("schema").asText() + "." + t.get("name").asText()));
        return out;
    }

    private static Reply patch(String connection, String items) {
        return http.patch("/api/v1/connections/" + connection + "/descriptions", ADMIN, "{\"items\": " + items + "}");
    }

    @Test
    void duckDbTablesViewsColumnsKeysAndComments() {
        JsonNode s = schema("duck", "");
        assertThat(s.get("dialect").asText()).isEqualTo("duckdb");
        assertThat(s.get("truncated").asBoolean()).isFalse();
        assertThat(s.get("described_at").asText()).matches("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}");
        assertThat(names(s)).contains("main.customer", "main.tiers", "sales.orders", "main.secret_notes");
        JsonNode customer = table(s, "main", "customer");
        assertThat(customer.get("type").asText()).isEqualTo("table");
        assertThat(customer.get("comment").asText()).isEqualTo("One row per customer");
        JsonNode id = column(customer, "id");
        assertThat(id.get("primary_key").asBoolean()).isTrue();
        assertThat(id.get("nullable").asBoolean()).isFalse();
        assertThat(id.get("position").asInt()).isEqualTo(1);
        assertThat(column(customer, "email").get("comment").asText()).isEqualTo("Where receipts go");
        assertThat(column(customer, "email").get("masked").asBoolean()).isFalse();
        assertThat(column(customer, "tier").get("nullable").asBoolean()).isTrue();
        assertThat(table(s, "main", "tiers").get("type").asText()).isEqualTo("view");
        assertThat(column(table(s, "sales", "orders"), "amt").get("type").asText()).startsWith("DECIMAL");
    }

    @Test
    void descriptionsRoundTripAndAreServedWithTheSchemaAndSavedQueries() {
        Reply set = patch("duck", "[{\"table\": \"customer\", \"column\": \"tier\", \"description\": \"Loyalty tier\"},"
                + "{\"table\": \"orders\", \"schema\": \"sales\", \"column\": \"amt\", \"description\": \"Net, EUR\"},"
                + "{\"table\": \"secret_notes\", \"description\": \"Internal\"},"
                + "{\"table\": null, \"description\": \"Join orders to customer on customer_id\"}]");
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        assertThat(set.json().get("items").findValuesAsText("description")).contains("Loyalty tier", "Net, EUR",
                "Join orders to customer on customer_id");
        JsonNode listed = http.get("/api/v1/connections/duck/descriptions", ADMIN).json().get("items");
        assertThat(listed.get(0).get("table").isNull()).as("the notes first").isTrue();
        assertThat(listed.findValuesAsText("source")).containsOnly("written");

        JsonNode s = schema("duck", "");
        assertThat(s.get("notes").asText()).isEqualTo("Join orders to customer on customer_id");
        assertThat(column(table(s, "main", "customer"), "tier").get("description").asText()).isEqualTo("Loyalty tier");
        assertThat(column(table(s, "sales", "orders"), "amt").get("description").asText()).isEqualTo("Net, EUR");
        assertThat(table(s, "main", "secret_notes").get("description").asText()).isEqualTo("Internal");

        Reply saved = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "sb_orders", "connection_name",
                "duck", "sql", "SELECT o.id, o.amt, c.tier FROM sales.orders o JOIN customer c ON c.id = o.customer_id",
                "columns", Map.of("id", "The order"))));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        JsonNode version = http.get("/api/v1/queries/sb_orders/versions/1", ADMIN).json();
        assertThat(version.get("column_descriptions").toString())
                .isEqualTo("{\"id\":\"The order\",\"amt\":\"Net, EUR\",\"tier\":\"Loyalty tier\"}");
        assertThat(version.get("columns").toString()).as("as saved").isEqualTo("{\"id\":\"The order\"}");

        Reply removed = patch("duck", "[{\"table\": \"secret_notes\", \"description\": null}]");
        assertThat(removed.json().get("items").findValuesAsText("description")).doesNotContain("Internal");
        assertThat(table(schema("duck", ""), "main", "secret_notes").get("description").isNull()).isTrue();
    }

    @Test
    void anImportTakesTheDatabasesCommentsAndKeepsWrittenDescriptionsUnlessAsked() {
        patch("maria", "[{\"table\": \"" + NAME + "\", \"column\": \"label\", \"description\": \"Written here\"}]");
        Reply imported = http.post("/api/v1/connections/maria/descriptions/import", ADMIN, "");
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        JsonNode body = imported.json();
        assertThat(body.get("found").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(body.get("kept").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(description(body, NAME, null)).isEqualTo("Things/database");
        assertThat(description(body, NAME, "label")).isEqualTo("Written here/written");

        JsonNode again = http.post("/api/v1/connections/maria/descriptions/import", ADMIN,
                "{\"overwrite\": true}").json();
        assertThat(description(again, NAME, "label")).isEqualTo("Shown to people/database");

        JsonNode s = schema("maria", "");
        JsonNode t = table(s, s.get("tables").get(0).get("schema").asText(), NAME);
        assertThat(t.get("comment").asText()).isEqualTo("Things");
        assertThat(t.get("description").asText()).isEqualTo("Things");
        assertThat(column(t, "label").get("comment").asText()).isEqualTo("Shown to people");
        assertThat(column(t, "id").get("primary_key").asBoolean()).isTrue();

        http.post("/api/v1/connections/maria/descriptions/import", ADMIN, "{\"overwrite\": 1}")
                .assertRefused(400, "invalid_body");
    }

    private static String description(JsonNode answer, String table, String column) {
        for (JsonNode i : answer.get("items")) {
            if (i.get("table").asText().equals(table) && (column == null ? i.get("column").isNull()
                    : column.equals(i.get("column").asText()))) {
                return i.get("description").asText() + "/" + i.get("source").asText();
            }
        }
        return null;
    }

    @Test
    void postgresCommentsAndAKeysViewOfItsAllowedTables() {
        JsonNode s = schema("pg", "");
        JsonNode account = table(s, NAME, "account");
        assertThat(account.get("comment").asText()).isEqualTo("Ledger accounts");
        assertThat(column(account, "balance").get("comment").asText()).isEqualTo("In cents");
        assertThat(column(account, "owner").get("nullable").asBoolean()).isFalse();
        assertThat(column(account, "id").get("primary_key").asBoolean()).isTrue();

        JsonNode imported = http.post("/api/v1/connections/pg/descriptions/import", ADMIN, "{}").json();
        assertThat(imported.get("items").toString()).contains("In cents", "Ledger accounts");
        assertThat(column(table(schema("pg", ""), NAME, "account"), "balance").get("description").asText())
                .isEqualTo("In cents");

        http.key("sb-pg-reader", Map.of("connections", List.of("pg"), "allowed_tables", List.of(NAME + ".account"),
                "mask", List.of(Map.of("column", NAME + ".account.owner", "action", "null"))));
        JsonNode seen = schema("pg", "?key=sb-pg-reader");
        assertThat(names(seen)).containsExactly(NAME + ".account");
        JsonNode owner = column(seen.get("tables").get(0), "owner");
        assertThat(owner.get("masked").asBoolean()).isTrue();
        assertThat(owner.get("mask").asText()).isEqualTo("null");
        assertThat(column(seen.get("tables").get(0), "balance").get("masked").asBoolean()).isFalse();
    }

    @Test
    void aKeySeesOnlyItsTablesAndItsMaskedColumnsMarked() {
        patch("duck", "[{\"table\": null, \"description\": \"notes a restricted key must not read\"}]");
        http.key("sb-duck-reader", Map.of("connections", List.of("duck"),
                "allowed_tables", List.of("customer", "MAIN.tiers", "sales.orders"),
                "mask", List.of(Map.of("column", "customer.email", "action", "last", "keep", 4))));
        JsonNode seen = schema("duck", "?key=sb-duck-reader");
        assertThat(names(seen)).containsExactlyInAnyOrder("main.customer", "main.tiers", "sales.orders");
        assertThat(seen.has("notes")).isFalse();
        JsonNode email = column(table(seen, "main", "customer"), "email");
        assertThat(email.get("masked").asBoolean()).isTrue();
        assertThat(email.get("mask").asText()).isEqualTo("last");
        assertThat(column(table(seen, "main", "customer"), "tier").get("masked").asBoolean()).isFalse();

        http.key("sb-elsewhere", Map.of("connections", List.of("pg")));
        JsonNode elsewhere = schema("duck", "?key=sb-elsewhere");
        assertThat(elsewhere.get("tables")).isEmpty();
        assertThat(elsewhere.has("notes")).as("nothing on a connection it is not granted").isFalse();
        http.key("sb-everything", Map.of("connections", List.of("*")));
        assertThat(names(schema("duck", "?key=sb-everything"))).contains("main.secret_notes");
        assertThat(schema("duck", "?key=sb-everything").has("notes")).isTrue();
    }

    @Test
    void theCatalogueIsKeptUntilARefresh() {
        assertThat(names(schema("pg", ""))).doesNotContain(NAME + ".later");
        PG.execute("CREATE TABLE " + NAME + ".later (id integer)");
        assertThat(names(schema("pg", ""))).as("kept").doesNotContain(NAME + ".later");
        assertThat(names(schema("pg", "?refresh=true"))).contains(NAME + ".later");
        http.get("/api/v1/connections/pg/schema?refresh=yes", ADMIN).assertRefused(400, "invalid_request");
    }

    @Test
    void refusals() {
        http.get("/api/v1/connections/nope/schema", ADMIN).assertRefused(404, "connection_not_found");
        http.get("/api/v1/connections/nope/descriptions", ADMIN).assertRefused(404, "connection_not_found");
        patch("nope", "[{\"table\": \"t\", \"description\": \"d\"}]").assertRefused(404, "connection_not_found");
        http.post("/api/v1/connections/nope/descriptions/import", ADMIN, "").assertRefused(404,
                "connection_not_found");
        http.get("/api/v1/connections/duck/schema?key=nobody", ADMIN).assertRefused(404, "key_not_found");
        http.get("/api/v1/connections/down/schema", ADMIN).assertRefused(503, "database_unavailable");
        http.get("/api/v1/connections/pg/schema?database=qag_no_such_db", ADMIN).assertRefused(400,
                "invalid_request");
        http.post("/api/v1/connections/down/descriptions/import", ADMIN, "").assertRefused(503, "database_unavailable");
        patch("duck", "[{\"table\": \"t\"}]").assertRefused(400, "invalid_body");
        http.patch("/api/v1/connections/duck/descriptions", ADMIN, "{\"items\": [], \"x\": 1}")
                .assertRefused(400, "invalid_body");
        String reader = http.key("sb-not-admin", Map.of("connections", List.of("duck")));
        http.get("/api/v1/connections/duck/schema", reader).assertRefused(403, "admin_only");
        http.get("/api/v1/connections/duck/descriptions", reader).assertRefused(403, "admin_only");
    }
}
