package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingPython;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code import-python} on a store the Python original filled through its own API: a DuckDB connection, saved queries
 * with several versions (one rolled back, one draft, one never published, names only the original allows), API keys
 * with every kind of grant (all connections, one connection, queries by name, a collection, masks and tables, none,
 * revoked, expired, limits and quotas, rotated with its previous secret in its grace period) and runs. After the import (the packaged jar's command), every key calls every saved query and
 * ad-hoc SQL on this gateway and gets what the original answered: the same status, and the same rows. A dry run
 * changes nothing, a second import changes nothing, a conflict stops it, and rename and skip get past it.
 */
class PythonImportIT {
    private static final String PY_ADMIN = "py-admin-key-0123456789abcdef";
    /** The saved queries the original is given, as paths name them. */
    private static final List<String> QUERIES = List.of("film", "films%20by%20rating", "by_title", "customers",
            "rentals");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** One call: a key (by name; "admin" is each server's administrator key) and a request. */
    private record Call(String key, String method, String path, String body) {}

    /** What a call answered: its status and, when it succeeded, its rows. */
    private record Answer(int status, JsonNode rows) {}

    private record Run(int exit, String output) {}

    @Test
    void importedKeysCallWhatTheyCouldCallBeforeWithTheSameAnswers() throws Exception {
        Path venv = TestingPython.venv();
        Path work = Files.createTempDirectory("qag-import-");
        Path duckdb = work.resolve("demo.duckdb");
        createDemoDatabase(duckdb);
        Path pyHome = work.resolve("py-home");

        Map<String, String> secrets;
        Map<String, JsonNode> definitions = new LinkedHashMap<>();
        JsonNode filmRuns;
        Map<Call, Answer> before = new LinkedHashMap<>();
        List<Call> calls;
        try (TestingPython py = TestingPython.start(venv, pyHome, PY_ADMIN)) {
            Http original = new Http(py.url());
            secrets = fill(original, duckdb);
            secrets.put("admin", PY_ADMIN);
            calls = calls(secrets.keySet());
            for (Call c : calls) {
                before.put(c, answer(original, secrets.get(c.key()), c));
            }
            for (String q : QUERIES) {
                definitions.put(q, original.get("/api/v1/queries/" + q, PY_ADMIN).json());
            }
            filmRuns = original.get("/api/v1/queries/film/history?limit=1000", PY_ADMIN).json().get("items");
        }
        assertThat(filmRuns.size()).isGreaterThan(5);
        // the original answered every kind of outcome: successes, refusals, parameter errors, unknown and expired keys
        assertThat(before.values()).extracting(Answer::status).contains(200, 400, 401, 403, 404);

        Path config = TestingConfig.write("  demo:\n    dialect: duckdb\n    url: " + duckdb + "\n    poolSize: 2\n"
                + "    properties:\n      duckdb.read_only: \"true\"\n", "");
        Path store = config.getParent().resolve("queryapigate.db");
        String from = pyHome.toString();

        Run dry = importPython(config, "--from", from, "--dry-run", "--with-history");
        assertThat(dry.exit()).as(dry.output()).isZero();
        assertThat(dry.output()).contains("create       film: 3 versions, publishes version 1, connection demo")
                .contains("create       films by rating: 1 version, publishes version 1, connection demo")
                .contains("Dry run: nothing was written.");
        assertThat(store).as("a dry run changes nothing").doesNotExist();

        Path fragment = work.resolve("connections.yml");
        Run first = importPython(config, "--from", from, "--with-history", "--connections-out", fragment.toString());
        assertThat(first.exit()).as(first.output()).isZero();
        assertThat(first.output()).contains("Imported 5 saved queries (7 versions), 9 API keys and ")
                .contains("! broad: runs every saved query and ad-hoc SQL on every connection");
        assertThat(Files.readString(fragment)).contains("  demo:\n    dialect: duckdb\n    url: \"" + duckdb + "\"");
        String storeUrl = "jdbc:sqlite:" + store;
        List<Long> counts = storeCounts(storeUrl);

        Run second = importPython(config, "--from", from, "--with-history");
        assertThat(second.exit()).as(second.output()).isZero();
        assertThat(second.output()).contains("Nothing to import: everything is already here.")
                .doesNotContain("create  ");
        assertThat(storeCounts(storeUrl)).as("a second import changes nothing").isEqualTo(counts);

        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        try {
            Http ours = new Http("http://127.0.0.1:" + app.getLocalPort());
            secrets.put("admin", TestingConfig.ADMIN_KEY);

            // the saved queries came along: versions, which is published, collections, tags, descriptions, rules
            for (String q : QUERIES) {
                JsonNode here = ours.get("/api/v1/queries/" + q, TestingConfig.ADMIN_KEY).json();
                assertThat(view(here)).as(q).isEqualTo(asImported(view(definitions.get(q)), definitions.get(q)));
            }

            // the run history came along: each run with its version, time, connection, request id, key and outcome
            JsonNode history = ours.get("/api/v1/queries/film/history?limit=1000", TestingConfig.ADMIN_KEY).json()
                    .get("items");
            assertThat(sameRows(runs(history), runs(filmRuns))).as("here %s%nthere %s", history, filmRuns).isTrue();
            assertThat(history.findValuesAsText("key_name")).contains("film-only", "admin");

            List<String> differences = new ArrayList<>();
            for (Call c : calls) {
                Answer there = before.get(c);
                Answer here = answer(ours, secrets.get(c.key()), c);
                // documented (docs/migrating-from-python.md): a key without a grant on the query asking for a version
                // that is not published, or for a query never published, is refused by its grants here (403), by the
                // version there (404)
                boolean refusedBoth = there.status() == 404 && here.status() == 403
                        && (c.path().contains("version=") || c.path().startsWith("/q/rentals"));
                if ((here.status() != there.status() && !refusedBoth)
                        || (there.rows() != null && !sameRows(here.rows(), there.rows()))) {
                    differences.add(c.key() + " " + c.method() + " " + c.path() + ": original " + there + ", here "
                            + here);
                }
            }
            assertThat(differences).isEmpty();

            // a conflict: 'film' gets a version here that the original does not have
            Reply added = ours.post("/api/v1/queries/film/versions", TestingConfig.ADMIN_KEY, Http.json(Map.of(
                    "sql", "SELECT film_id FROM film WHERE film_id = :id", "parameters", Map.of("id", "int"))));
            assertThat(added.status()).as(added.body()).isEqualTo(201);
            counts = storeCounts(storeUrl);
            Run conflict = importPython(config, "--from", from);
            assertThat(conflict.exit()).as(conflict.output()).isNotZero();
            assertThat(conflict.output()).contains("conflict     film: exists here with other content: it has 4"
                    + " versions here, 3 in the original").contains("Stopped: query 'film' exists here with other"
                    + " content. Nothing was written.");
            assertThat(storeCounts(storeUrl)).isEqualTo(counts);

            Run renamed = importPython(config, "--from", from, "--on-conflict", "rename");
            assertThat(renamed.exit()).as(renamed.output()).isZero();
            assertThat(renamed.output()).contains("create       film-py ('film'): 3 versions, publishes version 1")
                    .contains("skip         film-only: its secret is key 'film-only''s here, with other grants")
                    .contains("Imported 1 saved query (3 versions), 0 API keys and 0 runs.");
            Reply copy = ours.get("/q/film-py?id=1", TestingConfig.ADMIN_KEY);
            assertThat(sameRows(copy.json(), before.get(new Call("admin", "GET", "/q/film?id=1", null)).rows()))
                    .as(copy.body()).isTrue();

            Run skipped = importPython(config, "--from", from, "--on-conflict", "skip");
            assertThat(skipped.exit()).as(skipped.output()).isZero();
            assertThat(skipped.output()).contains("skip         film: exists here with other content")
                    .contains("Nothing to import");
        } finally {
            app.after();
        }
    }

    @Test
    void readsTheOriginalsPostgresStoreAndWritesIntoAPostgresStore() throws Exception {
        Path venv = TestingPython.venv();
        TestingPostgres.Database theirs = TestingPostgres.freshDatabase("qag_py_store");
        TestingPostgres.Database mine = TestingPostgres.freshDatabase("qag_store");
        try {
            Path work = Files.createTempDirectory("qag-import-pg-");
            Path duckdb = work.resolve("demo.duckdb");
            createDemoDatabase(duckdb);
            String from = "postgresql://" + theirs.user() + ":" + theirs.password() + "@"
                    + theirs.url().substring("jdbc:postgresql://".length());
            String secret;
            Answer before;
            try (TestingPython py = TestingPython.start(venv, work.resolve("py-home"), PY_ADMIN,
                    Map.of("QUERYAPIGATE_DATABASE_URL", from))) {
                Http original = new Http(py.url());
                post(original, "/api/v1/connections", Map.of("name", "demo", "db", "duckdb", "database",
                        duckdb.toString()));
                post(original, "/api/v1/queries", Map.of("name", "film", "connection_name", "demo", "publish", true,
                        "description", "one film", "sql", "SELECT film_id, title FROM film WHERE film_id = :id",
                        "parameters", Map.of("id", "int")));
                post(original, "/api/v1/queries/film/versions", Map.of("connection_name", "demo", "description",
                        "a draft", "sql", "SELECT title FROM film WHERE film_id = :id", "parameters",
                        Map.of("id", "int")));
                secret = key(original, Map.of("name", "film-only", "connections", List.of(), "queries",
                        List.of("film")));
                before = answer(original, secret, new Call("film-only", "GET", "/q/film?id=7", null));
                assertThat(before.status()).isEqualTo(200);
            }
            try (Connection c = DriverManager.getConnection(theirs.url(), theirs.user(), theirs.password());
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM saved_query_versions")) {
                assertThat(r.next() ? r.getLong(1) : -1).as("the original used its PostgreSQL store").isEqualTo(2);
            }

            Path config = TestingConfig.write("  demo:\n    dialect: duckdb\n    url: " + duckdb + "\n"
                    + "    properties:\n      duckdb.read_only: \"true\"\n", "store:\n  url: " + mine.url()
                    + "\n  user: " + mine.user() + "\n  password: " + mine.password() + "\n");
            Run first = importPython(config, "--from", from);
            assertThat(first.exit()).as(first.output()).isZero();
            assertThat(first.output()).contains("Imported 1 saved query (2 versions), 1 API key and 0 runs.");
            Run second = importPython(config, "--from", from);
            assertThat(second.exit()).as(second.output()).isZero();
            assertThat(second.output()).contains("Nothing to import");

            DropwizardTestSupport<GatewayConfiguration> app =
                    new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
            app.before();
            try {
                Http ours = new Http("http://127.0.0.1:" + app.getLocalPort());
                Answer here = answer(ours, secret, new Call("film-only", "GET", "/q/film?id=7", null));
                assertThat(sameRows(here.rows(), before.rows())).as(here + " / " + before).isTrue();
                assertThat(ours.get("/q/film?id=7&version=2", secret).status()).isEqualTo(404);
                assertThat(ours.get("/q/film?id=7&version=2", TestingConfig.ADMIN_KEY).status()).isEqualTo(200);
            } finally {
                app.after();
            }
        } finally {
            theirs.dropDatabase();
            mine.dropDatabase();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The original's store, filled through its own API

    /** Creates the connection, queries and keys; returns each key's secret by name. */
    private static Map<String, String> fill(Http py, Path duckdb) {
        post(py, "/api/v1/connections", Map.of("name", "demo", "db", "duckdb", "database", duckdb.toString()));

        post(py, "/api/v1/queries", Map.of("name", "film", "connection_name", "demo", "publish", true,
                "description", "one film", "tags", List.of("films"),
                "sql", "SELECT film_id, title, rental_rate FROM film WHERE film_id = :id",
                "parameters", Map.of("id", Map.of("type", "int", "min", 1))));
        post(py, "/api/v1/queries/film/versions", Map.of("connection_name", "demo", "publish", true,
                "description", "with length", "sql", "SELECT film_id, title, length FROM film WHERE film_id = :id",
                "parameters", Map.of("id", "int")));
        post(py, "/api/v1/queries/film/versions", Map.of("connection_name", "demo", "description", "a draft",
                "sql", "SELECT film_id, rating FROM film WHERE film_id = :id", "parameters", Map.of("id", "int")));
        post(py, "/api/v1/queries/film/publish", Map.of("version", 1)); // the rollback

        post(py, "/api/v1/queries", Map.of("name", "films by rating", "connection_name", "demo", "publish", true,
                "collection", "catalog", "description", "films of a rating",
                "sql", "SELECT film_id, title FROM film WHERE rating = :rating AND length >= :min_length"
                        + " ORDER BY film_id LIMIT 5",
                "parameters", Map.of("rating", Map.of("enum", List.of("G", "PG", "PG-13", "R", "NC-17"), "default",
                        "G"), "min_length", Map.of("type", "integer", "default", 0, "min", 0, "example", 90))));
        post(py, "/api/v1/queries", Map.of("name", "by_title", "connection_name", "demo", "publish", true,
                "collection", "catalog", "description", "titles by prefix (prefix is not declared)",
                "sql", "SELECT film_id, title FROM film WHERE title LIKE :prefix ORDER BY film_id LIMIT 3"));
        post(py, "/api/v1/queries", Map.of("name", "customers", "connection_name", "demo", "publish", true,
                "description", "the first customers", "cache_ttl", 60,
                "sql", "SELECT customer_id, first_name, email FROM customer WHERE customer_id <= :n"
                        + " ORDER BY customer_id",
                "parameters", Map.of("n", Map.of("type", "int", "max", 5, "default", 3))));
        post(py, "/api/v1/queries", Map.of("name", "rentals", "connection_name", "demo", "description", "never"
                + " published", "sql", "SELECT count(*) AS rentals FROM rental WHERE film_id = :film_id",
                "parameters", Map.of("film_id", "int")));

        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("everything", key(py, Map.of("name", "everything")));
        secrets.put("film-only", key(py, Map.of("name", "film-only", "connections", List.of(), "queries",
                List.of("film"), "rate_limit", "1000/minute", "quota", Map.of("calls", 100_000, "per", "day"),
                "expires_at", "2099-12-31")));
        secrets.put("catalog", key(py, Map.of("name", "catalog", "connections", List.of(), "collections",
                List.of("catalog"), "max_rows", 2, "quota", Map.of("calls", 1000, "rows", 100_000, "per", "month"))));
        secrets.put("demo-conn", key(py, Map.of("name", "demo-conn", "connections", List.of("demo"))));
        secrets.put("masked", key(py, Map.of("name", "masked", "connections", List.of("demo"), "allowed_tables",
                List.of("film", "customer"), "mask", List.of(Map.of("column", "customer.email", "action", "null")))));
        secrets.put("nothing", key(py, Map.of("name", "nothing", "connections", List.of(), "queries", List.of())));
        secrets.put("revoked", key(py, Map.of("name", "revoked", "connections", List.of("demo"))));
        secrets.put("expired", key(py, Map.of("name", "expired", "connections", List.of("demo"),
                "expires_at", "2020-01-31")));
        Reply revoke = py.send(py.builder("/api/v1/api-keys/revoked", PY_ADMIN)
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"active\": false}")).build());
        assertThat(revoke.status()).as(revoke.body()).isEqualTo(200);
        secrets.put("rotated-old", key(py, Map.of("name", "rotated", "connections", List.of(), "queries",
                List.of("customers"))));
        Reply rotated = py.post("/api/v1/api-keys/rotated/rotate", PY_ADMIN, "{\"grace_minutes\": 60}");
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        secrets.put("rotated", rotated.json().get("secret").asText());
        secrets.put("unknown", "sk_not-a-key-of-either-server-0123456789");
        return secrets;
    }

    /** The fields of run history items that the import carries over. */
    private static JsonNode runs(JsonNode items) {
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode item : items) {
            ObjectNode o = out.addObject();
            for (String field : List.of("query", "version", "kind", "executed_at", "connection_name", "request_id",
                    "key_name", "transport", "status", "rows", "duration_ms", "code")) {
                o.set(field, item.get(field));
            }
        }
        return out;
    }

    /** What a saved query's management view says that the import carries over, per version. */
    private static JsonNode view(JsonNode query) {
        ObjectNode out = JSON.createObjectNode();
        for (String field : List.of("name", "published_version", "latest_version", "collection", "tags",
                "description", "cache_ttl", "connection_name")) {
            out.set(field, query.get(field));
        }
        ArrayNode versions = out.putArray("versions");
        for (JsonNode v : query.get("versions")) {
            ObjectNode o = versions.addObject();
            for (String field : List.of("version", "status", "uuid", "author", "description", "tags", "sql",
                    "connection_name", "cache_ttl", "parameters", "columns", "mcp")) {
                o.set(field, v.get(field));
            }
        }
        return out;
    }

    /**
     * The original's view with the documented conversions (docs/migrating-from-python.md, "Switching"): an untyped
     * parameter is text, and a marker the original left undeclared is declared as required text.
     */
    private static JsonNode asImported(JsonNode view, JsonNode original) {
        for (int i = 0; i < view.get("versions").size(); i++) {
            ObjectNode parameters = (ObjectNode) view.get("versions").get(i).get("parameters");
            parameters.forEach(p -> {
                if (p.get("type").isNull()) {
                    ((ObjectNode) p).put("type", "string");
                }
            });
            for (JsonNode marker : original.get("versions").get(i).get("placeholders")) {
                if (!parameters.has(marker.asText())) {
                    parameters.putObject(marker.asText()).put("type", "string").put("required", true);
                }
            }
        }
        return view;
    }

    private static void post(Http py, String path, Map<String, Object> body) {
        Reply r = py.post(path, PY_ADMIN, Http.json(body));
        assertThat(r.status()).as(path + ": " + r.body()).isIn(200, 201);
    }

    private static String key(Http py, Map<String, Object> body) {
        Reply r = py.post("/api/v1/api-keys", PY_ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("secret").asText();
    }

    /**
     * Every key's calls: each saved query (published, previous and draft versions, defaults, a refused parameter, a
     * query never published, a name with spaces) and ad-hoc SQL.
     */
    private static List<Call> calls(Iterable<String> keys) {
        String byRating = "/q/films%20by%20rating";
        List<String> paths = List.of("/q/film?id=1", "/q/film?id=2&version=2", "/q/film?id=3&version=3",
                "/q/film?id=0", "/q/film", byRating + "?rating=PG", byRating + "?rating=R&min_length=150", byRating,
                byRating + "?rating=X", "/q/by_title?prefix=" + URLEncoder.encode("F%", StandardCharsets.UTF_8),
                "/q/customers", "/q/customers?n=5", "/q/customers?n=6", "/q/rentals?film_id=1&version=1",
                "/q/rentals?film_id=1");
        List<Call> out = new ArrayList<>();
        for (String key : keys) {
            for (String path : paths) {
                out.add(new Call(key, "GET", path, null));
            }
            out.add(new Call(key, "POST", "/execute_sql", "{\"sql\": \"SELECT count(*) AS n, min(title) AS first"
                    + " FROM film\", \"connection_name\": \"demo\"}"));
        }
        return out;
    }

    private static Answer answer(Http http, String secret, Call c) {
        Reply r = c.method().equals("GET") ? http.get(c.path(), secret) : http.post(c.path(), secret, c.body());
        if (r.status() != 200) {
            return new Answer(r.status(), null);
        }
        JsonNode rows = parse(r.body());
        // the original answers an empty result as a message; none of these calls has one
        assertThat(rows.isArray()).as(c + ": " + r.body()).isTrue();
        return new Answer(200, rows);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError(body, e);
        }
    }

    /** The same rows: the same columns and values, numbers compared by value ({@code 2.99} and {@code 2.990}). */
    private static boolean sameRows(JsonNode a, JsonNode b) {
        return a != null && b != null && a.equals((x, y) -> x.isNumber() && y.isNumber()
                ? x.decimalValue().compareTo(y.decimalValue()) : x.equals(y) ? 0 : 1, b);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Helpers

    /** The demo database, written by this JVM's DuckDB (the original's newer DuckDB reads it; the reverse fails). */
    private static void createDemoDatabase(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute(Files.readString(TestingConfig.repo().resolve("config/demo/demo-duckdb.sql")));
        }
    }

    private static long count(String url, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static List<Long> storeCounts(String url) throws Exception {
        List<Long> out = new ArrayList<>();
        for (String table : List.of("api_keys", "saved_queries", "query_versions", "run_history")) {
            out.add(count(url, "SELECT count(*) FROM " + table));
        }
        out.add(count(url, "SELECT coalesce(sum(published_version), 0) FROM saved_queries"));
        return out;
    }

    private static Run importPython(Path config, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-jar", Path.of(System.getProperty("qag.jar",
                "target/queryapigate.jar")).toAbsolutePath().toString(), "import-python"));
        command.addAll(List.of(flags));
        command.add(config.toString());
        Process p = new ProcessBuilder(command).directory(TestingConfig.repo().toFile()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("import-python did not end: %s", out).isTrue();
        return new Run(p.exitValue(), out);
    }
}
