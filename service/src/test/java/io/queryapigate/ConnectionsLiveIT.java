package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingSecrets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Connections managed through the API, live on two gateway instances sharing one PostgreSQL store (metadata-cache
 * TTL 1 s): PostgreSQL and MariaDB connections created, called, changed and deleted without a restart; calls running
 * on a replaced or deleted pool finish there, and the old pool closes afterwards; server-side sessions counted before
 * and after (no leak); a password given to the API appears in no answer, log line, event or stored column.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConnectionsLiveIT {
    private static final String SUFFIX = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private static final TestingPostgres.Database STORE = TestingPostgres.freshDatabase("qag_conns");
    private static final TestingPostgres.Database PG = TestingPostgres.server();
    private static final TestServers.Server MARIA = TestServers.mariadb();
    /** A PostgreSQL role of this test's own, so its sessions can be counted; its password is the secret. */
    private static final String ROLE = "qag_conn_" + SUFFIX;
    private static final String SECRET = "Pw-" + UUID.randomUUID().toString().replace("-", "");
    private static final String MARIA_DB = "qag_conn_" + SUFFIX;
    private static final Path LOG_A = log("a");
    private static final Path LOG_B = log("b");
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            TestingSecrets.KeyedGateway.class, config(LOG_A));
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            TestingSecrets.KeyedGateway.class, config(LOG_B));
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    /** Every answer of the connection routes, for the leak check. */
    private static final List<String> ANSWERS = new ArrayList<>();

    private static Path log(String which) {
        try {
            return Files.createTempFile("qag-conns-" + which + "-", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String config(Path log) {
        pg("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + ROLE + "') THEN CREATE ROLE "
                + ROLE + " LOGIN PASSWORD '" + SECRET + "'; END IF; END $$");
        maria("CREATE DATABASE IF NOT EXISTS " + MARIA_DB);
        String store = "store:\n  url: " + STORE.url() + "\n  user: " + STORE.user() + "\n  password: "
                + STORE.password() + "\n";
        Path config = TestingConfig.write(TestingConfig.demoConnection(), store, "1s");
        try {
            String yaml = Files.readString(config);
            String console = "logging:\n  level: WARN\n  appenders:\n    - type: console\n      threshold: WARN\n";
            assertThat(yaml).contains(console);
            Files.writeString(config, yaml.replace(console, "logging:\n  level: INFO\n  loggers:\n"
                    + "    io.queryapigate: DEBUG\n  appenders:\n    - type: file\n      currentLogFilename: " + log
                    + "\n      archive: false\n      logFormat: \"%-5p %c: %m%n%rEx\"\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return config.toString();
    }

    @AfterAll
    static void drop() {
        STORE.dropDatabase();
        maria("DROP DATABASE IF EXISTS " + MARIA_DB);
    }

    private static Http a() {
        return new Http("http://127.0.0.1:" + A.getLocalPort());
    }

    private static Http b() {
        return new Http("http://127.0.0.1:" + B.getLocalPort());
    }

    private static Reply kept(Reply r) {
        synchronized (ANSWERS) {
            ANSWERS.add(r.body());
        }
        return r;
    }

    private static Map<String, Object> postgres(String name, String applicationName) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("dialect", "postgres");
        body.put("url", PG.url());
        body.put("user", ROLE);
        body.put("password", SECRET);
        body.put("pool_size", 2);
        body.put("properties", Map.of("postgres.application_name", applicationName));
        return body;
    }

    private static Map<String, Object> mariadb(String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("dialect", "mysql");
        body.put("url", MARIA.url().replaceAll("/[^/?]*(\\?|$)", "/" + MARIA_DB + "$1"));
        body.put("user", MARIA.user());
        body.put("password", "${QAG_MARIADB_PASSWORD}"); // a reference: the test environment holds it
        body.put("pool_size", 2);
        return body;
    }

    private static void create(Http on, Map<String, Object> body) {
        Reply r = kept(on.post("/api/v1/connections", ADMIN, Http.json(body)));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static void publish(Http on, String query, String connection, String sql) {
        Reply q = on.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", query, "sql", sql,
                "connection_name", connection, "publish", true)));
        assertThat(q.status()).as(q.body()).isEqualTo(201);
    }

    private static void delete(Http on, String name) {
        Reply r = kept(on.request("DELETE", "/api/v1/connections/" + name + "?force=true", ADMIN,
                "{\"reason\": \"test\"}"));
        assertThat(r.status()).as(r.body()).isEqualTo(204);
    }

    /** Waits (at most 5 s: the TTL is 1 s) until {@code done}. */
    private static void within(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        within(what, 5, done);
    }

    /**
     * Waits at most {@code seconds} until {@code done}; sessions get 90 s: a closing HikariCP pool waits up to 5 s for
     * its housekeeper, its login timeout (the connection's time limit, 30 s) for a connection it is still opening and
     * 10 s for connections in use, and the other instance first has to notice the deletion; on a loaded CI machine
     * that took more than 45 s once. What is checked is that every session ends, not how fast.
     */
    private static void within(String what, int seconds, java.util.function.BooleanSupplier done)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static int pgSessions(String applicationName) {
        return count(PG.url(), PG.user(), PG.password(), "SELECT count(*) FROM pg_stat_activity WHERE usename = '"
                + ROLE + "'" + (applicationName == null ? "" : " AND application_name = '" + applicationName + "'"));
    }

    private static int mariaSessions() {
        return count(MARIA.url(), MARIA.user(), MARIA.password(),
                "SELECT count(*) FROM information_schema.processlist WHERE db = '" + MARIA_DB + "'");
    }

    @Test
    void aConnectionCreatedOnOneInstanceIsCallableOnTheOtherWithinTheTtlAndStopsWhenDeleted() throws Exception {
        create(a(), postgres("pg_shared", "qag_shared_" + SUFFIX));
        publish(a(), "whoami", "pg_shared", "SELECT current_user AS who");
        assertThat(a().get("/q/whoami", ADMIN).json().get(0).get("who").asText()).isEqualTo(ROLE);
        within("B opens it within the TTL", () -> b().get("/q/whoami", ADMIN).status() == 200);
        assertThat(b().get("/q/whoami", ADMIN).json().get(0).get("who").asText()).isEqualTo(ROLE);
        assertThat(kept(b().get("/api/v1/connections/pg_shared", ADMIN)).json().get("managed_by").asText())
                .isEqualTo("api");

        delete(b(), "pg_shared");
        b().get("/q/whoami", ADMIN).assertRefused(404, "connection_not_found");
        within("A drops it within the TTL", () -> a().get("/q/whoami", ADMIN).status() == 404);
        a().get("/q/whoami", ADMIN).assertRefused(404, "connection_not_found");
        within("no session of it is left on either instance", 45,
                () -> pgSessions("qag_shared_" + SUFFIX) == 0);
    }

    @Test
    void aSlowCallFinishesOnTheOldPoolWhichThenCloses() throws Exception {
        String first = "qag_slow1_" + SUFFIX;
        String second = "qag_slow2_" + SUFFIX;
        create(a(), postgres("pg_slow", first));
        publish(a(), "slow", "pg_slow",
                "SELECT pg_sleep(2)::text AS slept, current_setting('application_name') AS app");
        publish(a(), "slow_app", "pg_slow", "SELECT current_setting('application_name') AS app");
        assertThat(a().get("/q/slow_app", ADMIN).status()).isEqualTo(200);

        CompletableFuture<Reply> running = CompletableFuture.supplyAsync(() -> a().get("/q/slow", ADMIN));
        within("the slow call runs", () -> active(first) >= 1);
        Reply patched = kept(a().patch("/api/v1/connections/pg_slow", ADMIN, Http.json(Map.of("properties",
                Map.of("postgres.application_name", second)))));
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(a().get("/q/slow_app", ADMIN).json().get(0).get("app").asText()).as("new calls use the new pool")
                .isEqualTo(second);
        assertThat(active(first)).as("the call started before the change still runs on the old pool")
                .isGreaterThanOrEqualTo(1);
        Reply finished = running.get();
        assertThat(finished.status()).as(finished.body()).isEqualTo(200);
        assertThat(finished.json().get(0).get("app").asText()).isEqualTo(first);
        within("the old pool closes once its call ended (on both instances)", 90, () -> pgSessions(first) == 0);

        CompletableFuture<Reply> beforeDelete = CompletableFuture.supplyAsync(() -> a().get("/q/slow", ADMIN));
        within("the second slow call runs", () -> active(second) >= 1);
        delete(a(), "pg_slow");
        a().get("/q/slow", ADMIN).assertRefused(404, "connection_not_found");
        Reply last = beforeDelete.get();
        assertThat(last.status()).as("a call running when its connection was deleted finishes: " + last.body())
                .isEqualTo(200);
        assertThat(last.json().get(0).get("app").asText()).isEqualTo(second);
        within("the deleted pool closes after its call", 90, () -> pgSessions(second) == 0);
    }

    /** Sessions of the role with that application name running a statement. */
    private static int active(String applicationName) {
        return count(PG.url(), PG.user(), PG.password(), "SELECT count(*) FROM pg_stat_activity WHERE usename = '"
                + ROLE + "' AND application_name = '" + applicationName + "' AND state = 'active'");
    }

    @Test
    void createUseChangeDeleteCyclesLeaveNoSessionsOnPostgresqlOrMariadb() throws Exception {
        String app = "qag_cycle_" + SUFFIX;
        int mariaBefore = mariaSessions();
        assertThat(pgSessions(app)).isZero();
        for (int cycle = 0; cycle < 3; cycle++) {
            Http on = cycle % 2 == 0 ? a() : b();
            create(on, postgres("pg_cycle", app));
            create(on, mariadb("maria_cycle"));
            if (cycle == 0) {
                publish(on, "pg_cycle_q", "pg_cycle", "SELECT 1 AS one");
                publish(on, "maria_cycle_q", "maria_cycle", "SELECT 2 AS two");
            }
            assertThat(on.get("/q/pg_cycle_q", ADMIN).json().get(0).get("one").asInt()).isEqualTo(1);
            assertThat(on.get("/q/maria_cycle_q", ADMIN).json().get(0).get("two").asInt()).isEqualTo(2);
            Http other = cycle % 2 == 0 ? b() : a();
            within("the other instance opens them", () -> other.get("/q/maria_cycle_q", ADMIN).status() == 200
                    && other.get("/q/pg_cycle_q", ADMIN).status() == 200);
            assertThat(kept(on.patch("/api/v1/connections/pg_cycle", ADMIN, "{\"pool_size\": 3}")).status())
                    .isEqualTo(200);
            assertThat(kept(on.patch("/api/v1/connections/maria_cycle", ADMIN, "{\"pool_size\": 1}")).status())
                    .isEqualTo(200);
            assertThat(on.get("/q/pg_cycle_q", ADMIN).status()).isEqualTo(200);
            assertThat(on.get("/q/maria_cycle_q", ADMIN).status()).isEqualTo(200);
            // a stream leaves its connection when it ends: else the deleted pools below would never close
            Reply streamed = on.get("/q/pg_cycle_q?stream=true&format=ndjson", ADMIN);
            assertThat(streamed.status()).as(streamed.body()).isEqualTo(200);
            assertThat(streamed.body()).contains("1");
            assertThat(on.get("/q/maria_cycle_q?stream=true&format=csv", ADMIN).status()).isEqualTo(200);
            assertThat(pgSessions(app)).as("sessions while live: at most both instances' pools (3 each)")
                    .isLessThanOrEqualTo(6 + 4);
            delete(on, "pg_cycle");
            delete(on, "maria_cycle");
            within("every PostgreSQL session closed after cycle " + cycle, 90, () -> pgSessions(app) == 0);
            within("every MariaDB session closed after cycle " + cycle, 90,
                    () -> mariaSessions() <= mariaBefore);
        }
    }

    @Test
    void thePasswordAppearsInNoAnswerLogEventOrStoredColumn() throws Exception {
        create(a(), postgres("pg_secret", "qag_secret_" + SUFFIX));
        publish(a(), "secret_q", "pg_secret", "SELECT 1 AS one");
        assertThat(a().get("/q/secret_q", ADMIN).status()).isEqualTo(200);
        Map<String, Object> wrong = postgres("pg_wrong", "qag_wrong_" + SUFFIX);
        wrong.put("password", SECRET + "-wrong");
        wrong.put("query_timeout", "2s");
        create(a(), wrong);
        publish(a(), "wrong_q", "pg_wrong", "SELECT 1 AS one");
        List<String> failures = new ArrayList<>();
        failures.add(a().get("/q/wrong_q", ADMIN).body());
        failures.add(a().post("/execute_sql", ADMIN, "{\"sql\": \"SELECT 1\", \"connection_name\": \"pg_wrong\"}")
                .body());
        Map<String, Object> probe = postgres("probe", "qag_probe_" + SUFFIX);
        probe.put("password", SECRET + "-probe");
        failures.add(kept(a().post("/api/v1/connections/test", ADMIN, Http.json(probe))).body());
        failures.add(kept(a().post("/api/v1/connections/databases", ADMIN, Http.json(probe))).body());
        probe.put("password", SECRET);
        Reply tested = kept(a().post("/api/v1/connections/test", ADMIN, Http.json(probe)));
        assertThat(tested.status()).as(tested.body()).isEqualTo(200);
        assertThat(kept(a().post("/api/v1/connections/databases", ADMIN, "{\"name\": \"pg_secret\"}")).status())
                .isEqualTo(200);
        kept(a().post("/api/v1/connections/test", ADMIN, "{\"name\": \"pg_secret\"}"));
        kept(a().get("/api/v1/connections", ADMIN));
        kept(b().get("/api/v1/connections", ADMIN));
        kept(a().get("/api/v1/connections/pg_secret", ADMIN));
        kept(a().patch("/api/v1/connections/pg_secret", ADMIN, "{\"password\": \"********\", \"pool_size\": 1}"));
        delete(a(), "pg_wrong");
        kept(a().get("/api/v1/connections/deleted", ADMIN));
        kept(a().post("/api/v1/connections/pg_wrong/restore", ADMIN, ""));
        within("B has opened both", () -> b().get("/q/secret_q", ADMIN).status() == 200);
        failures.add(b().get("/q/wrong_q", ADMIN).body());
        String settings = a().get("/api/v1/settings", ADMIN).body();
        Thread.sleep(300); // the event log's 50 ms batches
        String events = Jdbi.create(STORE.url(), STORE.user(), STORE.password()).withHandle(h ->
                h.createQuery("SELECT * FROM events").mapToMap().list().toString());
        String stored = Jdbi.create(STORE.url(), STORE.user(), STORE.password()).withHandle(h ->
                h.createQuery("SELECT * FROM connections").mapToMap().list().toString());
        assertThat(stored).contains("pg_secret").contains("tink1:");
        assertThat(events).contains("connection=pg_wrong");
        String logs = Files.readString(LOG_A) + Files.readString(LOG_B);
        assertThat(logs).as("the log is written").contains("Connection 'pg_secret'");
        assertThat(String.join("\n", failures)).contains("password authentication failed").doesNotContain(SECRET);
        List<String> answers;
        synchronized (ANSWERS) {
            answers = List.copyOf(ANSWERS);
        }
        assertThat(answers).hasSizeGreaterThan(10);
        for (String answer : answers) {
            assertThat(answer).as("an answer of the connection routes").doesNotContain(SECRET);
        }
        assertThat(settings).doesNotContain(SECRET);
        assertThat(events).as("the events table").doesNotContain(SECRET);
        assertThat(stored).as("the connections table").doesNotContain(SECRET);
        assertThat(logs).as("the logs").doesNotContain(SECRET);
    }

    private static int count(String url, String user, String password, String sql) {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    private static void pg(String sql) {
        exec(PG.url(), PG.user(), PG.password(), sql);
    }

    private static void maria(String sql) {
        exec(MARIA.url(), MARIA.user(), MARIA.password(), sql);
    }

    private static void exec(String url, String user, String password, String sql) {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }
}
