package io.queryapigate.resources;

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
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Set;

/** {@code POST /execute_sql}: ad-hoc SQL with named parameters, for keys allowed ad-hoc SQL. */
@Path("/execute_sql")
@Produces(MediaType.WILDCARD)
public class ExecuteSqlResource {
    private static final Set<String> FIELDS = Set.of("sql", "params", "connection_name", "timeout", "format", "page",
            "page_size", "stream");

    private final QueryService queries;
    private final Paging paging;

    public ExecuteSqlResource(QueryService queries, Paging paging) {
        this.queries = queries;
        this.paging = paging;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response execute(@Auth Caller caller, @Context UriInfo uri, @Context HttpServletRequest request,
            JsonNode bodyNode) {
        Body body = Body.of(bodyNode, true, FIELDS);
        String timeout = body.numberText("timeout") != null ? body.numberText("timeout")
                : Calls.first(uri.getQueryParameters(), "timeout");
        OutputRequest out = Calls.output(body, uri.getQueryParameters(), request, "result", paging);
        CallResult result = queries.run(CallRequest.adHoc(caller, RequestIds.of(request), body.text("sql"),
                body.object("params"), body.text("connection_name"), timeout, out));
        return Calls.respond(result, null);
    }
}
