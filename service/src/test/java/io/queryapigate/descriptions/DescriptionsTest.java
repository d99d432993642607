package io.queryapigate.descriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.descriptions.Descriptions.Item;
import io.queryapigate.descriptions.Descriptions.Source;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.TableName;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Descriptions on a real SQLite store, for an embedded DuckDB connection (default schema {@code main}). */
class DescriptionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private ConnectionRegistry connections;
    private Descriptions descriptions;

    @BeforeEach
    void setUp() throws Exception {
        Path dir = Files.createTempDirectory("qag-descriptions-test-");
        String url = "jdbc:sqlite:" + dir.resolve("store.db");
        Store store = Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null);
        ConnectionConfig duck = new ConnectionConfig();
        duck.setDialect("duckdb");
        duck.setUrl(":memory:");
        duck.setPoolSize(1);
        duck.setProperties(Map.of("duckdb.read_only", "false"));
        connections = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()),
                Map.of("duck", duck), Duration.ofSeconds(5), 1000, dir);
        descriptions = new Descriptions(store, connections, Clock.systemUTC(), TestingAudit.of(store));
    }

    @AfterEach
    void tearDown() {
        connections.stop();
    }

    private List<Item> parse(String items) throws Exception {
        return descriptions.parse("duck", JSON.readTree(items));
    }

    @Test
    void itemsAreReadAsTheOriginalReadsThem() throws Exception {
        assertThat(parse("[{\"table\": \"Orders\", \"column\": \"AMT\", \"description\": \"  net, EUR \"},"
                + "{\"table\": \"orders\", \"column\": null, \"description\": \"one row per order\"},"
                + "{\"table\": null, \"description\": \"join orders to customers on customer_id\"},"
                + "{\"schema\": \"MAIN\", \"table\": \"x\", \"description\": null},"
                + "{\"schema\": \"audit\", \"table\": \"x\", \"description\": \"\"}]"))
                .containsExactly(new Item("", "orders", "amt", "net, EUR"),
                        new Item("", "orders", "", "one row per order"),
                        new Item("", "", "", "join orders to customers on customer_id"),
                        new Item("", "x", "", null), new Item("audit", "x", "", null));
    }

    @Test
    void badItemsAreRefusedWithTheOriginalsCode() {
        for (String bad : List.of("[]", "{}", "[{\"table\": \"t\"}]", "[{\"table\": \"t\", \"description\": 1}]",
                "[{\"column\": \"c\", \"description\": \"d\"}]", "[{\"schema\": \"s\", \"description\": \"d\"}]",
                "[{\"table\": \"t\", \"description\": \"d\", \"extra\": 1}]", "[{\"table\": \" \", \"description\": \"d\"}]",
                "[{\"table\": \"t\", \"description\": \"a\"}, {\"table\": \"T\", \"description\": \"b\"}]",
                "[{\"table\": \"t\", \"description\": \"" + "x".repeat(2001) + "\"}]")) {
            assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.code()).isEqualTo("invalid_body"));
        }
        assertThatThrownBy(() -> descriptions.parse("nope", JSON.readTree("[{\"table\": \"t\", \"description\": \"d\"}]")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void writtenDescriptionsRoundTripAndAnImportKeepsThem() throws Exception {
        assertThat(descriptions.write("duck", parse("[{\"table\": \"orders\", \"column\": \"amt\", \"description\": \"net\"},"
                + "{\"table\": \"orders\", \"description\": \"orders\"}]"), "admin", Source.WRITTEN, true)).isEqualTo(2);
        assertThat(descriptions.write("duck", parse("[{\"table\": \"orders\", \"column\": \"amt\", \"description\": \"net\"}]"),
                "admin", Source.WRITTEN, true)).as("unchanged").isZero();
        assertThat(descriptions.write("duck", List.of(new Item("", "orders", "amt", "from the database"),
                new Item("", "orders", "id", "the key")), "admin", Source.DATABASE, false)).as("an import").isEqualTo(1);
        JsonNode list = descriptions.list("duck");
        assertThat(list).hasSize(3);
        assertThat(list.get(0).get("table").asText()).isEqualTo("orders");
        assertThat(list.get(0).get("column").isNull()).isTrue();
        assertThat(list.findValuesAsText("description")).containsExactly("orders", "net", "the key");
        assertThat(list.findValuesAsText("source")).containsExactly("written", "written", "database");
        assertThat(list.get(0).get("updated_by").asText()).isEqualTo("admin");

        assertThat(descriptions.write("duck", List.of(new Item("", "orders", "amt", "from the database")), "admin",
                Source.DATABASE, true)).as("an import asked to overwrite").isEqualTo(1);
        assertThat(descriptions.write("duck", parse("[{\"table\": \"orders\", \"column\": \"id\", \"description\": null}]"),
                "admin", Source.WRITTEN, true)).as("null removes").isEqualTo(1);
        assertThat(descriptions.list("duck").findValuesAsText("description")).containsExactly("orders",
                "from the database");
        assertThat(descriptions.forget("duck")).isEqualTo(2);
        assertThat(descriptions.list("duck")).isEmpty();
    }

    @Test
    void aTableOfTheDefaultSchemaTakesTheBareNamesDescriptions() throws Exception {
        descriptions.write("duck", parse("[{\"table\": \"t\", \"column\": \"a\", \"description\": \"bare\"},"
                + "{\"schema\": \"audit\", \"table\": \"t\", \"column\": \"a\", \"description\": \"audit's\"},"
                + "{\"table\": null, \"description\": \"notes\"}]"), "admin", Source.WRITTEN, true);
        Descriptions.Lookup lookup = descriptions.lookup("duck");
        assertThat(lookup.notes()).isEqualTo("notes");
        assertThat(lookup.of("memory", "main", "T", "A")).isEqualTo("bare");
        assertThat(lookup.of(null, "audit", "t", "a")).isEqualTo("audit's");
        assertThat(lookup.of(null, "other", "t", "a")).as("another schema's t").isNull();
        assertThat(lookup.of("elsewhere", "main", "t", "a")).as("another database's t").isNull();
    }

    @Test
    void aVersionsColumnsTakeTheAuthorsDescriptionThenTheOneTableThatDescribesThem() throws Exception {
        descriptions.write("duck", parse("[{\"table\": \"orders\", \"column\": \"amt\", \"description\": \"net\"},"
                + "{\"table\": \"orders\", \"column\": \"id\", \"description\": \"order id\"},"
                + "{\"table\": \"customers\", \"column\": \"id\", \"description\": \"customer id\"},"
                + "{\"table\": \"customers\", \"column\": \"tier\", \"description\": \"A to C\"}]"),
                "admin", Source.WRITTEN, true);
        Set<TableName> reads = Set.of(new TableName("memory", "main", "orders"),
                new TableName("memory", "main", "customers"));
        JsonNode own = JSON.readTree("{\"tier\": \"the author's\", \"other\": \"kept\"}");
        assertThat(descriptions.forVersion("duck", reads, List.of("id", "amt", "tier", "n"), own).toString())
                .as("id is ambiguous: two tables describe one").isEqualTo(
                        "{\"amt\":\"net\",\"tier\":\"the author's\",\"other\":\"kept\"}");
        assertThat(descriptions.forVersion("duck", Set.of(new TableName("memory", "main", "orders")),
                List.of("id"), null).toString()).isEqualTo("{\"id\":\"order id\"}");
        assertThat(descriptions.forVersion("gone", reads, List.of("amt"), own).toString())
                .as("a connection no longer configured").isEqualTo("{\"tier\":\"the author's\",\"other\":\"kept\"}");
    }
}
