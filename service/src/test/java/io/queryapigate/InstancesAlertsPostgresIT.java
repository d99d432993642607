package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.store.InstanceDao;
import io.queryapigate.store.InstanceRow;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAlerts;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateway instances on one PostgreSQL store without Redis (heartbeat and health checks every second): both listed
 * by {@code /api/v1/instances} and the "sharing without Redis" alert, with the same id on both and on every request;
 * another version's heartbeat row, a row gone quiet (stale) and one quiet for two days (removed); a PostgreSQL
 * connection through a proxy this test cuts (its alert comes from the background health check, and clears once the
 * proxy is restored); a saved query slowed down with a real {@code pg_sleep} against its own history; an instance
 * stopped cleanly disappears from the list and the alert clears.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstancesAlertsPostgresIT {
    private static final TestingPostgres.Database STORE = TestingPostgres.freshDatabase("qag_instances");
    private static final TestingPostgres.Database PG = TestingPostgres.server();
    private static final TcpProxy PROXY = proxy();
    private static final String CONFIG = config();
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG);
    private static final DropwizardTestSupport<GatewayConfiguration> B = new DropwizardTestSupport<>(
            GatewayApplication.class, CONFIG);
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static TcpProxy proxy() {
        try {
            TestServers.Server pg = TestServers.postgres();
            return new TcpProxy(pg.host(), pg.port());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String config() {
        String connections = TestingConfig.demoConnection()
                + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 2\n"
                + "  flaky:\n    dialect: postgres\n    url: " + PG.url().replaceFirst("//[^/]+/", "//127.0.0.1:"
                        + PROXY.port() + "/") + "\n    user: " + PG.user() + "\n    password: " + PG.password()
                + "\n    poolSize: 1\n";
        String extra = "store:\n  url: " + STORE.url() + "\n  user: " + STORE.user() + "\n  password: "
                + STORE.password() + "\n"
                + "instances:\n  heartbeatInterval: 1s\n"
                + "alerts:\n  healthCheckInterval: 1s\n  healthCheckTimeout: 2s\n";
        return TestingConfig.write(connections, extra).toString();
    }

    @BeforeAll
    static void startB() throws Exception {
        B.before();
    }

    @AfterAll
    static void cleanUp() {
        B.after();
        PROXY.close();
        STORE.dropDatabase();
    }

    private static Http a() {
        return new Http("http://127.0.0.1:" + A.getLocalPort());
    }

    private static Http b() {
        return new Http("http://127.0.0.1:" + B.getLocalPort());
    }

    private static InstanceDao rows() {
        return Jdbi.create(STORE.url(), STORE.user(), STORE.password())
                .installPlugin(new org.jdbi.v3.sqlobject.SqlObjectPlugin()).onDemand(InstanceDao.class);
    }

    private static List<JsonNode> items(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        r.json().get("items").forEach(out::add);
        return out;
    }

    @Test
    @Order(1)
    void bothInstancesAreListedAndTheirSharingWithoutRedisIsAnAlert() throws Exception {
        List<JsonNode> fromA = items(a().get("/api/v1/instances", ADMIN));
        assertThat(fromA).hasSize(2);
        assertThat(fromA).allSatisfy(i -> {
            assertThat(i.get("status").asText()).isEqualTo("alive");
            assertThat(i.get("store").asText()).isEqualTo("postgresql");
            assertThat(i.get("shared_limits").asBoolean()).isFalse();
            assertThat(i.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
            assertThat(i.get("last_seen").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        });
        assertThat(fromA.stream().filter(i -> i.get("this").asBoolean()).count()).isEqualTo(1);
        List<JsonNode> fromB = items(b().get("/api/v1/instances", ADMIN));
        assertThat(fromB.stream().map(i -> i.get("id").asText()).sorted().toList())
                .isEqualTo(fromA.stream().map(i -> i.get("id").asText()).sorted().toList());
        assertThat(fromB.stream().filter(i -> i.get("this").asBoolean()).findFirst().orElseThrow().get("id"))
                .isNotEqualTo(fromA.stream().filter(i -> i.get("this").asBoolean()).findFirst().orElseThrow()
                        .get("id"));
        JsonNode problems = a().get("/api/v1/instances", ADMIN).json().get("problems");
        assertThat(problems.toString()).contains("instances_not_shared").contains("2 processes share this store");

        JsonNode alert = TestingAlerts.alert(a(), ADMIN, "instances_not_shared:server").orElseThrow();
        assertThat(alert.get("severity").asText()).isEqualTo("warning");
        assertThat(alert.get("target").toString()).isEqualTo("{\"type\":\"settings\",\"name\":\"traffic\"}");
        assertThat(TestingAlerts.alert(b(), ADMIN, "instances_not_shared:server")).as("the same id on B").isPresent();
        assertThat(TestingAlerts.alerts(a(), ADMIN).get("checked_at").asText())
                .matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        // a heartbeat keeps the rows fresh: a second later both are still alive, seen again
        String seen = fromA.get(0).get("last_seen").asText();
        Thread.sleep(2_100);
        assertThat(items(a().get("/api/v1/instances", ADMIN))).hasSize(2)
                .allSatisfy(i -> assertThat(i.get("status").asText()).isEqualTo("alive"))
                .anySatisfy(i -> assertThat(i.get("last_seen").asText()).isGreaterThan(seen));
    }

    @Test
    @Order(2)
    void anotherVersionIsAnAlertAQuietRowIsStaleAndADayOldOneIsRemoved() throws Exception {
        InstanceDao rows = rows();
        String ours = items(a().get("/api/v1/instances", ADMIN)).get(0).get("version").asText();
        long now = System.currentTimeMillis();
        rows.insert(new InstanceRow("older-1", "elsewhere", 42, "0.9.0", "postgresql", false, now - 60_000, now));
        rows.insert(new InstanceRow("quiet-1", "gone", 43, ours, "postgresql", false, now - 600_000,
                now - 300_000));
        rows.insert(new InstanceRow("ancient-1", "gone", 44, ours, "postgresql", false, now - 3 * 86_400_000L,
                now - 2 * 86_400_000L));
        try {
            List<String> ids = TestingAlerts.ids(a(), ADMIN);
            assertThat(ids).contains("instances_versions_differ:server", "instances_not_shared:server");
            JsonNode differ = TestingAlerts.alert(a(), ADMIN, "instances_versions_differ:server").orElseThrow();
            assertThat(differ.get("detail").asText()).contains("0.9.0 on 1").contains(ours + " on 2");
            List<JsonNode> listed = items(a().get("/api/v1/instances", ADMIN));
            assertThat(listed).anySatisfy(i -> {
                assertThat(i.get("id").asText()).isEqualTo("quiet-1");
                assertThat(i.get("status").asText()).isEqualTo("stale");
            });
            assertThat(a().get("/api/v1/instances", ADMIN).json().get("problems").toString())
                    .as("a stale row is not counted").contains("3 processes share");
            Thread.sleep(2_500); // a heartbeat of A or B forgets rows quiet for a day
            assertThat(items(a().get("/api/v1/instances", ADMIN)).stream().map(i -> i.get("id").asText()))
                    .doesNotContain("ancient-1").contains("quiet-1", "older-1");
        } finally {
            rows.remove("older-1");
            rows.remove("quiet-1");
        }
        assertThat(TestingAlerts.ids(a(), ADMIN)).doesNotContain("instances_versions_differ:server");
    }

    @Test
    @Order(3)
    void aConnectionFailingItsHealthCheckIsCriticalUntilItIsFixed() throws Exception {
        assertThat(TestingAlerts.ids(a(), ADMIN)).doesNotContain("connection_failing:flaky");
        PROXY.cut();
        try {
            TestingAlerts.awaitIds(a(), ADMIN, 15, ids -> ids.contains("connection_failing:flaky"));
            JsonNode alert = TestingAlerts.alert(a(), ADMIN, "connection_failing:flaky").orElseThrow();
            assertThat(alert.get("severity").asText()).isEqualTo("critical");
            assertThat(alert.get("target").toString()).isEqualTo("{\"type\":\"connection\",\"name\":\"flaky\"}");
            assertThat(alert.get("since").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
            assertThat(TestingAlerts.ids(a(), ADMIN)).as("the healthy ones are not").doesNotContain(
                    "connection_failing:pg", "connection_failing:demo");
            // the same alert, same id and since, on the next request: the latest result, not a new check each time
            JsonNode again = TestingAlerts.alert(a(), ADMIN, "connection_failing:flaky").orElseThrow();
            assertThat(again.get("since")).isEqualTo(alert.get("since"));
            TestingAlerts.awaitIds(b(), ADMIN, 15, ids -> ids.contains("connection_failing:flaky"));
        } finally {
            PROXY.restore();
        }
        TestingAlerts.awaitIds(a(), ADMIN, 15, ids -> !ids.contains("connection_failing:flaky"));
    }

    @Test
    @Order(4)
    void aSavedQuerySlowerThanItsHistoryIsAnAlert() throws Exception {
        Reply saved = a().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "naps",
                "sql", "SELECT 1 AS one FROM pg_sleep(:ms / 1000.0)", "connection_name", "pg", "publish", true,
                "parameters", Map.of("ms", Map.of("type", "int", "min", 0, "max", 2000)))));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        for (int i = 0; i < 8; i++) {
            Reply r = (i % 2 == 0 ? a() : b()).get("/q/naps?ms=0", ADMIN);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        Thread.sleep(300); // the event writers' flush
        assertThat(TestingAlerts.ids(a(), ADMIN)).doesNotContain("query_slow:naps");
        for (int i = 0; i < 5; i++) {
            assertThat((i % 2 == 0 ? a() : b()).get("/q/naps?ms=300", ADMIN).status()).isEqualTo(200);
        }
        Thread.sleep(300); // every slow run written (the alert holds from the third on: a median of five)
        TestingAlerts.awaitIds(a(), ADMIN, 5, ids -> ids.contains("query_slow:naps"));
        JsonNode slow = TestingAlerts.alert(b(), ADMIN, "query_slow:naps").orElseThrow();
        assertThat(slow.get("title").asText()).isEqualTo("Query 'naps' has slowed down");
        assertThat(slow.get("detail").asText()).contains("newest 5 successful runs").contains("8 runs before them");
        assertThat(slow.get("target").toString()).isEqualTo("{\"type\":\"query\",\"name\":\"naps\"}");
        // fast again: the newest runs are back to their history's speed, and the alert goes by itself
        for (int i = 0; i < 5; i++) {
            assertThat(a().get("/q/naps?ms=0", ADMIN).status()).isEqualTo(200);
        }
        TestingAlerts.awaitIds(a(), ADMIN, 5, ids -> !ids.contains("query_slow:naps"));
    }

    @Test
    @Order(5)
    void aStoppedInstanceDisappearsAndTheAlertClears() throws Exception {
        String bId = items(b().get("/api/v1/instances", ADMIN)).stream().filter(i -> i.get("this").asBoolean())
                .findFirst().orElseThrow().get("id").asText();
        B.after();
        List<JsonNode> left = items(a().get("/api/v1/instances", ADMIN));
        assertThat(left).hasSize(1);
        assertThat(left.get(0).get("id").asText()).isNotEqualTo(bId);
        assertThat(left.get(0).get("this").asBoolean()).isTrue();
        assertThat(TestingAlerts.ids(a(), ADMIN)).doesNotContain("instances_not_shared:server");
    }
}
