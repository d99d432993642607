package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingOtelCollector;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingSecrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Traces as a real OpenTelemetry Collector receives them (OTLP over HTTP; the test component writes what it got to
 * {@code traces.jsonl}): the gateway, with {@code OTEL_EXPORTER_OTLP_ENDPOINT} set, is called with a key's secret
 * (header and bearer), the administrator key, a bad key, a JWT, a session cookie, a {@code Referer} with a token,
 * distinctive parameter values (query string and body), SQL text with a distinctive literal, and a connection's
 * password; then every byte the collector got for this run's service (span names, attributes, events, links, status
 * messages, resource attributes) is searched for each of them. The spans must still be there, named by route
 * templates, with the query, dialect and row counts, and a caller's {@code traceparent} continued.
 */
class TracingIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> ENVIRONMENT = new HashMap<>();

    /** The gateway with this test's environment (the secret key, the OTLP endpoint, a service name of its own). */
    public static class TracedGateway extends GatewayApplication {
        @Override
        protected Map<String, String> environmentVariables() {
            return ENVIRONMENT;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void spansReachTheCollectorWithoutAnySecretOrValue(String storeKind) throws Exception {
        String collector = TestingOtelCollector.url();
        Path traces = TestingOtelCollector.dir().resolve("traces.jsonl");
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String service = "qag-tracing-it-" + tag;
        String value = "Zebra" + tag + "Value";
        String literal = "Literal" + tag;
        String referer = "RefToken" + tag;
        String cookie = "Cookie" + tag;
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFr" + tag + "In0.c2lnbmF0dXJl" + tag;
        String badKey = "sk_bad_" + tag + "0123456789";
        String password = "Pw" + tag + "Secret";
        ENVIRONMENT.clear();
        ENVIRONMENT.putAll(TestingSecrets.environment());
        ENVIRONMENT.put("OTEL_EXPORTER_OTLP_ENDPOINT", collector);
        ENVIRONMENT.put("OTEL_SERVICE_NAME", service);
        ENVIRONMENT.put("OTEL_BSP_SCHEDULE_DELAY", "100");
        TestingPostgres.Database pg = storeKind.equals("postgres") ? TestingPostgres.freshDatabase("qag_trace")
                : null;
        String store = pg == null ? "" : "store:\n  url: " + pg.url() + "\n  user: " + pg.user()
                + "\n  password: " + pg.password() + "\n";
        Path config = TestingConfig.write(TestingConfig.demoConnection(), store + TestingConfig.filmSeed()
                + "  - name: by_title\n    connection: demo\n"
                + "    sql: SELECT film_id FROM film WHERE title = :title OR title LIKE 'A%'\n"
                + "    parameters:\n      title: {type: str}\n");
        Path appLog = config.getParent().resolve("app.log");
        Files.writeString(config, Files.readString(config).replace(
                "logging:\n  level: WARN\n  appenders:\n    - type: console\n      threshold: WARN\n",
                "logging:\n  level: INFO\n  appenders:\n    - type: file\n      currentLogFilename: " + appLog
                        + "\n      archive: false\n"));
        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(TracedGateway.class, config.toString());
        List<String> secrets = new ArrayList<>(List.of(value, literal, referer, cookie, jwt, tag + "In0", badKey,
                password, TestingConfig.ADMIN_KEY));
        String callerTrace = "4bf92f3577b34da6a3ce929d" + tag.substring(0, 8);
        String callerSpan = "00f067aa" + tag.substring(0, 8);
        try {
            app.before();
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            String reader = http.key("trace-reader", Map.of("queries", List.of("film", "by_title")));
            String restricted = http.key("trace-restricted", Map.of("connections", List.of("demo"), "adhoc_sql", true,
                    "allowed_tables", List.of("film")));
            secrets.add(reader);
            secrets.add(restricted);

            Reply continued = http.send(http.builder("/q/by_title?title=" + value, reader)
                    .header("traceparent", "00-" + callerTrace + "-" + callerSpan + "-01")
                    .header("Referer", "https://app.example/page?token=" + referer)
                    .header("Cookie", "qag_session=" + cookie).GET().build());
            assertThat(continued.status()).as(continued.body()).isEqualTo(200);
            assertThat(http.post("/q/by_title", reader, Http.json(Map.of("params", Map.of("title", value))))
                    .status()).isEqualTo(200);
            assertThat(http.send(http.builder("/q/film?film_id=1", null).header("Authorization", "Bearer " + reader)
                    .GET().build()).status()).isEqualTo(200);
            http.get("/q/film?film_id=" + value, reader).assertRefused(400, "param_invalid");
            assertThat(http.get("/q/film?film_id=1", badKey).status()).isEqualTo(401);
            assertThat(http.send(http.builder("/q/film?film_id=1", null).header("Authorization", "Bearer " + jwt)
                    .GET().build()).status()).isEqualTo(401);
            assertThat(http.sql(restricted, "demo", "SELECT title FROM film WHERE title <> '" + literal + "'")
                    .status()).isEqualTo(200);
            assertThat(http.sql(TestingConfig.ADMIN_KEY, "demo", "SELECT '" + literal + "' FROM no_such_table")
                    .status()).isGreaterThanOrEqualTo(400);
            String traced = null;
            for (int i = 0; i < 50 && traced == null; i++) { // the event log is written every 50 ms
                for (JsonNode item : http.get("/api/v1/history?query=by_title", TestingConfig.ADMIN_KEY).json()
                        .path("items")) {
                    if (item.path("request_id").asText().equals(continued.header("X-Request-Id"))) {
                        traced = item.path("trace_id").asText(null);
                    }
                }
                Thread.sleep(100);
            }
            assertThat(traced).as("the run's history entry names its trace").isEqualTo(callerTrace);
            Map<String, Object> connection = new LinkedHashMap<>(TestingConfig.duckdbConnection("traced", "x"));
            connection.put("password", password);
            connection.put("user", "someone");
            String createTrace = "0af7651916cd43dd8448eb21" + tag.substring(4, 12);
            Reply created = http.request("POST", "/api/v1/connections", TestingConfig.ADMIN_KEY,
                    Http.json(connection), "traceparent", "00-" + createTrace + "-b7ad6b71" + tag.substring(0, 8)
                            + "-01");
            assertThat(created.status()).as(created.body()).isIn(201, 400);
            assertThat(Files.readAllLines(appLog)).as("a line logged while serving it names its trace")
                    .anySatisfy(line -> assertThat(line).contains(" trace_id=" + createTrace + " span_id="));
        } finally {
            app.after(); // closes the SDK, which sends what is waiting
            if (pg != null) {
                pg.dropDatabase();
            }
        }

        for (String line : Files.readAllLines(appLog)) {
            for (String secret : secrets) {
                assertThat(line).as("application log").doesNotContain(secret);
            }
        }
        List<JsonNode> ours = awaitResourceSpans(traces, service);
        String exported = JSON.writeValueAsString(ours);
        for (String secret : secrets) {
            assertThat(exported).as("what the collector received").doesNotContain(secret);
        }
        List<JsonNode> spans = new ArrayList<>();
        for (JsonNode resource : ours) {
            for (JsonNode scope : resource.path("scopeSpans")) {
                scope.path("spans").forEach(spans::add);
            }
        }
        List<String> names = spans.stream().map(s -> s.path("name").asText()).toList();
        assertThat(names).contains("GET /q/{name}", "POST /q/{name}", "POST /execute_sql", "query by_title",
                "query film", "execute_sql", "auth", "guard", "READ demo", "render json");
        JsonNode server = spans.stream().filter(s -> s.path("traceId").asText().equals(callerTrace)
                && s.path("parentSpanId").asText().equals(callerSpan)).findFirst().orElseThrow(
                        () -> new AssertionError("no span continues the caller's traceparent: " + names));
        assertThat(server.path("name").asText()).isEqualTo("GET /q/{name}");
        assertThat(attribute(server, "http.route")).isEqualTo("/q/{name}");
        assertThat(attribute(server, "http.response.status_code")).isEqualTo("200");
        assertThat(attribute(server, "queryapigate.caller")).isEqualTo("trace-reader");
        JsonNode query = spans.stream().filter(s -> s.path("name").asText().equals("query by_title")
                && s.path("traceId").asText().equals(callerTrace)).findFirst().orElseThrow();
        assertThat(attribute(query, "queryapigate.query")).isEqualTo("by_title");
        assertThat(attribute(query, "db.system.name")).isEqualTo("duckdb");
        assertThat(attribute(query, "queryapigate.version")).isEqualTo("1");
        JsonNode database = spans.stream().filter(s -> s.path("name").asText().equals("READ demo")
                && s.path("traceId").asText().equals(callerTrace)).findFirst().orElseThrow();
        assertThat(Long.parseLong(attribute(database, "db.response.returned_rows"))).isPositive();
        assertThat(spans).anySatisfy(s -> {
            assertThat(attribute(s, "error.type")).isEqualTo("param_invalid");
            assertThat(s.path("name").asText()).isEqualTo("GET /q/{name}");
        });
        JsonNode resource = ours.get(0).path("resource");
        assertThat(JSON.writeValueAsString(resource)).contains("service.version").contains("service.instance.id");
    }

    @Test
    void aCallersTraceparentIsIgnoredWhenTurnedOff() throws Exception {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String service = "qag-tracing-own-" + tag;
        ENVIRONMENT.clear();
        ENVIRONMENT.putAll(TestingSecrets.environment());
        ENVIRONMENT.put("OTEL_EXPORTER_OTLP_ENDPOINT", TestingOtelCollector.url());
        ENVIRONMENT.put("OTEL_SERVICE_NAME", service);
        ENVIRONMENT.put("OTEL_BSP_SCHEDULE_DELAY", "100");
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + "tracing:\n  acceptTraceparent: false\n");
        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(TracedGateway.class, config.toString());
        String callerTrace = "5bf92f3577b34da6a3ce929d" + tag.substring(0, 8);
        try {
            app.before();
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            assertThat(http.send(http.builder("/q/film?film_id=1", TestingConfig.ADMIN_KEY)
                    .header("traceparent", "00-" + callerTrace + "-00f067aa0ba902b7-01").GET().build()).status())
                    .isEqualTo(200);
        } finally {
            app.after();
        }
        String exported = JSON.writeValueAsString(awaitResourceSpans(TestingOtelCollector.dir().resolve("traces.jsonl"),
                service));
        assertThat(exported).contains("GET /q/{name}").doesNotContain(callerTrace).doesNotContain("00f067aa0ba902b7");
    }

    /** A span attribute's value as text (OTLP JSON keeps integers as strings), or null. */
    private static String attribute(JsonNode span, String key) {
        for (JsonNode a : span.path("attributes")) {
            if (a.path("key").asText().equals(key)) {
                JsonNode v = a.path("value");
                return v.has("stringValue") ? v.get("stringValue").asText()
                        : v.has("intValue") ? v.get("intValue").asText() : v.toString();
            }
        }
        return null;
    }

    /** The collector's resourceSpans of {@code service}, once its spans stopped arriving (up to 30 s). */
    private static List<JsonNode> awaitResourceSpans(Path traces, String service) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        int seen = -1;
        while (true) {
            List<JsonNode> found = new ArrayList<>();
            if (Files.exists(traces)) {
                for (String line : Files.readAllLines(traces)) {
                    if (!line.contains(service)) {
                        continue;
                    }
                    for (JsonNode r : JSON.readTree(line).path("resourceSpans")) {
                        if (JSON.writeValueAsString(r.path("resource")).contains(service)) {
                            found.add(r);
                        }
                    }
                }
            }
            if (!found.isEmpty() && found.size() == seen) {
                return found;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the collector wrote no spans of " + service + " to " + traces);
            }
            seen = found.size();
            Thread.sleep(1000);
        }
    }
}
