package io.queryapigate.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import io.queryapigate.collections.PostmanExport;
import io.queryapigate.openapi.CallableQueries;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.openapi.Catalog;
import io.queryapigate.openapi.OpenApiDocument;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a caller may call, for people and for tools: {@code /openapi.json} and {@code /openapi.yaml} (the OpenAPI
 * document for the key they are fetched with), and {@code /catalog} (also as a Postman collection).
 */
@Path("/")
public class OpenApiResource {
    /** The paths a request without a key may reach when the operator made the document public. */
    public static final List<String> PUBLIC_PATHS = List.of("openapi.json", "openapi.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private final OpenApiDocument document;
    private final CallableQueries queries;
    private final Catalog catalog;
    private final PostmanExport postman;

    public OpenApiResource(OpenApiDocument document, CallableQueries queries, Catalog catalog,
            PostmanExport postman) {
        this.document = document;
        this.queries = queries;
        this.catalog = catalog;
        this.postman = postman;
    }

    @GET
    @Path("openapi.json")
    @Produces(MediaType.APPLICATION_JSON)
    public ObjectNode json(@Auth Optional<Caller> caller) {
        return spec(caller.orElse(null));
    }

    @GET
    @Path("openapi.yaml")
    @Produces("application/yaml")
    public Response yaml(@Auth Optional<Caller> caller) {
        try {
            return Response.ok(YAML.writeValueAsString(spec(caller.orElse(null))), "application/yaml").build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GET
    @Path("catalog")
    @Produces(MediaType.APPLICATION_JSON)
    public Response catalog(@Auth Caller caller, @QueryParam("format") String format, @Context UriInfo uri) {
        List<Callable> callable = queries.of(caller);
        if (format == null || format.equals("json")) {
            return Response.ok(catalog.build(caller, callable)).build();
        }
        if (!format.equals("postman")) {
            throw new ApiException(400, "invalid_format", "format must be json or postman.",
                    Map.of("format", "must be json or postman"));
        }
        ObjectNode collection = postman.build("QueryAPIGate: " + caller.name(), "The saved queries the key '"
                + caller.name() + "' may call, exported from QueryAPIGate's catalog. A snapshot of their published"
                + " versions - export again after queries change. Set the apiKey variable to the key.",
                callable.stream().map(q -> Map.entry(q.query(), q.version())).toList(), uri.getBaseUri().toString());
        return Response.ok(collection).header("Content-Disposition",
                "attachment; filename=\"queryapigate.postman_collection.json\"").build();
    }

    private ObjectNode spec(Caller caller) {
        return document.build(caller, queries.of(caller));
    }
}
