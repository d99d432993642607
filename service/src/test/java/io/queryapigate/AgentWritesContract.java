package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.queryapigate.agentwrites.AgentWrites;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.errors.ApiException;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AI agents' writes (package {@code agentwrites}) end to end on the real PostgreSQL and MariaDB, through the Java API
 * the MCP server calls and the {@code /api/v1/write-requests} routes, on a real store (the SQLite and the PostgreSQL
 * subclasses): approval asked, approved, run once with exactly the approved arguments; concurrent retries; expiry and
 * rejection; a write over {@code max_affected_rows} rolled back; insert mode with and without an idempotency key; a
 * reader on the same single-connection pool still read-only after writes; the definition checks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgentWritesContract {
    static final String ADMIN = TestingConfig.ADMIN_KEY;
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final TestServers.Server MARIA = TestServers.mariadb();
    private static final AtomicInteger IDS = new AtomicInteger(100);

    String agent;
    String reader;

    /** The instance under test. */
    abstract DropwizardAppExtension<GatewayConfiguration> app();

    /** Its store. */
    abstract Jdbi store();

    Http http() {
        return new Http("http://127.0.0.1:" + app().getLocalPort());
    }

    AgentWrites writes() {
        return ((GatewayApplication) app().getApplication()).agentWrites();
    }

    Caller caller(String secret) {
        try {
            return ((GatewayApplication) app().getApplication()).credentials().authenticate(secret).orElseThrow();
        } catch (io.dropwizard.auth.AuthenticationException e) {
            throw new AssertionError(e);
        }
    }

    /** The target databases of one test class. */
    abstract Targets targets();

    /**
     * Fresh databases on the real PostgreSQL and MariaDB, one pair per test class: tables {@code items} and
     * {@code notes}, and {@code qag_aw_write()}, a function that inserts (the read-only proof).
     */
    static final class Targets {
        final TestingPostgres.Database pg = TestingPostgres.freshDatabase("qag_aw");
        final String mariaDb = "qag_aw_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);

        Targets() {
            String tables = "CREATE TABLE items (id INT PRIMARY KEY, grp INT NOT NULL, qty INT NOT NULL)";
            exec("pg", tables, "CREATE TABLE notes (id SERIAL PRIMARY KEY, note VARCHAR(100) NOT NULL)",
                    "CREATE FUNCTION qag_aw_write() RETURNS int LANGUAGE sql AS"
                            + " 'INSERT INTO notes (note) VALUES (''leak'') RETURNING 1'");
            try (Connection c = DriverManager.getConnection(MARIA.url(), MARIA.user(), MARIA.password());
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + mariaDb);
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
            exec("maria", tables, "CREATE TABLE notes (id INT AUTO_INCREMENT PRIMARY KEY,"
                    + " note VARCHAR(100) NOT NULL)", "CREATE FUNCTION qag_aw_write() RETURNS INT NOT DETERMINISTIC"
                    + " MODIFIES SQL DATA BEGIN INSERT INTO notes (note) VALUES ('leak'); RETURN 1; END");
        }

        /** The connections block: pg and maria (pools of one, the writing function allowed), ch (ClickHouse). */
        String connections() {
            return "  pg:\n    dialect: postgres\n    url: " + pg.url() + "\n    user: " + pg.user()
                    + "\n    password: " + pg.password() + "\n    poolSize: 1\n"
                    + "    allowedFunctions: [qag_aw_write]\n"
                    + "  maria:\n    dialect: mysql\n    url: " + mariaUrl() + "\n    user: " + MARIA.user()
                    + "\n    password: " + MARIA.password() + "\n    poolSize: 1\n"
                    + "    allowedFunctions: [qag_aw_write]\n"
                    + "  ch:\n    dialect: clickhouse\n    url: " + TestServers.clickhouse().url() + "\n    user: "
                    + TestServers.clickhouse().user() + "\n";
        }

        void drop() {
            pg.dropDatabase();
            try (Connection c = DriverManager.getConnection(MARIA.url(), MARIA.user(), MARIA.password());
                    Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + mariaDb);
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }

        private String mariaUrl() {
            String base = MARIA.url();
            int slash = base.lastIndexOf('/');
            int query = base.indexOf('?', slash);
            return base.substring(0, slash + 1) + mariaDb + (query < 0 ? "" : base.substring(query));
        }

        private Connection open(String db) throws SQLException {
            return db.equals("pg") ? DriverManager.getConnection(pg.url(), pg.user(), pg.password())
                    : DriverManager.getConnection(mariaUrl(), MARIA.user(), MARIA.password());
        }

        void exec(String db, String... statements) {
            try (Connection c = open(db); Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }

        long one(String db, String sql) {
            try (Connection c = open(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new AssertionError(sql, e);
            }
        }
    }

    static String extraYaml() {
        return "security:\n  allowWrites: true\n";
    }

    void exec(String db, String... statements) {
        targets().exec(db, statements);
    }

    long one(String db, String sql) {
        return targets().one(db, sql);
    }

    /** A fresh row of {@code items}: its id. */
    int item(String db, int grp, int qty) {
        int id = IDS.incrementAndGet();
        exec(db, "INSERT INTO items (id, grp, qty) VALUES (" + id + ", " + grp + ", " + qty + ")");
        return id;
    }

    void save(String name, String db, String sql, Map<String, Object> parameters, Map<String, Object> extra,
            int expected) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("parameters", parameters);
        body.put("connection_name", db);
        body.put("publish", true);
        body.putAll(extra);
        Reply r = http().post("/api/v1/queries", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(expected);
    }

    @BeforeAll
    void queriesAndKeys() {
        for (String db : List.of("pg", "maria")) {
            Map<String, Object> idAndN = Map.of("id", Map.of("type", "integer"), "n", Map.of("type", "integer"));
            save("bump_" + db, db, "UPDATE items SET qty = qty + :n WHERE id = :id", idAndN,
                    Map.of("agent_writes", "approval"), 201);
            save("zero_" + db, db, "UPDATE items SET qty = 0 WHERE grp = :grp", Map.of("grp", Map.of("type",
                    "integer")), Map.of("agent_writes", "approval", "max_affected_rows", 2), 201);
            save("note_" + db, db, "INSERT INTO notes (note) VALUES (:note)", Map.of("note", Map.of("type",
                    "string")), Map.of("agent_writes", "insert"), 201);
        }
        agent = http().key("aw-agent", Map.of("connections", List.of("pg", "maria"), "allow_writes", true));
        reader = http().key("aw-reader", Map.of("connections", List.of("pg", "maria"), "adhoc_sql", true));
    }

    ObjectNode args(Object... pairs) {
        ObjectNode o = MAPPER.createObjectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            o.set((String) pairs[i], MAPPER.valueToTree(pairs[i + 1]));
        }
        return o;
    }

    ObjectNode call(String query, ObjectNode arguments, String approval) {
        return writes().call(caller(agent), "req-" + IDS.incrementAndGet(), query, arguments, approval, null);
    }

    static ApiException refusal(Callable<?> call) {
        try {
            call.call();
        } catch (ApiException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("not refused");
    }

    Reply approve(String id) {
        return http().post("/api/v1/write-requests/" + id + "/approve", ADMIN, "");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg", "maria"})
    void anApprovedWriteRunsOnceWithExactlyItsArguments(String db) {
        int id = item(db, 1, 10);
        ObjectNode asked = call("bump_" + db, args("id", id, "n", 5), null);
        assertThat(asked.get("status").asText()).isEqualTo("approval_required");
        String request = asked.get("request").asText();
        assertThat(request).startsWith("wr_");
        assertThat(asked.get("approve_at").asText()).endsWith(request);
        assertThat(asked.get("rows")).isEmpty();
        assertThat(one(db, "SELECT qty FROM items WHERE id = " + id)).as("nothing written yet").isEqualTo(10);

        Reply pending = http().get("/api/v1/write-requests?status=pending&query=bump_" + db, ADMIN);
        assertThat(pending.status()).as(pending.body()).isEqualTo(200);
        assertThat(pending.json().get("items").findValuesAsText("id")).contains(request);
        JsonNode shown = http().get("/api/v1/write-requests/" + request, ADMIN).json();
        assertThat(shown.get("caller").asText()).isEqualTo("aw-agent");
        assertThat(shown.get("arguments").get("n").asInt()).isEqualTo(5);
        assertThat(shown.get("mode").asText()).isEqualTo("approval");

        assertThat(refusal(() -> call("bump_" + db, args("id", id, "n", 5), request)).code())
                .isEqualTo("approval_pending");
        Reply approved = approve(request);
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().get("status").asText()).isEqualTo("approved");
        assertThat(approved.json().get("decided_by").asText()).isEqualTo("admin");
        Reply audit = http().get("/api/v1/audit?action=approve_write&target=" + request, ADMIN);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        assertThat(audit.body()).contains(request).doesNotContain("\"n\":5");

        ApiException mismatch = refusal(() -> call("bump_" + db, args("id", id, "n", 500), request));
        assertThat(mismatch.status()).isEqualTo(403);
        assertThat(mismatch.code()).isEqualTo("approval_mismatch");
        assertThat(refusal(() -> writes().call(caller(reader), "r", "bump_" + db, args("id", id, "n", 5), request,
                null)).code()).as("another caller").isEqualTo("read_only");

        ObjectNode done = call("bump_" + db, args("n", 5, "id", id), request);
        assertThat(done.get("status").asText()).isEqualTo("done");
        assertThat(done.get("rows_affected").asLong()).isEqualTo(1);
        assertThat(one(db, "SELECT qty FROM items WHERE id = " + id)).isEqualTo(15);

        ObjectNode again = call("bump_" + db, args("id", id, "n", 5), request);
        assertThat(again.get("request").asText()).isEqualTo(request);
        assertThat(again.get("rows_affected").asLong()).isEqualTo(1);
        assertThat(one(db, "SELECT qty FROM items WHERE id = " + id)).as("the approval used once").isEqualTo(15);
        assertThat(http().get("/api/v1/write-requests/" + request, ADMIN).json().get("status").asText())
                .isEqualTo("done");
        assertThat(approve(request).json().get("code").asText()).isEqualTo("write_request_closed");

        long mcpEvents = awaitEvents(request);
        assertThat(mcpEvents).as("the write's event carries transport mcp").isGreaterThanOrEqualTo(1);
        assertReadOnly(db);
    }

    /** Events of successful MCP calls written since the test began (the event log flushes every 50 ms). */
    long awaitEvents(String request) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long n = 0;
        while (System.nanoTime() < deadline) {
            n = store().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM events WHERE transport = 'mcp'"
                    + " AND status = 200").mapTo(Long.class).one());
            if (n > 0) {
                return n;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        return n;
    }

    /**
     * A reader on the connection's single pooled session after the writes: a stored function that inserts, called
     * from a SELECT, is refused by the database (the session is read-only), and nothing is inserted.
     */
    void assertReadOnly(String db) {
        Reply flip = http().sql(reader, db, "SELECT qag_aw_write() AS w");
        assertThat(flip.status()).as(flip.body()).isNotEqualTo(200);
        assertThat(one(db, "SELECT COUNT(*) FROM notes WHERE note = 'leak'")).as(flip.body()).isZero();
        Reply write = http().sql(reader, db, "UPDATE items SET qty = 0");
        assertThat(write.status()).as(write.body()).isEqualTo(403);
        Reply read = http().sql(reader, db, "SELECT COUNT(*) AS n FROM items");
        assertThat(read.status()).as(read.body()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg", "maria"})
    void concurrentRetriesOfOneApprovalRunItExactlyOnce(String db) throws Exception {
        int id = item(db, 1, 0);
        String request = call("bump_" + db, args("id", id, "n", 1), null).get("request").asText();
        assertThat(approve(request).status()).isEqualTo(200);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<String>> outcomes = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            outcomes.add(pool.submit(() -> {
                start.await();
                try {
                    return call("bump_" + db, args("id", id, "n", 1), request).get("status").asText();
                } catch (ApiException e) {
                    return e.code();
                }
            }));
        }
        start.countDown();
        List<String> seen = new ArrayList<>();
        for (Future<String> f : outcomes) {
            seen.add(f.get());
        }
        pool.shutdown();
        // a retry that starts after the write finished replays its outcome ("done"), one that overlaps it is refused
        assertThat(seen).allMatch(s -> s.equals("done") || s.equals("write_running")).contains("done");
        assertThat(one(db, "SELECT qty FROM items WHERE id = " + id)).as("run exactly once: " + seen).isEqualTo(1);
    }

    @Test
    void anExpiredOrRejectedRequestDoesNotRun() {
        int id = item("pg", 1, 0);
        String expired = call("bump_pg", args("id", id, "n", 1), null).get("request").asText();
        store().useHandle(h -> h.execute("UPDATE write_requests SET expires_at = 1 WHERE id = ?", expired));
        assertThat(http().get("/api/v1/write-requests/" + expired, ADMIN).json().get("status").asText())
                .isEqualTo("expired");
        Reply late = approve(expired);
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.json().get("code").asText()).isEqualTo("write_request_closed");
        assertThat(http().get("/api/v1/write-requests?status=expired", ADMIN).json().get("items")
                .findValuesAsText("id")).contains(expired);

        String approvedThenExpired = call("bump_pg", args("id", id, "n", 2), null).get("request").asText();
        assertThat(approve(approvedThenExpired).status()).isEqualTo(200);
        store().useHandle(h -> h.execute("UPDATE write_requests SET expires_at = 1 WHERE id = ?",
                approvedThenExpired));
        assertThat(refusal(() -> call("bump_pg", args("id", id, "n", 2), approvedThenExpired)).code())
                .isEqualTo("approval_expired");

        String rejected = call("bump_pg", args("id", id, "n", 3), null).get("request").asText();
        Reply no = http().post("/api/v1/write-requests/" + rejected + "/reject", ADMIN, "{\"reason\": \"not today\"}");
        assertThat(no.status()).as(no.body()).isEqualTo(200);
        assertThat(no.json().get("status").asText()).isEqualTo("rejected");
        assertThat(no.json().get("reason").asText()).isEqualTo("not today");
        ApiException refused = refusal(() -> call("bump_pg", args("id", id, "n", 3), rejected));
        assertThat(refused.code()).isEqualTo("approval_rejected");
        assertThat(refused.getMessage()).contains("not today");
        assertThat(http().get("/api/v1/audit?action=reject_write", ADMIN).body()).contains(rejected);
        assertThat(one("pg", "SELECT qty FROM items WHERE id = " + id)).isZero();
        assertThat(refusal(() -> call("bump_pg", args("id", id, "n", 3), "wr_000000000000")).code())
                .isEqualTo("write_request_not_found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg", "maria"})
    void aWriteOverItsCeilingIsRolledBack(String db) {
        int grp = IDS.incrementAndGet();
        int a = item(db, grp, 7);
        item(db, grp, 7);
        item(db, grp, 7);
        String request = call("zero_" + db, args("grp", grp), null).get("request").asText();
        assertThat(approve(request).status()).isEqualTo(200);
        ApiException over = refusal(() -> call("zero_" + db, args("grp", grp), request));
        assertThat(over.status()).isEqualTo(409);
        assertThat(over.code()).isEqualTo("too_many_rows_affected");
        assertThat(one(db, "SELECT SUM(qty) FROM items WHERE grp = " + grp)).as("rolled back").isEqualTo(21);
        JsonNode shown = http().get("/api/v1/write-requests/" + request, ADMIN).json();
        assertThat(shown.get("status").asText()).isEqualTo("failed");
        assertThat(shown.get("result").get("code").asText()).isEqualTo("too_many_rows_affected");
        assertThat(refusal(() -> call("zero_" + db, args("grp", grp), request)).code())
                .as("a retry gets the first failure, and runs nothing").isEqualTo("too_many_rows_affected");
        assertReadOnly(db);

        // within the ceiling it commits
        exec(db, "DELETE FROM items WHERE id = " + a);
        String fits = call("zero_" + db, args("grp", grp), null).get("request").asText();
        assertThat(approve(fits).status()).isEqualTo(200);
        assertThat(call("zero_" + db, args("grp", grp), fits).get("rows_affected").asLong()).isEqualTo(2);
        assertThat(one(db, "SELECT SUM(qty) FROM items WHERE grp = " + grp)).isZero();
        assertReadOnly(db);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg", "maria"})
    void insertModeRunsAtOnceAndAnIdempotencyKeyOnlyOnce(String db) {
        String note = "n" + IDS.incrementAndGet();
        ObjectNode first = call("note_" + db, args("note", note), null);
        assertThat(first.get("status").asText()).isEqualTo("done");
        assertThat(first.get("rows_affected").asLong()).isEqualTo(1);
        call("note_" + db, args("note", note), null);
        assertThat(one(db, "SELECT COUNT(*) FROM notes WHERE note = '" + note + "'")).isEqualTo(2);

        String keyed = "k" + IDS.incrementAndGet();
        Caller c = caller(agent);
        ObjectNode once = writes().call(c, "r1", "note_" + db, args("note", keyed), null, "key-" + keyed);
        ObjectNode twice = writes().call(c, "r2", "note_" + db, args("note", keyed), null, "key-" + keyed);
        assertThat(twice.get("request").asText()).isEqualTo(once.get("request").asText());
        assertThat(one(db, "SELECT COUNT(*) FROM notes WHERE note = '" + keyed + "'")).isEqualTo(1);
        assertThat(refusal(() -> writes().call(c, "r3", "note_" + db, args("note", "other"), null, "key-" + keyed))
                .code()).isEqualTo("idempotency_conflict");
        assertThat(refusal(() -> writes().call(c, "r4", "note_" + db, args("note", "x"), null, "")).code())
                .isEqualTo("param_invalid");
        assertThat(http().get("/api/v1/write-requests?query=note_" + db, ADMIN).json().get("items")
                .findValuesAsText("mode")).containsOnly("insert");
        assertReadOnly(db);
    }

    @Test
    void whoMayWriteAndWhoMayDecide() {
        assertThat(refusal(() -> writes().call(caller(reader), "r", "note_pg", args("note", "x"), null, null)).code())
                .isEqualTo("read_only");
        assertThat(refusal(() -> call("note_pg", args("note", Map.of("not", "text")), null)).status()).isEqualTo(400);
        String elsewhere = http().key("aw-elsewhere", Map.of("connections", List.of("maria"), "allow_writes", true));
        assertThat(writes().writable(caller(elsewhere), "note_pg")).as("no grant of the query or its connection")
                .isFalse();
        assertThat(writes().writable(caller(agent), "note_pg")).isTrue();
        assertThat(writes().writable(caller(agent), "no_such_query")).isFalse();
        assertThat(writes().writable(caller(reader), "note_pg")).as("no write grant").isFalse();
        assertThat(refusal(() -> writes().call(caller(elsewhere), "r", "note_pg", args("note", "x"), null, null))
                .code()).isEqualTo("query_not_granted");
        assertThat(http().get("/api/v1/write-requests?caller=aw-elsewhere", ADMIN).json().get("items"))
                .as("nothing recorded for a caller refused").isEmpty();
        Caller admin = caller(ADMIN);
        String own = writes().call(admin, "r", "bump_pg", args("id", 1, "n", 1), null, null).get("request").asText();
        Reply self = approve(own);
        assertThat(self.status()).isEqualTo(403);
        assertThat(self.json().get("code").asText()).isEqualTo("own_write");
        Reply reader403 = http().get("/api/v1/write-requests", agent);
        assertThat(reader403.status()).isEqualTo(403);
        Reply badStatus = http().get("/api/v1/write-requests?status=maybe", ADMIN);
        assertThat(badStatus.status()).isEqualTo(400);
        assertThat(badStatus.json().get("code").asText()).isEqualTo("invalid_filter");

        store().useHandle(h -> h.execute("UPDATE write_requests SET workspace = 'elsewhere' WHERE id = ?", own));
        assertThat(http().get("/api/v1/write-requests/" + own, ADMIN).json().get("code").asText())
                .as("another workspace's request").isEqualTo("write_request_not_found");
        assertThat(approve(own).status()).isEqualTo(404);
        assertThat(http().get("/api/v1/write-requests", ADMIN).json().get("items").findValuesAsText("id"))
                .doesNotContain(own);
    }

    @Test
    void definitionsRefuseWhatAgentsCannotWriteWith() {
        Map<String, Object> none = Map.of();
        assertRefused("aw_read", "pg", "SELECT qty FROM items", Map.of("agent_writes", "approval"), "agent_writes");
        assertRefused("aw_ins", "pg", "UPDATE items SET qty = 1", Map.of("agent_writes", "insert"), "agent_writes");
        assertRefused("aw_mode", "pg", "UPDATE items SET qty = 1", Map.of("agent_writes", "always"), "agent_writes");
        assertRefused("aw_max", "pg", "UPDATE items SET qty = 1", Map.of("max_affected_rows", 3),
                "max_affected_rows");
        assertRefused("aw_max0", "pg", "UPDATE items SET qty = 1", Map.of("agent_writes", "approval",
                "max_affected_rows", 0), "max_affected_rows");
        assertRefused("aw_big", "pg", "UPDATE items SET qty = 1", Map.of("agent_writes", "approval",
                "max_affected_rows", 100_001), "max_affected_rows");
        assertRefused("aw_ch", "ch", "INSERT INTO t (a) VALUES (1)", Map.of("agent_writes", "insert"),
                "agent_writes");
        save("aw_ok", "pg", "DELETE FROM items WHERE id = -1", none, Map.of("agent_writes", "approval",
                "max_affected_rows", 100_000), 201);
        JsonNode view = http().get("/api/v1/queries/aw_ok/versions/1", ADMIN).json();
        assertThat(view.get("agent_writes").asText()).isEqualTo("approval");
        assertThat(view.get("max_affected_rows").asInt()).isEqualTo(100_000);
        JsonNode plain = http().get("/api/v1/queries/bump_pg/versions/1", ADMIN).json();
        assertThat(plain.get("max_affected_rows").asInt()).as("the default").isEqualTo(1);
    }

    private void assertRefused(String name, String db, String sql, Map<String, Object> extra, String field) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("connection_name", db);
        body.putAll(extra);
        Reply r = http().post("/api/v1/queries", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.json().get("code").asText()).isEqualTo("invalid_body");
        assertThat(r.json().path("errors").has(field)).as(r.body()).isTrue();
    }

    @Test
    void aConfigurationFileMarksAQueryAndAChangedCeilingIsAChange() {
        String file = "name: aw_file\nconnection_name: pg\nsql: DELETE FROM items WHERE id = :id\n"
                + "parameters:\n  id: {type: integer}\nagent_writes: approval\nmax_affected_rows: 3\n";
        Reply applied = http().post("/api/v1/config/apply", ADMIN, Http.json(Map.of("files",
                Map.of("queries/aw_file.yaml", file))));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        JsonNode version = http().get("/api/v1/queries/aw_file/versions/1", ADMIN).json();
        assertThat(version.get("agent_writes").asText()).isEqualTo("approval");
        assertThat(version.get("max_affected_rows").asInt()).isEqualTo(3);
        Reply same = http().post("/api/v1/config/diff", ADMIN, Http.json(Map.of("files",
                Map.of("queries/aw_file.yaml", file))));
        assertThat(same.json().get("summary").get("update").asInt()).as(same.body()).isZero();
        Reply changed = http().post("/api/v1/config/diff", ADMIN, Http.json(Map.of("files",
                Map.of("queries/aw_file.yaml", file.replace("max_affected_rows: 3", "max_affected_rows: 4")))));
        assertThat(changed.json().get("summary").get("update").asInt()).as(changed.body()).isEqualTo(1);
        Reply refused = http().post("/api/v1/config/diff", ADMIN, Http.json(Map.of("files",
                Map.of("queries/aw_file.yaml", file.replace("DELETE FROM items WHERE id = :id",
                        "SELECT qty FROM items WHERE id = :id")))));
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("agent-writable");
    }

    @Test
    void argumentsHashIgnoresMemberOrderButNotValues() {
        assertThat(AgentWrites.argumentsHash("q", 1, args("a", 1, "b", 2)))
                .isEqualTo(AgentWrites.argumentsHash("q", 1, args("b", 2, "a", 1)))
                .isNotEqualTo(AgentWrites.argumentsHash("q", 1, args("a", 1, "b", 3)))
                .isNotEqualTo(AgentWrites.argumentsHash("q", 2, args("a", 1, "b", 2)));
        assertThatThrownBy(() -> writes().call(caller(agent), "r", "no_such_query", args(), null, null))
                .isInstanceOf(ApiException.class);
    }
}
