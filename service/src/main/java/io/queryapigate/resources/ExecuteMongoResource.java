package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * {@code POST /execute_mongo}: an ad-hoc MongoDB find ({@code collection}, {@code filter}, {@code projection},
 * {@code sort}, as the Python original takes it) or aggregation ({@code pipeline}, this gateway's addition) on a
 * {@code mongo} connection, for keys allowed ad-hoc queries on it; {@code :name} string leaves take {@code params}.
 * Always read-only. The call runs through the same {@link QueryService} story as {@code /execute_sql}.
 */
@Path("/execute_mongo")
@Produces(MediaType.WILDCARD)
public class ExecuteMongoResource {
    private final QueryService queries;
    private final Paging paging;

    public ExecuteMongoResource(QueryService queries, Paging paging) {
        this.queries = queries;
        this.paging = paging;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response execute(@Auth Caller caller, @Context UriInfo uri, @Context HttpServletRequest request,
            JsonNode bodyNode) {
        Body body = Body.lenient(bodyNode, true);
        String collection = body.text("collection");
        if (collection == null || collection.isBlank()) {
            throw ApiException.badRequest("collection_required", "Collection is missing");
        }
        String connection = body.text("connection_name");
        if (connection == null || connection.isBlank()) {
            throw ApiException.badRequest("connection_required", "Connection name is missing");
        }
        ObjectNode query = JsonNodeFactory.instance.objectNode().put("collection", collection);
        for (String part : new String[] {"filter", "projection", "sort"}) {
            JsonNode v = body.get(part);
            if (v != null && !v.isNull()) {
                if (!v.isObject()) {
                    throw ApiException.badRequest("invalid_filter", part + " must be a JSON object");
                }
                query.set(part, v);
            }
        }
        JsonNode pipeline = body.get("pipeline");
        if (pipeline != null && !pipeline.isNull()) {
            query.set("pipeline", pipeline);
        } else if (!query.has("filter")) {
            query.putObject("filter");
        }
        String timeout = body.numberText("timeout") != null ? body.numberText("timeout")
                : Calls.first(uri.getQueryParameters(), "timeout");
        OutputRequest out = Calls.output(body, uri.getQueryParameters(), request, collection, paging);
        CallResult result = queries.run(CallRequest.adHocMongo(caller, RequestIds.of(request), query.toString(),
                body.object("params"), connection, timeout, out));
        return Calls.respond(result, null);
    }
}
