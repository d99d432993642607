package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.errors.ApiException;
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
import java.util.Map;

/** {@code POST /execute_sql}: ad-hoc SQL with named parameters, for keys allowed ad-hoc SQL. */
@Path("/execute_sql")
@Produces(MediaType.WILDCARD)
public class ExecuteSqlResource {
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
        Body body = Body.lenient(bodyNode, true);
        refuseRedirection(caller, body);
        String timeout = body.numberText("timeout") != null ? body.numberText("timeout")
                : Calls.first(uri.getQueryParameters(), "timeout");
        OutputRequest out = Calls.output(body, uri.getQueryParameters(), request, "result", paging);
        CallResult result = queries.run(CallRequest.adHoc(caller, RequestIds.of(request), body.text("sql"),
                body.object("params"), body.text("connection_name"), timeout, out));
        return Calls.respond(result, null);
    }

    /**
     * The Python original's {@code database} (run on another database of the connection's server) and {@code mask}
     * (extra masking for a preview) would change the answer; ignoring them would answer something else than asked.
     */
    private static void refuseRedirection(Caller caller, Body body) {
        if (body.get("database") != null && !caller.admin()) {
            throw ApiException.forbidden("admin_only",
                    "Only the admin key may run a query against a different database on this connection");
        }
        for (String field : new String[] {"database", "mask"}) {
            if (body.get(field) != null) {
                throw new ApiException(400, "unsupported_field", field + " is not supported here: "
                        + ("database".equals(field) ? "declare a connection for that database."
                                : "give the key its masking rules."), Map.of(field, "is not supported"));
            }
        }
    }
}
