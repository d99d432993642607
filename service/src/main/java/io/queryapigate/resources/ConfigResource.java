package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.configcode.ConfigCode;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.ManagedRow;
import io.queryapigate.workspaces.Workspaces;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/v1/config}: configuration as code over HTTP. The body carries a configuration directory as {@code
 * {"files": {"queries/film.yaml": "<YAML>", ...}}}; {@code diff} says what applying it would change, {@code apply}
 * makes the store match it in one transaction, {@code managed} lists what applied directories own. Administrators
 * only.
 */
@Path("/api/v1/config")
@Produces(MediaType.APPLICATION_JSON)
public class ConfigResource {
    private static final Set<String> FIELDS = Set.of("files");

    private final ConfigCode config;
    private final ObjectMapper mapper;

    public ConfigResource(ConfigCode config, ObjectMapper mapper) {
        this.config = config;
        this.mapper = mapper;
    }

    /** What applying the directory would change, field by field; nothing is written. */
    @POST
    @Path("/diff")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONFIG_APPLY)
    public ObjectNode diff(@Auth Caller caller, @QueryParam("prune") String prune, JsonNode body) {
        Workspaces.requireDefault(caller, "Configuration directories");
        return config.diff(files(body), flag("prune", prune)).toJson();
    }

    /** Makes the store match the directory, all or nothing ({@code dry_run=true}: the plan only). */
    @POST
    @Path("/apply")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONFIG_APPLY)
    public ObjectNode apply(@Auth Caller caller, @QueryParam("prune") String prune,
            @QueryParam("dry_run") String dryRun, JsonNode body) {
        Workspaces.requireDefault(caller, "Configuration directories");
        Map<String, String> files = files(body);
        if (flag("dry_run", dryRun)) {
            ObjectNode out = config.diff(files, flag("prune", prune)).toJson();
            out.put("applied", false);
            return out;
        }
        ConfigCode.Applied applied = config.apply(files, flag("prune", prune), caller.name());
        ObjectNode out = applied.plan().toJson();
        out.put("applied", applied.applied());
        out.put("directory_sha256", applied.directorySha256());
        return out;
    }

    /** Every object an applied directory owns; the API refuses to change these (409 {@code managed_by_file}). */
    @GET
    @Path("/managed")
    @Requires(Capability.OBSERVE)
    public ObjectNode managed(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        out.put("locked", true);
        ArrayNode items = out.putArray("items");
        for (ManagedRow row : Scope.owns(Scope.DEFAULT) ? config.managed() : List.<ManagedRow>of()) {
            items.addObject().put("kind", row.kind()).put("name", row.name()).put("file", row.file())
                    .put("file_sha256", row.contentSha256()).put("applied_at", ServerTime.format(row.appliedAt()))
                    .put("applied_by", row.appliedBy());
        }
        return out;
    }

    private static Map<String, String> files(JsonNode node) {
        Body.of(node, true, FIELDS);
        JsonNode files = node.get("files");
        if (files == null || !files.isObject()) {
            throw Body.fieldError("files", "must map each file's path in the directory (queries/NAME.yaml,"
                    + " api_keys/NAME.yaml, roles/NAME.yaml, descriptions/CONNECTION.yaml) to its YAML text");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = files.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw Body.fieldError("files", "maps '" + e.getKey() + "' to something other than its text");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    private static boolean flag(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiException.badRequest("invalid_request", name + " is true or false");
    }
}
