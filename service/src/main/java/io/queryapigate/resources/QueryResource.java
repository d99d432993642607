package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.http.RequestIds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code GET|POST /q/{name}}: runs a saved query. */
@Path("/q/{name}")
@Produces(MediaType.WILDCARD)
public class QueryResource {
    /** Query-string arguments that are never parameters. */
    static final Set<String> RESERVED = Set.of("format", "page", "page_size", "connection_name", "version", "timeout",
            "stream");
    private static final Set<String> BODY_FIELDS = Set.of("params", "connection_name", "version", "timeout",
            "format", "page", "page_size", "stream");

    private final QueryService queries;

    public QueryResource(QueryService queries) {
        this.queries = queries;
    }

    @GET
    public Response get(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpServletRequest request) {
        MultivaluedMap<String, String> args = uri.getQueryParameters();
        OutputRequest out = OutputRequest.parse(first(args, "format"), request.getHeader("Accept"),
                first(args, "page"), first(args, "page_size"), first(args, "stream"), name, queries.paging());
        CallResult result = queries.runSaved(caller, name, first(args, "version"), textParams(args), null,
                first(args, "connection_name"), first(args, "timeout"), RequestIds.of(request), out);
        return ok(result, request.getHeader("If-None-Match"));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpServletRequest request, JsonNode bodyNode) {
        Body body = Body.of(bodyNode, false, BODY_FIELDS);
        MultivaluedMap<String, String> args = uri.getQueryParameters();
        String version = body.numberText("version") != null ? body.numberText("version") : first(args, "version");
        String connection = body.text("connection_name") != null ? body.text("connection_name")
                : first(args, "connection_name");
        String timeout = body.numberText("timeout") != null ? body.numberText("timeout") : first(args, "timeout");
        OutputRequest out = output(body, args, request, name, queries);
        CallResult result = queries.runSaved(caller, name, version, textParams(args), body.object("params"),
                connection, timeout, RequestIds.of(request), out);
        return ok(result, request.getHeader("If-None-Match"));
    }

    static Response ok(CallResult result) {
        return ok(result, null);
    }

    /** The output request of a POST: body fields win over query-string arguments. */
    static OutputRequest output(Body body, MultivaluedMap<String, String> args, HttpServletRequest request,
            String baseName, QueryService queries) {
        String format = body.text("format") != null ? body.text("format") : first(args, "format");
        String page = body.numberText("page") != null ? body.numberText("page") : first(args, "page");
        String pageSize = body.numberText("page_size") != null ? body.numberText("page_size")
                : first(args, "page_size");
        String stream = body.get("stream") != null ? body.get("stream").asText() : first(args, "stream");
        return OutputRequest.parse(format, request.getHeader("Accept"), page, pageSize, stream, baseName,
                queries.paging());
    }

    static Response ok(CallResult result, String ifNoneMatch) {
        Response.ResponseBuilder r;
        if (result.stream() != null) {
            StreamingOutput body = result.stream()::writeTo;
            r = Response.ok(body, result.contentType());
        } else if (result.etag() != null && ifNoneMatch != null && matches(ifNoneMatch, result.etag())) {
            r = Response.notModified();
        } else {
            r = Response.ok(result.body(), result.contentType());
        }
        if (result.contentDisposition() != null) {
            r.header("Content-Disposition", result.contentDisposition());
        }
        result.headers().forEach(r::header);
        if (result.cache() != null) {
            r.header("X-Cache", result.cache());
            r.header("ETag", result.etag());
            r.header("Cache-Control", "max-age=" + result.maxAge());
        }
        return r.build();
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.strip();
            if (c.equals("*") || c.equals(etag) || c.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    static String first(MultivaluedMap<String, String> args, String key) {
        List<String> values = args.get(key);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static Map<String, String> textParams(MultivaluedMap<String, String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : args.entrySet()) {
            if (!RESERVED.contains(e.getKey()) && !e.getValue().isEmpty()) {
                out.put(e.getKey(), e.getValue().get(0));
            }
        }
        return out;
    }
}
