package io.queryapigate.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a route and its entry become an operation: parameters, markers, statuses. */
class ManagementDocsTest {
    private static final String YAML = """
            operations:
              GET /api/v1/things/{id}:
                tag: Things
                summary: One thing
                experimental: true
                description: Its shape may change.
              DELETE /api/v1/things/{id}:
                summary: Delete a thing
                status: 204
                deprecated: true
                successor: use POST /api/v1/things/{id}/archive
                errors: [401, 404]
            """;

    private static JsonNode paths() throws Exception {
        ManagementDocs docs = new ManagementDocs(new ObjectMapper(new YAMLFactory()).readTree(YAML));
        List<Routes.PathParam> id = Routes.pathParams("/api/v1/things/{id: [0-9]+}");
        List<Routes.Route> routes = List.of(
                new Routes.Route("GET", "/api/v1/things/{id}", id,
                        List.of(new Routes.Param("limit", "query", int.class, "10")), false),
                new Routes.Route("DELETE", "/api/v1/things/{id}", id, List.of(), false),
                new Routes.Route("POST", "/api/v1/undocumented", List.of(), List.of(), true),
                new Routes.Route("GET", "/health", List.of(), List.of(), false));
        ObjectNode paths = JsonNodeFactory.instance.objectNode();
        docs.describe(routes, paths, JsonNodeFactory.instance.objectNode());
        return paths;
    }

    @Test
    void experimentalAndDeprecatedOperationsAreMarkedForToolsAndPeople() throws Exception {
        JsonNode get = paths().at("/~1api~1v1~1things~1{id}/get");
        assertThat(get.get("x-experimental").asBoolean()).isTrue();
        assertThat(get.get("description").asText()).startsWith("**Experimental**").endsWith("Its shape may change.");
        assertThat(get.has("deprecated")).isFalse();
        JsonNode delete = paths().at("/~1api~1v1~1things~1{id}/delete");
        assertThat(delete.get("deprecated").asBoolean()).isTrue();
        assertThat(delete.get("description").asText()).isEqualTo(
                "**Deprecated**: use POST /api/v1/things/{id}/archive");
        assertThat(delete.has("x-experimental")).isFalse();
    }

    @Test
    void parametersStatusesAndErrorsComeFromTheRouteAndTheEntry() throws Exception {
        JsonNode get = paths().at("/~1api~1v1~1things~1{id}/get");
        assertThat(get.get("parameters").toString()).isEqualTo("[{\"name\":\"id\",\"in\":\"path\",\"required\":"
                + "true,\"schema\":{\"type\":\"string\",\"pattern\":\"^[0-9]+$\"}},{\"name\":\"limit\",\"in\":"
                + "\"query\",\"required\":false,\"schema\":{\"type\":\"integer\",\"default\":10}}]");
        assertThat(get.get("responses").fieldNames()).toIterable().containsExactly("200", "400", "401", "403", "404",
                "429");
        JsonNode delete = paths().at("/~1api~1v1~1things~1{id}/delete");
        assertThat(delete.get("responses").fieldNames()).toIterable().containsExactly("204", "401", "404");
        assertThat(delete.at("/responses/204").has("content")).isFalse();
        assertThat(paths().at("/~1api~1v1~1undocumented/post/requestBody/content/application~1json/schema/type")
                .asText()).isEqualTo("object");
        assertThat(paths().has("/health")).as("only the management API is generated here").isFalse();
    }
}
