package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.auth.Caller;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.output.format.OutputFormat;
import io.queryapigate.params.ParamExamples;
import io.queryapigate.params.ParamSpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI 3.1 document one caller gets: the saved queries it may call, each as a typed path with its parameter
 * rules and the schema of its rows; ad-hoc SQL when it holds that grant; the documentation routes; and, for the
 * administrator, the generic call routes and the whole management API, generated from the routes Jersey serves
 * ({@link Routes}) and described by {@link ManagementDocs}.
 */
public final class OpenApiDocument {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String LIVE_TAG = "Saved queries";

    private final String version;
    private final int defaultPageSize;
    private final int maxPageSize;
    private final Routes routes;
    private final ManagementDocs docs;

    /**
     * @param version the gateway's version, the document's {@code info.version}
     * @param defaultPageSize rows per page when none is asked for
     * @param maxPageSize the largest page size accepted
     * @param routes the routes Jersey serves
     * @param docs the management API's descriptions
     */
    public OpenApiDocument(String version, int defaultPageSize, int maxPageSize, Routes routes, ManagementDocs docs) {
        this.version = version;
        this.defaultPageSize = defaultPageSize;
        this.maxPageSize = maxPageSize;
        this.routes = routes;
        this.docs = docs;
    }

    /**
     * The document for {@code caller}.
     *
     * @param caller the caller, or null for an anonymous one (only when the operator made the spec public)
     * @param queries the saved queries the caller may call
     */
    public ObjectNode build(Caller caller, List<Callable> queries) {
        ObjectNode spec = JSON.objectNode().put("openapi", "3.1.0");
        spec.putObject("info").put("title", "QueryAPIGate").put("version", version).put("description",
                "Saved SQL queries as REST endpoints. This document lists what the API key it was fetched with may "
                        + "call.");
        ObjectNode components = components();
        spec.set("components", components);
        spec.putArray("security").addObject().putArray("ApiKey");
        ObjectNode paths = spec.putObject("paths");
        Set<String> operationIds = new HashSet<>();
        Set<String> taken = new HashSet<>(docs.schemaNames());
        components.get("schemas").fieldNames().forEachRemaining(taken::add);
        Map<String, String> names = ResultSchemas.names(queries, taken);
        for (Callable q : queries) {
            ObjectNode page = ResultSchemas.components(components.with("schemas"), names.get(q.name()), q.columns());
            paths.set("/q/" + pathSegment(q.name()), savedQuery(q, page, operationIds));
        }
        boolean admin = caller != null && caller.admin();
        if (admin) {
            paths.set("/q/{name}", anyQuery());
        }
        if (admin || (caller != null && caller.grants().adhocSql())) {
            paths.set("/execute_sql", executeSql());
            paths.set("/execute_mongo", executeMongo());
        }
        documentationRoutes(paths);
        if (admin) {
            docsPageRoutes(paths);
            consoleRoutes(paths);
            docs.describe(routes.all(), paths, spec.with("components"));
        }
        ArrayNode tags = spec.putArray("tags");
        tags.addObject().put("name", LIVE_TAG).put("description",
                "One endpoint per saved query you may call: its published version's parameters and rows.");
        if (admin) {
            docs.tags().forEach(tags::add);
        }
        return spec;
    }

    private ObjectNode savedQuery(Callable q, ObjectNode page, Set<String> operationIds) {
        String id = "run_" + q.name().replaceAll("\\W", "_");
        while (!operationIds.add(id)) {
            id += "_";
        }
        String summary = q.version().description() == null || q.version().description().isBlank()
                ? "Run the saved query " + q.name() : q.version().description();
        String detail = "Runs version " + q.version().version() + " of the saved query '" + q.name() + "'.";
        List<String> tags = q.tags();
        if (!tags.isEmpty()) {
            detail += " Tags: " + String.join(", ", tags) + ".";
        }
        ObjectNode item = JSON.objectNode();
        ObjectNode get = item.putObject("get").put("operationId", id).put("summary", summary)
                .put("description", detail);
        get.putArray("tags").add(LIVE_TAG);
        ArrayNode params = get.putArray("parameters");
        ObjectNode bodyParams = JSON.objectNode().put("type", "object");
        ObjectNode properties = bodyParams.putObject("properties");
        ArrayNode required = JSON.arrayNode();
        for (ParamSpec p : q.rules().inputs()) {
            ObjectNode schema = ParamSchemas.of(p);
            ObjectNode param = params.addObject().put("name", p.name()).put("in", "query")
                    .put("required", p.required());
            if (p.description() != null && !p.description().isEmpty()) {
                param.put("description", p.description());
            }
            param.set("schema", schema);
            ParamExamples.Example example = ParamExamples.of(p);
            if (example.valid()) {
                param.set("example", example.json());
            }
            properties.set(p.name(), p.required() ? schema.deepCopy() : orNull(schema.deepCopy()));
            if (p.required()) {
                required.add(p.name());
            }
        }
        if (!required.isEmpty()) {
            bodyParams.set("required", required);
        }
        callParameters(params, q.version().connectionName(), q.version().version());
        get.set("responses", callResponses(page));

        ObjectNode post = item.putObject("post").put("operationId", id + "_post")
                .put("summary", summary + " (parameters in a JSON body)").put("description", detail);
        post.putArray("tags").add(LIVE_TAG);
        ObjectNode body = JSON.objectNode();
        if (required.isEmpty()) { // a body of JSON null runs the query with its defaults
            body.putArray("type").add("object").add("null");
        } else {
            body.put("type", "object");
        }
        ObjectNode bodyProps = body.putObject("properties");
        // without a required parameter, "params": null is the defaults, as an absent one
        bodyProps.set("params", required.isEmpty() ? orNull(bodyParams) : bodyParams);
        bodyProps.set("version", orNull(JSON.objectNode().put("type", "integer").put("minimum", 1)));
        bodyProps.set("connection_name", orNull(JSON.objectNode().put("type", "string")));
        bodyProps.set("format", orNull(formatSchema()));
        bodyProps.set("page", orNull(JSON.objectNode().put("type", "integer").put("minimum", 1)));
        bodyProps.set("page_size", orNull(JSON.objectNode().put("type", "integer").put("minimum", 1)
                .put("maximum", maxPageSize)));
        bodyProps.set("timeout", orNull(timeoutSchema()));
        if (!required.isEmpty()) {
            body.putArray("required").add("params");
        }
        post.putObject("requestBody").put("required", !required.isEmpty()).putObject("content")
                .putObject("application/json").set("schema", body);
        post.set("responses", callResponses(page.deepCopy()));
        return item;
    }

    /** {@code GET /q/{name}} and {@code POST /q/{name}} for any query: the administrator's. */
    private ObjectNode anyQuery() {
        ObjectNode item = JSON.objectNode();
        item.putArray("parameters").addObject().put("name", "name").put("in", "path").put("required", true)
                .putObject("schema").put("type", "string").put("pattern", "^(?!\\.)[A-Za-z0-9_ .-]{1,100}$");
        ObjectNode get = item.putObject("get").put("operationId", "run_query").put("summary",
                "Run any saved query; query-string arguments other than the reserved ones are its parameters");
        get.putArray("tags").add(LIVE_TAG);
        callParameters(get.putArray("parameters"), null, 0);
        get.set("responses", callResponses(anyPage()));
        ObjectNode post = item.putObject("post").put("operationId", "run_query_post")
                .put("summary", "Run any saved query with its parameters in a JSON body");
        post.putArray("tags").add(LIVE_TAG);
        ObjectNode body = JSON.objectNode();
        body.putArray("type").add("object").add("null");
        ObjectNode props = body.putObject("properties");
        props.putObject("params").put("type", "object");
        props.set("version", orNull(JSON.objectNode().put("type", "integer").put("minimum", 1)));
        props.set("connection_name", orNull(JSON.objectNode().put("type", "string")));
        props.set("format", orNull(formatSchema()));
        props.set("timeout", orNull(timeoutSchema()));
        post.putObject("requestBody").putObject("content").putObject("application/json").set("schema", body);
        post.set("responses", callResponses(anyPage()));
        return item;
    }

    private ObjectNode executeSql() {
        ObjectNode item = JSON.objectNode();
        ObjectNode post = item.putObject("post").put("operationId", "execute_sql").put("summary",
                "Run ad-hoc SQL (keys with the ad-hoc grant on the connection)");
        post.putArray("tags").add("Ad-hoc SQL");
        ArrayNode params = post.putArray("parameters");
        params.add(param("format", formatSchema()));
        pagingParameters(params);
        ObjectNode body = JSON.objectNode().put("type", "object");
        ObjectNode props = body.putObject("properties");
        props.putObject("sql").put("type", "string").put("minLength", 1);
        props.putObject("connection_name").put("type", "string").put("minLength", 1);
        props.putObject("params").put("type", "object").put("description", "Values for :name markers.");
        props.set("timeout", orNull(timeoutSchema()));
        body.putArray("required").add("sql").add("connection_name");
        post.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                .set("schema", body);
        ObjectNode responses = callResponses(anyPage());
        responses.with("200").with("content").with("application/json").with("schema").withArray("oneOf")
                .addObject().put("type", "object").putObject("properties").putObject("rows_affected")
                .put("type", "integer");
        post.set("responses", responses);
        return item;
    }

    private ObjectNode executeMongo() {
        ObjectNode item = JSON.objectNode();
        ObjectNode post = item.putObject("post").put("operationId", "execute_mongo").put("summary",
                "Run an ad-hoc MongoDB find or aggregation, read-only (keys with the ad-hoc grant on the connection)");
        post.putArray("tags").add("Ad-hoc SQL");
        ArrayNode params = post.putArray("parameters");
        params.add(param("format", formatSchema()));
        pagingParameters(params);
        ObjectNode body = JSON.objectNode().put("type", "object");
        ObjectNode props = body.putObject("properties");
        props.putObject("collection").put("type", "string").put("minLength", 1);
        props.putObject("connection_name").put("type", "string").put("minLength", 1);
        props.putObject("filter").put("type", "object").put("description",
                "A find filter; a string value \":name\" takes params.name.");
        props.putObject("projection").put("type", "object");
        props.putObject("sort").put("type", "object");
        props.putObject("pipeline").put("type", "array").put("description",
                "An aggregation pipeline instead of a find: stages that only read ($out, $merge refused).")
                .putObject("items").put("type", "object");
        props.putObject("params").put("type", "object").put("description", "Values for :name placeholders.");
        props.set("timeout", orNull(timeoutSchema()));
        body.putArray("required").add("collection").add("connection_name");
        post.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                .set("schema", body);
        post.set("responses", callResponses(anyPage()));
        return item;
    }

    /** {@code /health}, {@code /catalog}, {@code /events}, {@code /openapi.json}, {@code /openapi.yaml}. */
    private void documentationRoutes(ObjectNode paths) {
        ObjectNode health = paths.putObject("/health").putObject("get").put("operationId", "health")
                .put("summary", "Liveness: the gateway answers");
        health.putArray("tags").add("Service");
        health.putArray("security").addObject();
        ObjectNode hs = JSON.objectNode().put("type", "object");
        hs.putArray("required").add("status").add("version");
        ObjectNode hp = hs.putObject("properties");
        hp.putObject("status").put("type", "string");
        hp.putObject("version").put("type", "string");
        hp.putObject("time_zone").putArray("type").add("string").add("null");
        hp.putObject("utc_offset").put("type", "string");
        ObjectNode healthResponses = health.putObject("responses");
        healthResponses.set("200", json("The gateway is up", hs));
        healthResponses.set("503", json("The gateway is stopping: a load balancer should send no more calls", hs));

        ObjectNode catalog = paths.putObject("/catalog").putObject("get").put("operationId", "catalog")
                .put("summary", "The saved queries this key may call, with their parameters and terms");
        catalog.putArray("tags").add("Service");
        ArrayNode cp = catalog.putArray("parameters");
        cp.add(param("format", JSON.objectNode().put("type", "string").put("default", "json")
                .set("enum", JSON.arrayNode().add("json").add("postman"))));
        ObjectNode catalogResponses = errorResponses(401, 400, 429);
        ObjectNode postman = JSON.objectNode().put("type", "object").put("description", "A Postman v2.1 collection");
        postman.putArray("required").add("info").add("item");
        postman.putObject("properties").putObject("item").put("type", "array");
        ObjectNode either = JSON.objectNode();
        either.putArray("anyOf").add(JSON.objectNode().put("$ref", "#/components/schemas/Catalog")).add(postman);
        catalogResponses.set("200", json("The catalog (or, with format=postman, a Postman v2.1 collection)",
                either));
        catalog.set("responses", catalogResponses);

        liveEventsRoute(paths);

        for (String format : List.of("json", "yaml")) {
            ObjectNode op = paths.putObject("/openapi." + format).putObject("get")
                    .put("operationId", "openapi_" + format)
                    .put("summary", "This document, for the key it is fetched with");
            op.putArray("tags").add("Service");
            ObjectNode r = errorResponses(401, 429);
            r.putObject("200").put("description", "The OpenAPI document").putObject("content")
                    .putObject(format.equals("json") ? "application/json" : "application/yaml").putObject("schema")
                    .put("type", "object"); // the YAML text is the same document
            op.set("responses", r);
        }
    }

    /** {@code GET /events}: the calls this caller may see, live (docs/observability.md, "Live events"). */
    private static void liveEventsRoute(ObjectNode paths) {
        ObjectNode events = paths.putObject("/events").putObject("get").put("operationId", "events")
                .put("summary", "The calls this key may see, live, as Server-Sent Events (a key its own, an"
                        + " administrator its workspace's); resumable with Last-Event-ID");
        events.putArray("tags").add("Service");
        ArrayNode ep = events.putArray("parameters");
        ep.add(param("type", JSON.objectNode().put("type", "string")).put("description",
                "Only events of this type (query.run, the only one)."));
        ep.add(param("kind", JSON.objectNode().put("type", "string")
                .set("enum", JSON.arrayNode().add("saved").add("adhoc"))));
        ep.add(param("query", JSON.objectNode().put("type", "string")).put("description",
                "Only this saved query's calls."));
        ep.add(param("connection", JSON.objectNode().put("type", "string")).put("description",
                "Only the calls on this connection."));
        ep.add(param("status", JSON.objectNode().put("type", "string").put("pattern", "^(success|error|[1-5][0-9]{2})$"))
                .put("description", "success, error, or one HTTP status."));
        ep.add(param("last_event_id", JSON.objectNode().put("type", "string")).put("description",
                "Resume after this event id (as the Last-Event-ID header); anything but a whole number: live only."));
        ep.addObject().put("name", "Last-Event-ID").put("in", "header").put("required", false)
                .put("description", "Resume after this event id (EventSource sends it when it reconnects).")
                .putObject("schema").put("type", "string");
        ObjectNode responses = errorResponses(400, 401, 403, 404, 429, 503);
        responses.putObject("200").put("description", "An endless text/event-stream: per call an event whose id is"
                + " its event-log id and whose data is its JSON; a comment line every heartbeat").putObject("content")
                .putObject("text/event-stream").putObject("schema").put("type", "string");
        events.set("responses", responses);
    }

    /**
     * {@code /docs} and the files it loads: public, for browsers, so only the administrator's document (every route
     * the server has) lists them.
     */
    private void docsPageRoutes(ObjectNode paths) {
        ObjectNode page = paths.putObject("/docs").putObject("get").put("operationId", "docs_page")
                .put("summary", "Interactive API docs (Swagger UI) for the key typed into the page");
        page.putArray("tags").add("Service");
        page.putArray("security").addObject();
        ObjectNode pageResponses = errorResponses(429);
        pageResponses.putObject("200").put("description", "The page").putObject("content")
                .putObject("text/html").putObject("schema").put("type", "string");
        page.set("responses", pageResponses);
        docsFile(paths, "/docs/{file}", "docs_page_file", "The page's own script and style (docs.js, docs.css)",
                List.of("file"));
        docsFile(paths, "/docs/swagger-ui/{version}/{file}", "docs_swagger_ui_file",
                "A file of Swagger UI, in the folder of its version", List.of("version", "file"));
    }

    /**
     * The Console's page, its screens (the same page; the script draws the screen), its bundles and the old address
     * {@code /ui}: public, for browsers, so only the administrator's document lists them (docs/console.md).
     */
    private void consoleRoutes(ObjectNode paths) {
        consolePage(paths.putObject("/console").putObject("get"), "console_page",
                "The Console, the administrators' web interface (signs in with an administrator key or token)",
                errorResponses(404, 429));
        ObjectNode screen = paths.putObject("/console/{screen}").putObject("get");
        // 400: Jetty refuses a path with a control character before any route is chosen
        consolePage(screen, "console_screen", "A screen of the Console, by its address (the same page)",
                errorResponses(400, 404, 429));
        screen.putArray("parameters").addObject().put("name", "screen").put("in", "path").put("required", true)
                .putObject("schema").put("type", "string");
        ObjectNode asset = paths.putObject("/console/assets/{file}").putObject("get")
                .put("operationId", "console_asset").put("summary", "A bundle of the Console's scripts or styles,"
                        + " named by the hash of its content (cached for a year)");
        asset.putArray("tags").add("Service");
        asset.putArray("security").addObject();
        asset.putArray("parameters").addObject().put("name", "file").put("in", "path").put("required", true)
                .putObject("schema").put("type", "string").put("pattern", "^[A-Za-z0-9._-]+$");
        ObjectNode assetResponses = errorResponses(400, 404, 429);
        assetResponses.putObject("200").put("description", "The bundle (JavaScript or CSS)").putObject("content")
                .putObject("*/*").putObject("schema").put("type", "string");
        asset.set("responses", assetResponses);
        ObjectNode old = paths.putObject("/ui").putObject("get").put("operationId", "console_old_address")
                .put("summary", "The original's address of its Console: moved permanently to /console/");
        old.putArray("tags").add("Service");
        old.putArray("security").addObject();
        ObjectNode oldResponses = errorResponses(429);
        oldResponses.putObject("301").put("description", "Location: /console/");
        old.set("responses", oldResponses);
    }

    private void consolePage(ObjectNode op, String operationId, String summary, ObjectNode responses) {
        op.put("operationId", operationId).put("summary", summary);
        op.putArray("tags").add("Service");
        op.putArray("security").addObject();
        responses.putObject("200").put("description", "The page (its scripts and styles come from /console/assets)")
                .putObject("content").putObject("text/html").putObject("schema").put("type", "string");
        op.set("responses", responses);
    }

    private static void docsFile(ObjectNode paths, String path, String operationId, String summary,
            List<String> pathParams) {
        ObjectNode op = paths.putObject(path).putObject("get").put("operationId", operationId).put("summary", summary);
        op.putArray("tags").add("Service");
        op.putArray("security").addObject();
        ArrayNode params = op.putArray("parameters");
        pathParams.forEach(name -> params.addObject().put("name", name).put("in", "path").put("required", true)
                .putObject("schema").put("type", "string").put("pattern", "^[A-Za-z0-9._-]+$"));
        // 400: Jetty refuses a path with a control character before any route is chosen
        ObjectNode responses = errorResponses(400, 404, 429);
        responses.putObject("200").put("description", "The file (JavaScript, CSS or PNG)").putObject("content")
                .putObject("*/*").putObject("schema").put("type", "string");
        responses.putObject("304").put("description", "Unchanged since the ETag sent in If-None-Match");
        op.set("responses", responses);
    }

    private void callParameters(ArrayNode params, String connection, int queryVersion) {
        ObjectNode conn = JSON.objectNode().put("type", "string");
        if (connection != null) {
            conn.put("default", connection);
        }
        params.add(param("connection_name", conn).put("description",
                "Run on another connection (needs a grant on it)."));
        params.add(param("version", JSON.objectNode().put("type", "integer").put("minimum", 1)).put("description",
                queryVersion > 0 ? "Saved version to run (default: the published one, currently " + queryVersion + ")."
                        : "Saved version to run (default: the published one)."));
        params.add(param("format", formatSchema()));
        pagingParameters(params);
        params.add(param("timeout", timeoutSchema())
                .put("description", "Seconds the query may run; lowers, never raises, the server's limit."));
        params.add(param("stream", JSON.objectNode().put("type", "boolean")).put("description",
                "The whole result instead of a page (csv, tsv, ndjson, parquet, xlsx)."));
    }

    private void pagingParameters(ArrayNode params) {
        params.add(param("page", JSON.objectNode().put("type", "integer").put("minimum", 1).put("default", 1)));
        params.add(param("page_size", JSON.objectNode().put("type", "integer").put("minimum", 1)
                .put("maximum", maxPageSize).put("default", defaultPageSize)));
    }

    private static ObjectNode param(String name, ObjectNode schema) {
        ObjectNode p = JSON.objectNode().put("name", name).put("in", "query").put("required", false);
        p.set("schema", schema);
        return p;
    }

    /** Seconds a call may run: above 0, at most a day (400 invalid_timeout otherwise). */
    private static ObjectNode timeoutSchema() {
        return JSON.objectNode().put("type", "number").put("exclusiveMinimum", 0).put("maximum", 86_400);
    }

    /** A body field that may also be null (the call bodies read null as absent): OpenAPI 3.1's type list. */
    private static ObjectNode orNull(ObjectNode schema) {
        ObjectNode s = schema.deepCopy();
        if (schema.path("type").isTextual()) {
            s.putArray("type").add(schema.get("type").asText()).add("null");
        } else {
            s.removeAll();
            s.putArray("anyOf").add(schema).addObject().put("type", "null");
            return s;
        }
        if (schema.path("enum").isArray()) {
            s.withArray("enum").addNull();
        }
        return s;
    }

    private static ObjectNode formatSchema() {
        ObjectNode s = JSON.objectNode().put("type", "string").put("default", "json");
        ArrayNode values = s.putArray("enum");
        for (OutputFormat f : OutputFormat.values()) {
            values.add(f.formatName());
        }
        return s;
    }

    /** The JSON answer of a call whose rows are not known here. */
    private static ObjectNode anyPage() {
        return ResultSchemas.page(ResultSchemas.rows(ResultSchemas.row(null)));
    }

    /** 200 with the page (JSON rows or the empty-page message; the other formats as text or files), 304, errors. */
    private ObjectNode callResponses(ObjectNode page) {
        ObjectNode responses = JSON.objectNode();
        ObjectNode ok = responses.putObject("200").put("description",
                "One page of rows (or the whole result with stream=true)");
        ObjectNode headers = ok.putObject("headers");
        for (String h : List.of("X-Page", "X-Page-Size", "X-Row-Count")) {
            headers.putObject(h).putObject("schema").put("type", "integer");
        }
        headers.putObject("X-Has-More").putObject("schema").put("type", "string").set("enum",
                JSON.arrayNode().add("true").add("false"));
        headers.putObject("ETag").putObject("schema").put("type", "string");
        headers.putObject("X-Cache").put("description", "HIT or MISS, when the query is cached").putObject("schema")
                .put("type", "string");
        ObjectNode content = ok.putObject("content");
        content.putObject("application/json").set("schema", page);
        for (OutputFormat f : OutputFormat.values()) {
            if (f == OutputFormat.JSON) {
                continue;
            }
            String media = f.contentType().split(";")[0].strip(); // the Content-Type the answer has
            if (f == OutputFormat.YAML) { // the same rows (or message) as JSON, written as YAML
                content.putObject(media).set("schema", page.deepCopy());
                continue;
            }
            ObjectNode s = content.putObject(media).putObject("schema").put("type", "string");
            if (f.isDownload()) {
                s.put("contentMediaType", media);
            }
        }
        responses.putObject("304").put("description", "Not modified: the If-None-Match ETag still holds");
        responses.setAll(errorResponses(400, 401, 403, 404, 406, 409, 413, 429, 500, 503, 504));
        return responses;
    }

    static ObjectNode errorResponses(int... statuses) {
        ObjectNode r = JSON.objectNode();
        for (int s : statuses) {
            r.putObject(Integer.toString(s)).put("$ref", "#/components/responses/Error" + s);
        }
        return r;
    }

    private static ObjectNode json(String description, JsonNode schema) {
        ObjectNode r = JSON.objectNode().put("description", description);
        r.putObject("content").putObject("application/json").set("schema", schema);
        return r;
    }

    private ObjectNode components() {
        ObjectNode c = JSON.objectNode();
        c.putObject("securitySchemes").putObject("ApiKey").put("type", "apiKey").put("in", "header")
                .put("name", "X-API-Key");
        ObjectNode schemas = c.putObject("schemas");
        ObjectNode error = schemas.putObject("Error").put("type", "object");
        error.putArray("required").add("error").add("code").add("request_id");
        ObjectNode ep = error.putObject("properties");
        ep.putObject("error").put("type", "string").put("description", "What went wrong, for people");
        ep.putObject("code").put("type", "string").put("description", "What went wrong, for programs");
        ep.putObject("request_id").put("type", "string");
        ep.putObject("errors").put("type", "object").put("description", "Each bad field or parameter and why")
                .putObject("additionalProperties").put("type", "string");
        ep.putObject("detail").put("type", "string").put("description", "The database's own message, where shown");
        schemas.set("Catalog", Catalog.schema());
        schemas.set(ResultSchemas.EMPTY_PAGE, ResultSchemas.emptyPage());
        ObjectNode responses = c.putObject("responses");
        for (Map.Entry<Integer, List<String>> e : ErrorCodes.BY_STATUS.entrySet()) {
            ObjectNode schema = JSON.objectNode();
            schema.putArray("allOf").addObject().put("$ref", "#/components/schemas/Error");
            ArrayNode codes = schema.withArray("allOf").addObject().putObject("properties").putObject("code")
                    .putArray("enum");
            e.getValue().forEach(codes::add);
            schemas.set("Error" + e.getKey(), schema); // named, so generated clients get Error404, not InlineObject7
            ObjectNode response = json("Error " + e.getKey() + ": " + String.join(", ", e.getValue()),
                    JSON.objectNode().put("$ref", "#/components/schemas/Error" + e.getKey()));
            if (e.getKey() == 429) {
                response.putObject("headers").putObject("Retry-After").putObject("schema").put("type", "integer");
            }
            responses.set("Error" + e.getKey(), response);
        }
        return c;
    }

    /** A saved query's name as one path segment, percent-encoded where URLs need it. */
    static String pathSegment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A value as a query string carries it. */
    static String queryValue(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
