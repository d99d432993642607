package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Postman export as a Postman user meets it: every request of an exported collection, sent as the file says
 * (its URL with the example values, the key filled into the empty {@code apiKey} variable), runs (200); so does each
 * with its optional parameters enabled too. The queries cover every kind of rule, patterns with classes,
 * quantifiers, alternation, anchors, lookaheads and characters that need percent-encoding.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PostmanExamplesIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final Map<String, Map<String, Object>> TEXTS = new LinkedHashMap<>();
    private static Http http;
    private static String key;

    @BeforeAll
    static void queries() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Map<String, Object> numbers = new LinkedHashMap<>();
        numbers.put("i", Map.of("type", "int", "min", 2.5, "max", 10));
        numbers.put("j", Map.of("type", "int", "max", -0.5));
        numbers.put("f", Map.of("type", "float", "min", 0.1, "max", 0.1));
        numbers.put("d", Map.of("type", "decimal", "min", -12.25));
        numbers.put("n", Map.of("type", "int", "min", 7, "max", 7));
        numbers.put("big", Map.of("type", "int", "min", 9223372036854775806L));
        save("numbers", "SELECT CAST(:i AS BIGINT) AS i, CAST(:j AS BIGINT) AS j, CAST(:f AS DOUBLE) AS f,"
                + " CAST(:d AS DECIMAL(18, 6)) AS d, CAST(:n AS BIGINT) AS n, CAST(:big AS BIGINT) AS big", numbers);

        Map<String, Object> texts = new LinkedHashMap<>();
        texts.put("code", Map.of("type", "str", "pattern", "^[A-Z]{2}-\\d{3,5}$"));
        texts.put("email", Map.of("type", "str", "pattern", "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}",
                "min_length", 8));
        texts.put("color", Map.of("type", "str", "pattern", "(red|green|blue)(-(light|dark))?", "min_length", 6));
        texts.put("password", Map.of("type", "str", "pattern", "(?=.*\\d)(?=.*[A-Z])(?!.*\\s)\\w{8,}"));
        texts.put("phone", Map.of("type", "str", "pattern", "\\+\\d{2} \\d{3}"));
        texts.put("reserved", Map.of("type", "str", "pattern", "[&=#%/?]{3}[a-z]"));
        texts.put("accented", Map.of("type", "str", "pattern", "[\\u00C0-\\u00FF]{2}"));
        texts.put("twice", Map.of("type", "str", "pattern", "(\\w)\\1"));
        texts.put("word", Map.of("type", "str", "pattern", "(?i)\\bquery\\b"));
        texts.put("one", Map.of("type", "str", "max_length", 1));
        texts.put("plain", Map.of("type", "str", "min_length", 3));
        texts.put("empty_ok", Map.of("type", "str", "pattern", "[a-z]*", "required", false));
        StringBuilder sql = new StringBuilder("SELECT ");
        for (String name : texts.keySet()) {
            sql.append(sql.length() > 7 ? ", " : "").append("CAST(:").append(name).append(" AS VARCHAR) AS ")
                    .append(name);
        }
        save("texts", sql.toString(), texts);
        TEXTS.put("texts", texts);

        Map<String, Object> choices = new LinkedHashMap<>();
        choices.put("rating", Map.of("type", "str", "enum", List.of("G", "PG"), "default", "PG"));
        choices.put("size", Map.of("type", "int", "enum", List.of(5, 3)));
        choices.put("ratio", Map.of("type", "float", "enum", List.of(0.5, 1.5)));
        choices.put("price", Map.of("type", "decimal", "enum", List.of("9.99")));
        choices.put("flag", Map.of("type", "bool"));
        choices.put("off", Map.of("type", "bool", "enum", List.of(false)));
        choices.put("day", Map.of("type", "date"));
        choices.put("day_enum", Map.of("type", "date", "enum", List.of("1999-12-31")));
        choices.put("at", Map.of("type", "timestamp"));
        choices.put("at_enum", Map.of("type", "timestamp", "enum", List.of("2024-02-29 23:59:59")));
        choices.put("note", Map.of("type", "str", "required", false));
        choices.put("lim", Map.of("type", "int", "min", 1, "default", 5));
        save("choices", "SELECT CAST(:rating AS VARCHAR) AS rating, CAST(:size AS BIGINT) AS size,"
                + " CAST(:ratio AS DOUBLE) AS ratio, CAST(:price AS DECIMAL(10, 2)) AS price, CAST(:flag AS BOOLEAN)"
                + " AS flag, CAST(:off AS BOOLEAN) AS off, CAST(:day AS DATE) AS day, CAST(:day_enum AS DATE) AS"
                + " day_enum, CAST(:at AS TIMESTAMP) AS at, CAST(:at_enum AS TIMESTAMP) AS at_enum,"
                + " CAST(:note AS VARCHAR) AS note, CAST(:lim AS BIGINT) AS lim", choices);
        save("nothing", "SELECT 1 AS one", Map.of());

        Reply k = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "postman user",
                "queries", List.of("numbers", "texts", "choices", "nothing"))));
        assertThat(k.status()).as(k.body()).isEqualTo(201);
        key = k.json().get("secret").asText();
    }

    private static void save(String name, String sql, Map<String, Object> parameters) {
        Reply r = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", name, "sql", sql, "parameters",
                parameters, "connection_name", "demo", "publish", true, "collection", "rules")));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    @Test
    void everyRequestOfTheExportRunsWithItsExamples() {
        Reply export = http.get("/api/v1/collections/rules/postman", ADMIN);
        assertThat(export.status()).as(export.body()).isEqualTo(200);
        JsonNode file = export.json();
        Map<String, String> variables = new LinkedHashMap<>();
        file.get("variable").forEach(v -> variables.put(v.get("key").asText(), v.get("value").asText()));
        assertThat(variables.get("apiKey")).as("the key is left for the user to fill in").isEmpty();
        assertThat(export.body()).doesNotContain(ADMIN).doesNotContain(key);
        variables.put("apiKey", key);

        List<String> names = new ArrayList<>();
        for (JsonNode item : file.get("item")) {
            names.add(item.get("name").asText());
            JsonNode request = item.get("request");
            for (JsonNode q : request.get("url").get("query")) {
                assertThat(q.get("description").asText()).as("%s %s", item.get("name"), q)
                        .doesNotContain("no valid example");
            }
            Reply asExported = send(substitute(request.get("url").get("raw").asText(), variables), variables);
            assertThat(asExported.status()).as("%s: %s", request.get("url").get("raw"), asExported.body())
                    .isEqualTo(200);
            String everything = substitute(allParameters(request.get("url")), variables);
            Reply all = send(everything, variables);
            assertThat(all.status()).as("%s: %s", everything, all.body()).isEqualTo(200);
            if (TEXTS.containsKey(item.get("name").asText())) {
                echoed(request.get("url").get("query"), all.json());
            }
        }
        assertThat(names).containsExactly("choices", "nothing", "numbers", "texts");
    }

    /** Each text parameter comes back as the example value the file holds (percent-encoding round trip). */
    private static void echoed(JsonNode query, JsonNode answer) {
        JsonNode row = answer.isArray() ? answer.get(0) : answer.get("rows").get(0);
        int compared = 0;
        for (JsonNode q : query) {
            String name = q.get("key").asText();
            if (row.has(name)) {
                assertThat(row.get(name).asText()).as(name).isEqualTo(q.get("value").asText());
                compared++;
            }
        }
        assertThat(compared).isEqualTo(TEXTS.get("texts").size());
    }

    /** The request's URL with every parameter entry enabled (the optional ones too), paging and format left out. */
    private static String allParameters(JsonNode url) {
        StringBuilder out = new StringBuilder("{{baseUrl}}/");
        for (JsonNode segment : url.get("path")) {
            out.append(out.charAt(out.length() - 1) == '/' ? "" : "/").append(segment.asText());
        }
        String sep = "?";
        for (JsonNode q : url.get("query")) {
            String k = q.get("key").asText();
            if (!List.of("format", "page", "page_size").contains(k)) {
                out.append(sep).append(k).append('=').append(encode(q.get("value").asText()));
                sep = "&";
            }
        }
        return out.toString();
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String substitute(String raw, Map<String, String> variables) {
        String out = raw;
        for (Map.Entry<String, String> v : variables.entrySet()) {
            out = out.replace("{{" + v.getKey() + "}}", v.getValue());
        }
        assertThat(out).doesNotContain("{{");
        return out;
    }

    /** A request as Postman sends it: the URL as written, the collection's apikey auth as the X-API-Key header. */
    private static Reply send(String url, Map<String, String> variables) {
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url))
                    .header("X-API-Key", variables.get("apiKey")).GET().build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body(), r);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theEncodedExamplesDecodeToTheValues() {
        JsonNode file = http.get("/api/v1/collections/rules/postman", ADMIN).json();
        for (JsonNode item : file.get("item")) {
            String raw = item.get("request").get("url").get("raw").asText();
            int q = raw.indexOf('?');
            if (q < 0) {
                continue;
            }
            Map<String, String> sent = new LinkedHashMap<>();
            for (String pair : raw.substring(q + 1).split("&")) {
                String[] kv = pair.split("=", 2);
                sent.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
            for (JsonNode entry : item.get("request").get("url").get("query")) {
                if (!entry.path("disabled").asBoolean(false)) {
                    assertThat(sent.get(entry.get("key").asText())).as(raw).isEqualTo(entry.get("value").asText());
                }
            }
        }
    }
}
