package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Table allow-lists through the service on the real Trino (catalog.schema.table; bare and two-part names resolve
 * against the connection's catalog and schema) and the real ClickHouse (database.table).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class HttpEnginesAllowListIT {
    private static final TestServers.Server TRINO = TestServers.trino();
    private static final TestServers.Server CLICKHOUSE = TestServers.clickhouse();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(
                    "  lake:\n    dialect: trino\n    url: " + TRINO.url() + "\n    user: " + TRINO.user()
                            + "\n    properties:\n      trino.catalog: tpch\n      trino.schema: tiny\n"
                            + "  events:\n    dialect: clickhouse\n    url: " + CLICKHOUSE.url() + "\n    user: "
                            + CLICKHOUSE.user() + "\n",
                    "").toString());
    private static Http http;
    private static String key;

    @BeforeAll
    static void key() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Reply r = http.post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "engines",
                "connections", List.of("lake", "events"), "adhoc_sql", true,
                "allowed_tables", List.of("nation", "tpch.sf1.region", "system.one"))));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        key = r.json().get("secret").asText();
    }

    private static Reply sql(String connection, String sql) {
        return http.post("/execute_sql", key, Http.json(Map.of("sql", sql, "connection_name", connection)));
    }

    private static void refused(Reply r) {
        r.assertRefused(403, "table_not_allowed");
    }

    @Test
    void trinoNamesAreCatalogSchemaTable() {
        Reply bare = sql("lake", "SELECT name FROM nation WHERE nationkey = 0");
        assertThat(bare.status()).as(bare.body()).isEqualTo(200);
        assertThat(bare.json().get(0).get("name").asText()).isEqualTo("ALGERIA");
        assertThat(sql("lake", "SELECT count(*) AS n FROM tiny.nation").status()).isEqualTo(200);
        assertThat(sql("lake", "SELECT count(*) AS n FROM tpch.tiny.nation").status()).isEqualTo(200);
        assertThat(sql("lake", "SELECT count(*) AS n FROM tpch.sf1.region").status()).isEqualTo(200);
        refused(sql("lake", "SELECT count(*) AS n FROM tpch.sf1.nation"));
        refused(sql("lake", "SELECT count(*) AS n FROM region"));
        refused(sql("lake", "SELECT count(*) AS n FROM system.runtime.queries"));
    }

    @Test
    void clickhouseNamesAreDatabaseTable() {
        Reply one = sql("events", "SELECT dummy FROM system.one");
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.json().get(0).get("dummy").asInt()).isZero();
        refused(sql("events", "SELECT name FROM system.tables"));
        refused(sql("events", "SELECT dummy FROM one"));
    }
}
