package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.http.RequestIds;
import io.queryapigate.paging.Paging;
import io.queryapigate.output.format.OutputFormat;
import io.queryapigate.params.ParamRules;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /api/v1/queries/preview}: the Console designer's "run with these parameters". Unsaved SQL with its
 * parameter rules and typed values, run as a saved query of the caller would run ({@link QueryService#preview}),
 * read-only, one page: the rows, the guard's verdict, the row count, whether another page follows, the duration. A
 * refusal (the guard's, a parameter's, the connection grant's) is the call's own error answer.
 */
@Path("/api/v1/queries/preview")
@Produces(MediaType.APPLICATION_JSON)
public class QueryPreviewResource {
    private static final Set<String> FIELDS = Set.of("connection_name", "sql", "parameters", "params", "page",
            "page_size", "timeout");

    private final QueryService queries;
    private final Paging paging;
    private final ObjectMapper mapper;

    public QueryPreviewResource(QueryService queries, Paging paging, ObjectMapper mapper) {
        this.queries = queries;
        this.paging = paging;
        this.mapper = mapper;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public ObjectNode preview(@Auth Caller caller, @Context HttpServletRequest request, JsonNode bodyNode) {
        Body body = Body.of(bodyNode, true, FIELDS);
        ParamRules rules = ParamRules.parse(body.get("parameters"));
        JsonNode values = body.object("params");
        OutputRequest out = new OutputRequest(OutputFormat.JSON, Optional.of(paging.parse(body.numberText("page"),
                body.numberText("page_size"))), false, "preview");
        CallRequest call = CallRequest.adHoc(caller, RequestIds.of(request), body.text("sql"), values,
                body.text("connection_name"), body.numberText("timeout"), out);
        long started = System.nanoTime();
        QueryService.Previewed previewed = queries.preview(call, rules);
        double millis = (System.nanoTime() - started) / 1_000_000.0;
        ObjectNode answer = mapper.createObjectNode();
        answer.set("verdict", verdict(previewed.verdict()));
        JsonNode rows = rows(previewed.result().body());
        answer.set("rows", rows);
        answer.put("row_count", rows.size());
        answer.put("page", out.page().orElseThrow().page());
        answer.put("page_size", Integer.parseInt(previewed.result().headers().getOrDefault("X-Page-Size",
                Integer.toString(out.page().orElseThrow().pageSize()))));
        answer.put("has_more", Boolean.parseBoolean(previewed.result().headers().get("X-Has-More")));
        answer.put("duration_ms", Math.round(millis * 10) / 10.0);
        answer.put("connection_name", previewed.result().connection());
        return answer;
    }

    private ObjectNode verdict(GuardResult v) {
        ObjectNode o = mapper.createObjectNode();
        o.put("kind", v.kind().name().toLowerCase(Locale.ROOT));
        o.put("allowed", true);
        ArrayNode ops = o.putArray("write_ops");
        v.writeOps().forEach(ops::add);
        ArrayNode tables = o.putArray("tables");
        v.tables().forEach(t -> tables.add(t.toString()));
        return o;
    }

    /** The page's rows: the JSON array, or none for the empty page's message. */
    private JsonNode rows(byte[] body) {
        try {
            JsonNode page = mapper.readTree(body);
            return page.isArray() ? page : mapper.createArrayNode();
        } catch (IOException e) {
            throw new IllegalStateException("a JSON page did not parse", e);
        }
    }
}
