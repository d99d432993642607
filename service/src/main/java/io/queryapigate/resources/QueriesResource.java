package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.errors.ApiException;
import io.queryapigate.events.EventLog;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.RunRow;
import io.queryapigate.store.SavedQueryRow;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code /api/v1/queries}: saved queries, their versions, publishing and run history. Administrators only. */
@Path("/api/v1/queries")
@Produces(MediaType.APPLICATION_JSON)
public class QueriesResource {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "sql", "parameters", "connection_name",
            "description", "cache_ttl", "publish");
    private static final Set<String> VERSION_FIELDS = Set.of("sql", "parameters", "connection_name", "description",
            "cache_ttl", "publish");
    private static final Set<String> PUBLISH_FIELDS = Set.of("version");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final SavedQueries saved;
    private final HistoryDao history;
    private final EventLog events;

    public QueriesResource(SavedQueries saved, HistoryDao history, EventLog events) {
        this.saved = saved;
        this.history = history;
        this.events = events;
    }

    @GET
    public ObjectNode list(@Auth Caller caller) {
        Admin.require(caller);
        ObjectNode out = JSON.objectNode();
        ArrayNode items = out.putArray("items");
        for (SavedQueryRow q : saved.list()) {
            items.add(summary(q));
        }
        return out;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@Auth Caller caller, JsonNode node) {
        Admin.require(caller);
        Body body = Body.of(node, true, CREATE_FIELDS);
        String name = body.text("name");
        if (name == null) {
            throw Body.fieldError("name", "is required");
        }
        SavedQueries.Definition d = saved.validate(body.text("sql"), body.get("parameters"),
                body.text("connection_name"), body.text("description"), body.integer("cache_ttl"));
        boolean publish = Boolean.TRUE.equals(body.bool("publish"));
        saved.create(name, d, caller.name(), publish);
        return Response.status(201).entity(detail(saved.get(name))).build();
    }

    @GET
    @Path("/{name}")
    public ObjectNode get(@Auth Caller caller, @PathParam("name") String name) {
        Admin.require(caller);
        return detail(saved.get(name));
    }

    @DELETE
    @Path("/{name}")
    public Response delete(@Auth Caller caller, @PathParam("name") String name) {
        Admin.require(caller);
        saved.delete(name);
        return Response.noContent().build();
    }

    @POST
    @Path("/{name}/versions")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addVersion(@Auth Caller caller, @PathParam("name") String name, JsonNode node) {
        Admin.require(caller);
        Body body = Body.of(node, true, VERSION_FIELDS);
        SavedQueryRow q = saved.get(name);
        List<QueryVersionRow> versions = saved.versions(q.id());
        QueryVersionRow latest = versions.get(versions.size() - 1);
        String connection = body.text("connection_name") != null ? body.text("connection_name")
                : latest.connectionName();
        SavedQueries.Definition d = saved.validate(body.text("sql"), body.get("parameters"), connection,
                body.text("description"), body.integer("cache_ttl"));
        int version = saved.addVersion(name, d, caller.name(), Boolean.TRUE.equals(body.bool("publish")));
        return Response.status(201).entity(detail(saved.get(name)).put("created_version", version)).build();
    }

    @POST
    @Path("/{name}/publish")
    @Consumes(MediaType.APPLICATION_JSON)
    public ObjectNode publish(@Auth Caller caller, @PathParam("name") String name, JsonNode node) {
        Admin.require(caller);
        Body body = Body.of(node, true, PUBLISH_FIELDS);
        Integer version = body.integer("version");
        if (version == null) {
            throw Body.fieldError("version", "is required");
        }
        saved.publish(name, version);
        return detail(saved.get(name));
    }

    @POST
    @Path("/{name}/unpublish")
    public ObjectNode unpublish(@Auth Caller caller, @PathParam("name") String name) {
        Admin.require(caller);
        saved.unpublish(name);
        return detail(saved.get(name));
    }

    @GET
    @Path("/{name}/history")
    public ObjectNode history(@Auth Caller caller, @PathParam("name") String name,
            @QueryParam("version") Integer version, @QueryParam("status") Integer status,
            @QueryParam("key") Long keyId, @QueryParam("since") String since, @QueryParam("until") String until,
            @QueryParam("cursor") Long cursor, @QueryParam("limit") Integer limit) {
        Admin.require(caller);
        SavedQueryRow q = saved.get(name);
        int size = limit == null ? 50 : limit;
        if (size < 1 || size > 1000) {
            throw ApiException.badRequest("invalid_limit", "limit must be between 1 and 1000.");
        }
        events.flushAll(); // the runs still queued in this process are in the answer, as in the Python original
        List<RunRow> runs = history.page(q.id(), version, status, keyId, time(since, "since", 0),
                time(until, "until", Long.MAX_VALUE), cursor == null ? Long.MAX_VALUE : cursor, size + 1);
        ObjectNode out = JSON.objectNode();
        ArrayNode items = out.putArray("items");
        for (int i = 0; i < Math.min(size, runs.size()); i++) {
            RunRow r = runs.get(i);
            ObjectNode o = items.addObject();
            o.put("id", r.id());
            o.put("version", r.version());
            o.put("executed_at", Instant.ofEpochMilli(r.atMs()).toString());
            o.put("request_id", r.requestId());
            o.put("key_id", r.keyId());
            o.put("status", r.status());
            o.put("rows", r.rowsOut());
            o.put("duration_ms", r.durationUs() / 1000.0);
            if (r.errorCode() != null) {
                o.put("code", r.errorCode());
            }
        }
        if (runs.size() > size) {
            out.put("next_cursor", runs.get(size - 1).id());
        } else {
            out.putNull("next_cursor");
        }
        return out;
    }

    private static long time(String text, String field, long absent) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        try {
            return Instant.parse(text.strip()).toEpochMilli();
        } catch (DateTimeParseException e) {
            String problem = "must be an ISO-8601 instant such as 2026-01-31T00:00:00Z";
            throw new ApiException(400, "invalid_parameter", field + " " + problem + ".", Map.of(field, problem));
        }
    }

    private static ObjectNode summary(SavedQueryRow q) {
        ObjectNode o = JSON.objectNode();
        o.put("name", q.name());
        if (q.publishedVersion() == null) {
            o.putNull("published_version");
        } else {
            o.put("published_version", q.publishedVersion());
        }
        o.put("created_at", Instant.ofEpochMilli(q.createdAt()).toString());
        o.put("updated_at", Instant.ofEpochMilli(q.updatedAt()).toString());
        return o;
    }

    private ObjectNode detail(SavedQueryRow q) {
        ObjectNode o = summary(q);
        ArrayNode versions = o.putArray("versions");
        for (QueryVersionRow v : saved.versions(q.id())) {
            ObjectNode vo = versions.addObject();
            vo.put("version", v.version());
            String status = q.publishedVersion() == null || v.version() > q.publishedVersion() ? "draft"
                    : v.version() == q.publishedVersion() ? "published" : "previous";
            vo.put("status", status);
            vo.put("sql", v.sqlText());
            vo.set("parameters", saved.parametersOf(v));
            vo.put("connection_name", v.connectionName());
            vo.put("description", v.description());
            vo.put("author", v.author());
            vo.put("cache_ttl", v.cacheTtl());
            vo.put("created_at", Instant.ofEpochMilli(v.createdAt()).toString());
        }
        return o;
    }
}
