package io.queryapigate;

import static io.queryapigate.testing.MongoPeople.ids;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.MongoPeople;
import io.queryapigate.testing.TestingConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * {@code /execute_mongo} on the real MongoDB-protocol test server (FerretDB), through the REST API: finds and
 * pipelines with bound parameters, paging, grants, and the refusals (stages that write, server-side JavaScript,
 * operator-shaped parameters, the wrong language for a connection) with the collections left as they were.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MongoDialectIT {
    private static final TestServers.Server MONGO = TestServers.mongo();
    static final String DB = "qag_it_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final MongoClient CLIENT = MongoClients.create(MONGO.url());
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;

    private static MongoDatabase db() {
        return CLIENT.getDatabase(DB);
    }

    private static String config() {
        MongoPeople.seed(db());
        return TestingConfig.write("  mg:\n    dialect: mongo\n    url: " + MONGO.url() + "/" + DB + "\n"
                + "  duck:\n    dialect: duckdb\n    url: ':memory:'\n    properties:\n      duckdb.read_only: \"false\"\n", "").toString();
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        keys = Map.of(
                "reader", http.key("reader", Map.of("connections", List.of("mg", "duck"), "adhoc_sql", true)),
                "narrow", http.key("narrow", Map.of("connections", List.of("mg"), "adhoc_sql", true,
                        "allowed_tables", List.of("people"))),
                "saved_only", http.key("saved_only", Map.of("connections", List.of("mg"))));
    }

    @AfterAll
    static void drop() {
        db().drop();
        CLIENT.close();
    }

    private static Reply mongo(String key, Map<String, Object> body) {
        return http.post("/execute_mongo", keys.get(key), Http.json(body));
    }

    private static Map<String, Object> find(Object filter, Object params) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connection_name", "mg");
        body.put("collection", "people");
        body.put("filter", filter);
        body.put("sort", Map.of("_id", 1));
        if (params != null) {
            body.put("params", params);
        }
        return body;
    }

    @Test
    void aFindWithBoundParametersAnswersItsRows() {
        assertThat(ids(mongo("reader", find(Map.of("city", ":city", "age", Map.of("$gte", ":min")),
                Map.of("city", "Oslo", "min", 23))))).containsExactly(4, 6);
        Reply r = mongo("reader", find(Map.of("_id", 1), null));
        assertThat(r.json().get(0).get("name").asText()).isEqualTo("p1");
    }

    @Test
    void aPipelineAnswersItsRows() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connection_name", "mg");
        body.put("collection", "people");
        body.put("pipeline", List.of(Map.of("$match", Map.of("city", ":city")),
                Map.of("$group", Map.of("_id", "$city", "n", Map.of("$sum", 1)))));
        body.put("params", Map.of("city", "Rome"));
        Reply r = mongo("reader", body);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("n").asInt()).isEqualTo(3);
    }

    @Test
    void pagesAreCutByTheServer() {
        Reply r = http.post("/execute_mongo?page=2&page_size=2", keys.get("reader"), Http.json(find(Map.of(), null)));
        assertThat(ids(r)).containsExactly(3, 4);
    }

    @Test
    void aParameterIsAValueNeverAnOperator() {
        assertThat(ids(mongo("reader", find(Map.of("name", ":n"), Map.of("n", "{\"$gt\": \"\"}"))))).isEmpty();
        assertThat(ids(mongo("reader", find(Map.of("name", ":n"), Map.of("n", "$gt"))))).containsExactly(6);
        Reply doc = mongo("reader", find(Map.of("name", ":n"), Map.of("n", Map.of("$ne", "x"))));
        doc.assertRefused(400, "param_invalid");
        assertThat(doc.body()).doesNotContain("p1");
        mongo("reader", find(Map.of("name", ":n"), Map.of())).assertRefused(400, "param_required");
    }

    @Test
    void stagesThatWriteAndServerSideJavaScriptAreRefusedAndChangeNothing() {
        List<List<Map<String, Object>>> pipelines = List.of(
                List.of(Map.of("$out", "stolen")),
                List.of(Map.of("$match", Map.of()), Map.of("$merge", Map.of("into", "stolen"))),
                List.of(Map.of("$lookup", Map.of("from", "secrets", "as", "s", "pipeline",
                        List.of(Map.of("$merge", "stolen"))))),
                List.of(Map.of("$facet", Map.of("f", List.of(Map.of("$out", "stolen"))))),
                List.of(Map.of("$unionWith", Map.of("coll", "secrets", "pipeline", List.of(Map.of("$out",
                        "stolen"))))));
        for (List<Map<String, Object>> pipeline : pipelines) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("connection_name", "mg");
            body.put("collection", "people");
            body.put("pipeline", pipeline);
            mongo("reader", body).assertRefused(403, "mongo_stage_forbidden");
        }
        mongo("reader", find(Map.of("$where", "true"), null)).assertRefused(403, "mongo_operator_forbidden");
        mongo("reader", find(Map.of("$expr", Map.of("$function", Map.of("body", "function() {return true}",
                "args", List.of(), "lang", "js"))), null)).assertRefused(403, "mongo_operator_forbidden");
        Map<String, Object> projected = find(Map.of(), null);
        projected.put("projection", Map.of("x", Map.of("$function", Map.of("body", "function() {return 1}"))));
        mongo("reader", projected).assertRefused(403, "mongo_operator_forbidden");
        assertThat(db().listCollectionNames().into(new ArrayList<>())).doesNotContain("stolen");
        assertThat(db().getCollection("people").countDocuments()).isEqualTo(6);
    }

    @Test
    void grantsAndLanguagesAreChecked() {
        mongo("saved_only", find(Map.of(), null)).assertRefused(403, "adhoc_not_granted");
        Map<String, Object> secrets = find(Map.of(), null);
        secrets.put("collection", "secrets");
        Reply narrow = mongo("narrow", secrets);
        narrow.assertRefused(403, "table_not_allowed");
        assertThat(narrow.body()).doesNotContain("s3cr3t");
        assertThat(ids(mongo("narrow", find(Map.of("_id", 2), null)))).containsExactly(2);
        secrets.put("collection", "system.users");
        mongo("reader", secrets).assertRefused(403, "collection_not_allowed");
        http.sql(keys.get("reader"), "mg", "SELECT 1").assertRefused(400, "wrong_connection_type");
        Map<String, Object> onDuck = find(Map.of(), null);
        onDuck.put("connection_name", "duck");
        mongo("reader", onDuck).assertRefused(400, "wrong_connection_type");
        Map<String, Object> noCollection = find(Map.of(), null);
        noCollection.remove("collection");
        mongo("reader", noCollection).assertRefused(400, "collection_required");
    }
}
