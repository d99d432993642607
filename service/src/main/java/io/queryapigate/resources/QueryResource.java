package io.queryapigate.resources;

import static io.queryapigate.resources.Calls.first;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.http.RequestIds;
import io.queryapigate.paging.Paging;
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

    private final QueryService queries;
    private final Paging paging;

    public QueryResource(QueryService queries, Paging paging) {
        this.queries = queries;
        this.paging = paging;
    }

    @GET
    public Response get(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpServletRequest request) {
        MultivaluedMap<String, String> args = uri.getQueryParameters();
        OutputRequest out = OutputRequest.parse(first(args, "format"), request.getHeader("Accept"),
                first(args, "page"), first(args, "page_size"), first(args, "stream"), name, paging);
        CallResult result = queries.run(CallRequest.savedQuery(caller, RequestIds.of(request), name,
                first(args, "version"), textParams(args), null, first(args, "connection_name"),
                first(args, "timeout"), out));
        return Calls.respond(result, request.getHeader("If-None-Match"));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpServletRequest request, JsonNode bodyNode) {
        Body body = Body.lenient(bodyNode, false);
        MultivaluedMap<String, String> args = uri.getQueryParameters();
        String version = body.numberText("version") != null ? body.numberText("version") : first(args, "version");
        String connection = body.text("connection_name") != null ? body.text("connection_name")
                : first(args, "connection_name");
        String timeout = body.numberText("timeout") != null ? body.numberText("timeout") : first(args, "timeout");
        OutputRequest out = Calls.output(body, args, request, name, paging);
        CallResult result = queries.run(CallRequest.savedQuery(caller, RequestIds.of(request), name, version,
                textParams(args), body.object("params"), connection, timeout, out));
        return Calls.respond(result, request.getHeader("If-None-Match"));
    }

    /** A POST whose body is not JSON: run with the query string only, as the Python original does. */
    @POST
    @Consumes(MediaType.WILDCARD)
    public Response postWithoutJson(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpServletRequest request) {
        return get(caller, name, uri, request);
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
