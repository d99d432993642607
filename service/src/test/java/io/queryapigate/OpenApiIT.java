package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.openapi.ManagementDocs;
import io.queryapigate.openapi.Routes;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /openapi.json}, {@code /openapi.yaml} and {@code /catalog}: each caller sees exactly what it may call; the
 * administrator's document lists every route the server has; a real OpenAPI parser accepts every document.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OpenApiIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;
    private static String narrow;
    private static String adhoc;

    @BeforeAll
    static void queriesAndKeys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        save("film", "SELECT film_id, title, rental_rate, release_year FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1, "max", 1000, "description", "The film's id")),
                true, "One film by id");
        save("films by rating", "SELECT title FROM film WHERE rating = :rating AND title LIKE :prefix "
                        + "AND rental_rate <= :rate LIMIT 5",
                Map.of("rating", Map.of("type", "str", "enum", List.of("G", "PG", "R"), "default", "PG",
                                "required", false),
                        "prefix", Map.of("type", "str", "pattern", "[A-Z]%", "max_length", 10),
                        "rate", Map.of("type", "decimal", "min", 0)), true, null);
        save("secret_sales", "SELECT count(*) AS n FROM payment", Map.of(), true, "Not for partners");
        save("draft_only", "SELECT 1 AS one", Map.of(), false, null);
        narrow = key("partner", Map.of("queries", List.of("film")));
        adhoc = key("analyst", Map.of("connections", List.of("demo"), "adhoc_sql", true));
    }

    private static void save(String name, String sql, Map<String, Object> parameters, boolean publish,
            String description) {
        http.saveQuery(ADMIN, name, sql, parameters, publish, description, Map.of("tags", List.of("films")));
    }

    private static String key(String name, Map<String, Object> grants) {
        Map<String, Object> body = new LinkedHashMap<>(grants);
        body.put("name", name);
        Reply r = http.post("/api/v1/api-keys", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("secret").asText();
    }

    @Test
    void aNarrowKeySeesExactlyTheQueriesItMayCall() {
        JsonNode spec = valid(http.get("/openapi.json", narrow));
        assertThat(spec.get("openapi").asText()).isEqualTo("3.1.0");
        assertThat(paths(spec)).containsExactly("/catalog", "/events", "/health", "/openapi.json", "/openapi.yaml", "/q/film");
        JsonNode get = spec.at("/paths/~1q~1film/get");
        JsonNode filmId = get.get("parameters").get(0);
        assertThat(filmId.toString()).isEqualTo("{\"name\":\"film_id\",\"in\":\"query\",\"required\":true,"
                + "\"description\":\"The film's id\",\"schema\":{\"type\":\"integer\",\"format\":\"int64\","
                + "\"minimum\":1,\"maximum\":1000,\"description\":\"The film's id\"},\"example\":1}");
        assertThat(get.get("summary").asText()).isEqualTo("One film by id");
        assertThat(get.at("/responses/403/$ref").asText()).isEqualTo("#/components/responses/Error403");
        assertThat(spec.at("/components/schemas/Error400/allOf/1/properties/code"
                + "/enum").toString()).contains("param_invalid", "param_required", "invalid_paging");
        assertThat(spec.at("/paths/~1q~1film/post/requestBody/content/application~1json/schema/properties/params"
                + "/required").toString()).isEqualTo("[\"film_id\"]");
        assertThat(spec.at("/paths/~1q~1film/get/responses/200/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/FilmPage");
        assertThat(spec.at("/components/schemas/FilmPage/oneOf").toString()).isEqualTo("[{\"$ref\":"
                + "\"#/components/schemas/FilmRows\"},{\"$ref\":\"#/components/schemas/EmptyPage\"}]");
        assertThat(spec.at("/components/schemas/FilmRows/items/$ref").asText())
                .isEqualTo("#/components/schemas/FilmRow");
        assertThat(spec.at("/components/schemas/FilmRow/type").asText()).isEqualTo("object");
        assertThat(spec.toString()).doesNotContain("secret_sales", "SecretSales", "draft_only", "SELECT", "/api/v1");
    }

    @Test
    void ruleFromTheSavedQueryBecomeSchemaKeywords() {
        JsonNode spec = valid(http.get("/openapi.json", ADMIN));
        JsonNode params = spec.at("/paths/~1q~1films%20by%20rating/get/parameters");
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        params.forEach(p -> byName.put(p.get("name").asText(), p));
        assertThat(byName.get("rating").toString()).isEqualTo("{\"name\":\"rating\",\"in\":\"query\","
                + "\"required\":false,\"schema\":{\"type\":\"string\",\"enum\":[\"G\",\"PG\",\"R\"],"
                + "\"default\":\"PG\"},\"example\":\"PG\"}");
        assertThat(byName.get("prefix").get("schema").toString()).isEqualTo("{\"type\":\"string\",\"maxLength\":10,"
                + "\"pattern\":\"^(?:[A-Z]%)$\"}");
        assertThat(byName.get("rate").get("schema").toString()).isEqualTo("{\"type\":\"number\",\"format\":"
                + "\"decimal\",\"minimum\":0}");
        assertThat(byName.get("page_size").get("schema").get("maximum").asInt()).isEqualTo(1000);
        assertThat(spec.at("/paths/~1q~1films%20by%20rating/get/operationId").asText())
                .isEqualTo("run_films_by_rating");
    }

    @Test
    void adHocSqlIsDocumentedOnlyForKeysThatMayRunIt() {
        JsonNode spec = valid(http.get("/openapi.json", adhoc));
        assertThat(paths(spec)).contains("/execute_sql", "/q/film", "/q/films%20by%20rating", "/q/secret_sales")
                .doesNotContain("/q/draft_only", "/q/{name}", "/api/v1/queries");
    }

    @Test
    void theAdministratorsDocumentListsEveryRouteTheServerServes() {
        JsonNode spec = valid(http.get("/openapi.json", ADMIN));
        TreeSet<String> documented = new TreeSet<>();
        spec.get("paths").fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(m -> {
            if (!m.equals("parameters")) {
                documented.add(m.toUpperCase() + " " + p.getKey());
            }
        }));
        TreeSet<String> served = new TreeSet<>();
        routes().all().forEach(r -> served.add(r.key()));
        assertThat(served).as("the routes Jersey serves").contains("GET /api/v1/queries", "GET /q/{name}",
                "GET /openapi.json", "DELETE /api/v1/api-keys/{name}");
        assertThat(documented).containsAll(served);
        documented.removeIf(k -> k.matches("(GET|POST) /q/[^{].*"));
        assertThat(documented).as("nothing documented that is not served").isEqualTo(served);
        List<String> undescribed = new ArrayList<>();
        served.stream().filter(k -> k.contains(" /api/") || k.contains(" /auth/")).filter(k -> !ManagementDocs.load().documented().contains(k))
                .forEach(undescribed::add);
        assertThat(undescribed).as("management routes without an entry in management-api.yaml").isEmpty();
        assertThat(ManagementDocs.load().documented()).as("entries for routes that do not exist")
                .allMatch(served::contains);
        assertThat(spec.at("/paths/~1api~1v1~1queries~1{name}~1versions~1{version}/get/parameters/1/schema/pattern")
                .asText()).isEqualTo("^[0-9]{1,9}$");
    }

    @Test
    void theYamlDocumentIsTheSameDocument() throws Exception {
        Reply yaml = http.get("/openapi.yaml", narrow);
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.header("Content-Type")).startsWith("application/yaml");
        JsonNode fromYaml = new ObjectMapper(new YAMLFactory()).readTree(yaml.body());
        assertThat(fromYaml).isEqualTo(http.get("/openapi.json", narrow).json());
    }

    @Test
    void noKeyNoDocument() {
        http.get("/openapi.json", null).assertRefused(401, "unauthorized");
        http.get("/openapi.yaml", null).assertRefused(401, "unauthorized");
        http.get("/openapi.json", "not-a-key").assertRefused(401, "unauthorized");
        http.get("/catalog", null).assertRefused(401, "unauthorized");
    }

    @Test
    void theCatalogListsWhatTheKeyMayCallAndOnWhatTerms() {
        JsonNode c = http.get("/catalog", narrow).json();
        assertThat(c.get("queries")).hasSize(1);
        JsonNode film = c.get("queries").get(0);
        assertThat(film.get("name").asText()).isEqualTo("film");
        assertThat(film.get("version").asInt()).isEqualTo(1);
        assertThat(film.get("description").asText()).isEqualTo("One film by id");
        assertThat(film.get("tags").toString()).isEqualTo("[\"films\"]");
        assertThat(film.get("parameters").toString()).isEqualTo("{\"film_id\":{\"type\":\"integer\","
                + "\"required\":true,\"has_default\":false,\"default\":null,\"enum\":null,\"min\":1,\"max\":1000,"
                + "\"min_length\":null,\"max_length\":null,\"pattern\":null,\"description\":\"The film's id\","
                + "\"has_example\":false,\"example\":null,\"embed\":false,\"from_claim\":null}}");
        assertThat(film.get("can_write").asBoolean()).isFalse();
        assertThat(c.get("caller").get("name").asText()).isEqualTo("partner");
        assertThat(c.get("caller").get("admin").asBoolean()).isFalse();
        assertThat(http.get("/catalog", ADMIN).json().get("queries")).extracting(q -> q.get("name").asText())
                .containsExactly("film", "films by rating", "secret_sales");
        assertThat(film.get("example").asText()).isEqualTo("/q/film?film_id=1");
        assertThat(http.get(film.get("example").asText(), narrow).status()).as("the example call runs").isEqualTo(200);
        JsonNode byRating = http.get("/catalog", ADMIN).json().get("queries").get(1);
        assertThat(byRating.get("example").asText()).startsWith("/q/films%20by%20rating?")
                .contains("prefix=A%25", "rate=0").doesNotContain("rating="); // the declaration's order, Map.of's
        Reply run = http.get(byRating.get("example").asText(), ADMIN);
        assertThat(run.status()).as(run.body()).isEqualTo(200);
        http.get("/catalog?format=xml", narrow).assertRefused(400, "invalid_format");
    }

    @Test
    void theCatalogAsAPostmanCollectionHoldsTheKeysQueriesAndNoKey() {
        Reply r = http.get("/catalog?format=postman", narrow);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Disposition")).contains("queryapigate.postman_collection.json");
        JsonNode collection = r.json();
        assertThat(collection.at("/info/schema").asText())
                .isEqualTo("https://schema.getpostman.com/json/collection/v2.1.0/collection.json");
        assertThat(collection.get("item")).extracting(i -> i.get("name").asText()).containsExactly("film");
        assertThat(collection.at("/item/0/request/url/raw").asText()).isEqualTo("{{baseUrl}}/q/film?film_id=1");
        assertThat(collection.toString()).doesNotContain(narrow);
        JsonNode apiKey = null;
        for (JsonNode v : collection.get("variable")) {
            if (v.get("key").asText().equals("apiKey")) {
                apiKey = v;
            }
        }
        assertThat(apiKey).isNotNull();
        assertThat(apiKey.get("value").asText()).isEmpty();
    }

    private static Routes routes() {
        return APP.getEnvironment().jersey().getResourceConfig().getSingletons().stream()
                .filter(Routes.class::isInstance).map(Routes.class::cast).findFirst().orElseThrow();
    }

    private static List<String> paths(JsonNode spec) {
        List<String> out = new ArrayList<>();
        spec.get("paths").fieldNames().forEachRemaining(out::add);
        return out.stream().sorted().toList();
    }

    /** The document, after a real OpenAPI 3.1 parser found nothing wrong with it. */
    private static JsonNode valid(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIParser().readContents(reply.body(), null, options);
        assertThat(parsed.getMessages()).as("what the parser found wrong").isEmpty();
        assertThat(parsed.getOpenAPI()).isNotNull();
        return reply.json();
    }
}
