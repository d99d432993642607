package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingSecrets;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Secrets and values never reach a log line: the gateway runs with its default logging to files (the application
 * log at INFO, the request log), in the default text formats and in the JSON layouts, and is called with a key's
 * secret (header and bearer), the administrator key, a bad key, a JWT, a session cookie, a distinctive parameter value
 * (query string and body), a {@code Referer} carrying a token, a connection's password (created through the API, and a
 * wrong one), and answers 400, 401, 403, 404, 405, 413 and 500; then every line of both files is searched for each of
 * them. The request log must still show what it is for: the path, the parameter's name, the status, the caller.
 */
class LogLeakIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void noSecretOrValueReachesAnyLogLine(boolean jsonLayout) throws Exception {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String value = "Zebra" + tag + "Value";
        String referer = "RefToken" + tag;
        String cookie = "Cookie" + tag;
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFr" + tag + "In0.c2lnbmF0dXJl" + tag;
        String badKey = "sk_bad_" + tag + "0123456789";
        String password = "Pw" + tag + "Secret";
        String wrongPassword = "Wrong" + tag + "Pw";
        String role = "qag_leak_" + tag;
        TestingPostgres.Database pg = TestingPostgres.server();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
        }
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + "  - name: by_title\n    connection: demo\n"
                + "    sql: SELECT film_id FROM film WHERE title = :title\n"
                + "    parameters:\n      title: {type: str}\n");
        Path home = config.getParent();
        Path appLog = home.resolve("app.log");
        Path requestLog = home.resolve("requests.log");
        String yaml = Files.readString(config)
                .replace("  requestLog:\n    appenders: []\n", "  requestLog:\n    appenders:\n"
                        + "      - type: file\n        currentLogFilename: " + requestLog + "\n        archive: false\n"
                        + (jsonLayout ? "        layout:\n          type: access-json\n"
                                + "          requestAttributes: [qag.caller]\n          responseHeaders: [X-Request-Id]\n"
                                : ""))
                .replace("logging:\n  level: WARN\n  appenders:\n    - type: console\n      threshold: WARN\n",
                        "logging:\n  level: INFO\n  appenders:\n"
                        + "    - type: file\n      currentLogFilename: " + appLog + "\n      archive: false\n"
                        + (jsonLayout ? "      layout:\n        type: json\n"
                                + "        timestampFormat: \"yyyy-MM-dd'T'HH:mm:ss.SSSX\"\n"
                                + "        customFieldNames:\n          timestamp: time\n" : ""));
        Files.writeString(config, yaml);
        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(TestingSecrets.KeyedGateway.class, config.toString());
        List<String> secrets = new ArrayList<>(List.of(value, referer, cookie, jwt, tag + "In0", badKey, password,
                wrongPassword, TestingConfig.ADMIN_KEY));
        String keyId;
        try {
            app.before();
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            String reader = http.key("leak-reader", Map.of("queries", List.of("film", "by_title")));
            String outsider = http.key("leak-outsider", Map.of("queries", List.of("nothing")));
            secrets.add(reader);
            secrets.add(outsider);
            keyId = http.get("/api/v1/api-keys/leak-reader", TestingConfig.ADMIN_KEY).json().get("id").asText();

            assertThat(http.get("/q/by_title?title=" + value, reader).status()).isEqualTo(200);
            Reply posted = http.post("/q/by_title", reader, Http.json(Map.of("params", Map.of("title", value))));
            assertThat(posted.status()).as(posted.body()).isEqualTo(200);
            assertThat(http.send(http.builder("/q/film?film_id=1", null).header("Authorization", "Bearer " + reader)
                    .header("Referer", "https://app.example/page?token=" + referer)
                    .header("Cookie", "qag_session=" + cookie).GET().build()).status()).isEqualTo(200);
            http.get("/q/film?film_id=" + value, reader).assertRefused(400, "param_invalid");
            assertThat(http.get("/q/film?film_id=1", badKey).status()).isEqualTo(401);
            assertThat(http.send(http.builder("/q/film?film_id=1", null).header("Authorization", "Bearer " + jwt)
                    .GET().build()).status()).isEqualTo(401);
            assertThat(http.get("/q/by_title?title=" + value, outsider).status()).isEqualTo(403);
            assertThat(http.get("/q/nothing_here?title=" + value, TestingConfig.ADMIN_KEY).status()).isEqualTo(404);
            assertThat(http.request("PUT", "/q/film?film_id=" + value, reader, null).status()).isEqualTo(405);
            assertThat(http.post("/q/by_title?title=" + value, reader, "{\"title\": \"" + "x".repeat(2_000_000)
                    + "\"}").status()).isEqualTo(413);
            Reply failed = http.sql(TestingConfig.ADMIN_KEY, "demo", "SELECT '" + value + "' FROM no_such_table");
            assertThat(failed.status()).as(failed.body()).isGreaterThanOrEqualTo(400);
            Reply broken = http.post("/execute_sql?x=" + value, TestingConfig.ADMIN_KEY, "{not json " + value);
            assertThat(broken.status()).isEqualTo(400);

            Map<String, Object> connection = new LinkedHashMap<>();
            connection.put("name", "leaky");
            connection.put("dialect", "postgres");
            connection.put("url", pg.url());
            connection.put("user", role);
            connection.put("password", password);
            connection.put("pool_size", 1);
            Reply created = http.post("/api/v1/connections", TestingConfig.ADMIN_KEY, Http.json(connection));
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            connection.put("name", "wrong");
            connection.put("password", wrongPassword);
            Reply refused = http.post("/api/v1/connections", TestingConfig.ADMIN_KEY, Http.json(connection));
            assertThat(refused.status()).as(refused.body()).isEqualTo(201); // the pool opens its sessions later
            assertThat(http.sql(TestingConfig.ADMIN_KEY, "wrong", "SELECT 1").status()).isGreaterThanOrEqualTo(500);
            assertThat(http.sql(TestingConfig.ADMIN_KEY, "leaky", "SELECT 1").status()).isEqualTo(200);
            Reply tested = http.post("/api/v1/connections/test", TestingConfig.ADMIN_KEY, Http.json(connection));
            assertThat(tested.status()).isGreaterThanOrEqualTo(200);
            assertThat(http.get("/api/v1/connections/leaky", TestingConfig.ADMIN_KEY).body())
                    .doesNotContain(password);
        } finally {
            app.after();
            try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                    Statement s = c.createStatement()) {
                s.execute("DROP ROLE IF EXISTS " + role);
            }
        }

        List<String> requests = Files.readAllLines(requestLog);
        List<String> application = Files.readAllLines(appLog);
        assertThat(application).as("the application log was written").isNotEmpty();
        for (String secret : secrets) {
            for (String line : requests) {
                assertThat(line).as("request log").doesNotContain(secret);
            }
            for (String line : application) {
                assertThat(line).as("application log").doesNotContain(secret);
            }
        }
        String all = String.join("\n", requests);
        assertThat(all).contains("/q/by_title").contains("/q/film").doesNotContain("app.example");
        if (jsonLayout) {
            for (String line : requests) {
                assertThat(JSON.readTree(line).isObject()).isTrue();
            }
            assertThat(all).as("the caller, by id and name (config/json-logs.yml)")
                    .contains("\"qag.caller\":\"key:" + keyId + ":leak-reader\"");
            for (String line : application) {
                if (line.startsWith("{")) {
                    assertThat(JSON.readTree(line).isObject()).isTrue();
                }
            }
        } else {
            assertThat(all).contains("/q/by_title?title=... ").contains("/q/film?film_id=... ").contains("\" 403 ")
                    .as("the caller, by id and name").contains("key:" + keyId + ":leak-reader");
        }
    }
}
