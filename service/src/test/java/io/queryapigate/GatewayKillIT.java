package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingGatewayProcess;
import io.queryapigate.testing.TestingLoad;
import io.queryapigate.testing.TestingLoad.Outcome;
import io.queryapigate.testing.TestingQuickstart;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of the gateway (the jar as a child process on a SQLite store) during heavy writes: four writers
 * saving queries (each a first version, then a second), one creating keys, one changing keys. Afterwards the store
 * passes {@code PRAGMA integrity_check}, holds no half-applied change (every query has its versions and every version
 * its query, one {@code save_query} audit entry per version, one {@code create_key} per key), everything answered
 * 201/200 before the kill is there, the audit chain verifies and the gateway starts again on the store.
 */
class GatewayKillIT {
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @Test
    void theStoreIsWholeAfterKill9DuringWrites() throws Exception {
        try (TestingGatewayProcess gateway = TestingGatewayProcess.start(
                TestingConfig.write(TestingConfig.demoConnection(), ""))) {
            Http http = gateway.http();
            Reply base = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "base",
                    "connections", List.of("demo"))));
            assertThat(base.status()).as(base.body()).isEqualTo(201);
            ConcurrentLinkedQueue<String> savedQueries = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> createdKeys = new ConcurrentLinkedQueue<>();
            List<TestingLoad> loads = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                String writer = "w" + w + "_";
                loads.add(TestingLoad.start(1, n -> {
                    String name = writer + n / 2;
                    Map<String, Object> version = Map.of("sql", "SELECT " + n + " AS n", "connection_name", "demo",
                            "publish", true);
                    Map<String, Object> query = new HashMap<>(version);
                    query.put("name", name);
                    Reply r = n % 2 == 0 ? http.post("/api/v1/queries", ADMIN, Http.json(query))
                            : http.post("/api/v1/queries/" + name + "/versions", ADMIN, Http.json(version));
                    if (r.status() == 201) {
                        savedQueries.add(name + "#" + (n % 2 + 1));
                    }
                    return r;
                }));
            }
            loads.add(TestingLoad.start(1, n -> {
                Reply r = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "key_" + n,
                        "connections", List.of("demo"))));
                if (r.status() == 201) {
                    createdKeys.add("key_" + n);
                }
                return r;
            }));
            loads.add(TestingLoad.start(1, n -> http.patch("/api/v1/api-keys/base", ADMIN,
                    Http.json(Map.of("rate_limit", (100 + n) + "/hour")))));
            long deadline = System.currentTimeMillis() + 30_000;
            while (savedQueries.size() < 24 && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            gateway.kill();
            List<Outcome> all = new ArrayList<>();
            for (TestingLoad l : loads) {
                all.addAll(l.stop());
            }
            System.out.printf("kill -9 during writes: %s; queries saved (versions) %d, keys created %d%n",
                    TestingLoad.tally(all), savedQueries.size(), createdKeys.size());
            assertThat(savedQueries).as("writes before the kill").hasSizeGreaterThan(8);

            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + gateway.home().resolve("queryapigate.db"));
                    Statement s = c.createStatement()) {
                assertThat(one(s, "PRAGMA integrity_check")).isEqualTo("ok");
                assertThat(one(s, "PRAGMA foreign_key_check")).as("foreign keys").isNull();
                assertThat(one(s, "SELECT count(*) FROM saved_queries q WHERE NOT EXISTS (SELECT 1 FROM query_versions"
                        + " v WHERE v.query_id = q.id)")).as("queries without a version").isEqualTo("0");
                assertThat(one(s, "SELECT count(*) FROM saved_queries q WHERE published_version IS NOT NULL AND NOT"
                        + " EXISTS (SELECT 1 FROM query_versions v WHERE v.query_id = q.id AND v.version ="
                        + " q.published_version)")).as("published versions missing").isEqualTo("0");
                assertThat(one(s, "SELECT count(*) FROM query_versions v WHERE NOT EXISTS (SELECT 1 FROM"
                        + " saved_queries q WHERE q.id = v.query_id)")).as("versions without a query").isEqualTo("0");
                Map<String, Integer> versions = counts(s, "SELECT q.name, count(*) FROM saved_queries q JOIN"
                        + " query_versions v ON v.query_id = q.id GROUP BY q.name");
                Map<String, Integer> audited = counts(s, "SELECT target, count(*) FROM audit_log WHERE action ="
                        + " 'save_query' GROUP BY target");
                assertThat(audited).as("one save_query audit entry per version").isEqualTo(versions);
                Set<String> keys = set(s, "SELECT name FROM api_keys");
                Set<String> keysAudited = set(s, "SELECT target FROM audit_log WHERE action = 'create_key'");
                assertThat(keysAudited).as("one create_key audit entry per key").isEqualTo(keys);
                for (String saved : savedQueries) {
                    String[] nameVersion = saved.split("#");
                    assertThat(versions.getOrDefault(nameVersion[0], 0)).as("answered before the kill: " + saved)
                            .isGreaterThanOrEqualTo(Integer.parseInt(nameVersion[1]));
                }
                assertThat(keys).as("keys answered 201 before the kill").containsAll(createdKeys);
            }
            var verify = TestingQuickstart.command("audit", "verify", gateway.config().toString()).start();
            String verifyOut = new String(verify.getInputStream().readAllBytes());
            assertThat(verify.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(verify.exitValue()).as(verifyOut).isZero();

            long restart = System.currentTimeMillis();
            gateway.startAgain();
            System.out.printf("kill -9: the gateway answered /health again %d ms after its restart%n",
                    System.currentTimeMillis() - restart);
            Reply listed = gateway.http().get("/api/v1/queries", ADMIN);
            assertThat(listed.status()).as(listed.body()).isEqualTo(200);
            Reply after = gateway.http().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "after_restart",
                    "sql", "SELECT 1 AS one", "connection_name", "demo", "publish", true)));
            assertThat(after.status()).as(after.body()).isEqualTo(201);
        }
    }

    private static String one(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static Map<String, Integer> counts(Statement s, String sql) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
        }
        return out;
    }

    private static Set<String> set(Statement s, String sql) throws Exception {
        Set<String> out = new HashSet<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
