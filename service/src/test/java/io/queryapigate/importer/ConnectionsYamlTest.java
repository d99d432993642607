package io.queryapigate.importer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.importer.PythonStore.PyConnection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The original's connections as our YAML: every secret a ${VAR} reference, the fragment readable as our config. */
class ConnectionsYamlTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static PyConnection connection(String name, String db, String details) throws Exception {
        return new PyConnection(name, db, true, JSON.readTree(details));
    }

    @Test
    void eachDialectsConnectionIsWrittenWithItsSecretsAsReferences() throws Exception {
        ConnectionsYaml y = ConnectionsYaml.of(List.of(
                connection("demo", "duckdb", "{\"database\": \"data/demo.duckdb\"}"),
                connection("sales db", "postgres", "{\"host\": \"pg\", \"port\": 5433, \"user\": \"rep\","
                        + " \"password\": \"enc:gAAAAABx\", \"database\": \"sales\", \"sslmode\": \"require\"}"),
                connection("crm", "mysql", "{\"host\": \"my\", \"user\": \"${CRM_USER}\", \"password\":"
                        + " \"${CRM_PASSWORD}\", \"database\": \"crm\", \"ssl_ca\": \"/ca.pem\"}"),
                connection("lake", "trino", "{\"host\": \"trino\", \"user\": \"t\", \"database\": \"hive\","
                        + " \"schema\": \"sf1\", \"http_scheme\": \"https\"}"),
                connection("events", "clickhouse", "{\"host\": \"ch\", \"port\": 9000, \"password\": \"plain\","
                        + " \"database\": \"logs\"}"),
                connection("docs", "mongo", "{\"host\": \"mongo\"}")), Path.of("/srv/qag"), "test");

        String text = y.text();
        assertThat(text).doesNotContain("enc:gAAAAABx").doesNotContain("plain");
        assertThat(y.variables()).extracting(ConnectionsYaml.Variable::name)
                .containsExactly("QAG_SALES_DB_PASSWORD", "QAG_EVENTS_PASSWORD");
        assertThat(y.names()).containsEntry("sales db", "sales_db");

        Map<String, ConnectionConfig> read = YAML.convertValue(YAML.readTree(text).get("connections"),
                YAML.getTypeFactory().constructMapType(Map.class, String.class, ConnectionConfig.class));
        assertThat(read).containsOnlyKeys("demo", "sales_db", "crm", "lake", "events", "docs");
        assertThat(read.get("demo").getDialect()).isEqualTo("duckdb");
        assertThat(read.get("demo").getUrl()).isEqualTo("/srv/qag/data/demo.duckdb");
        assertThat(read.get("sales_db").getUrl()).isEqualTo("jdbc:postgresql://pg:5433/sales?sslmode=require");
        assertThat(read.get("sales_db").getPassword()).isEqualTo("${QAG_SALES_DB_PASSWORD}");
        assertThat(read.get("crm").getUrl()).isEqualTo("jdbc:mysql://my:3306/crm");
        assertThat(read.get("crm").getUser()).isEqualTo("${CRM_USER}");
        assertThat(read.get("crm").getPassword()).isEqualTo("${CRM_PASSWORD}");
        assertThat(read.get("lake").getUrl()).isEqualTo("jdbc:trino://trino:8080?SSL=true");
        assertThat(read.get("lake").getProperties()).containsEntry("trino.catalog", "hive")
                .containsEntry("trino.schema", "sf1");
        assertThat(read.get("events").getUrl()).isEqualTo("http://ch:8123");
        assertThat(read.get("events").getProperties()).containsEntry("clickhouse.database", "logs");
        assertThat(read.get("docs").getDialect()).isEqualTo("mongo");
        assertThat(read.get("docs").getUrl()).isEqualTo("mongodb://mongo:27017/");
        assertThat(y.notes()).anyMatch(n -> n.contains("ssl_ca")).anyMatch(n -> n.contains("'docs'")
                && n.contains("mongo.database"));
    }

    @Test
    void h2ConnectionsAndDuckDbAllowedPathsAreCarriedOver() throws Exception {
        ConnectionsYaml y = ConnectionsYaml.of(List.of(
                connection("legacy", "h2", "{\"host\": \"h2\", \"port\": 9093, \"user\": \"SA\", \"password\":"
                        + " \"pw\", \"database\": \"test\"}"),
                connection("files", "duckdb", "{\"database\": \"/srv/files.duckdb\", \"allowed_paths\":"
                        + " [\"/data/sales/\", \"/data/prices.csv\", \"s3://bucket/x/\"]}")), Path.of("/srv/qag"), "test");
        Map<String, ConnectionConfig> read = YAML.convertValue(YAML.readTree(y.text()).get("connections"),
                YAML.getTypeFactory().constructMapType(Map.class, String.class, ConnectionConfig.class));
        assertThat(read.get("legacy").getDialect()).isEqualTo("h2");
        assertThat(read.get("legacy").getUrl()).isEqualTo("jdbc:h2:tcp://h2:9093/~/test");
        assertThat(read.get("legacy").getUser()).isEqualTo("SA");
        assertThat(read.get("legacy").getPassword()).isEqualTo("${QAG_LEGACY_PASSWORD}");
        assertThat(read.get("legacy").getProperties()).containsEntry("h2.read_only", "false");
        assertThat(read.get("files").getProperties())
                .containsEntry("duckdb.allowed_paths", "/data/sales/, /data/prices.csv");
        assertThat(y.notes()).anyMatch(n -> n.contains("s3://bucket/x/")).anyMatch(n -> n.contains("(h2)"))
                .noneMatch(n -> n.contains("driver options not carried over"));
    }

    @Test
    void aRelativeDuckDbPathWithoutAKnownHomeIsNamed() throws Exception {
        ConnectionsYaml y = ConnectionsYaml.of(List.of(connection("demo", "duckdb", "{\"database\": \"d.duckdb\"}")),
                null, "test");
        assertThat(y.notes()).anyMatch(n -> n.contains("relative to the original's home"));
        JsonNode demo = YAML.readTree(y.text()).get("connections").get("demo");
        assertThat(demo.get("url").asText()).isEqualTo("d.duckdb");
    }
}
