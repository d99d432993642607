package io.queryapigate.resources;

import io.dropwizard.auth.Auth;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.Requires;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.mcp.McpEndpoint;
import io.queryapigate.mcp.McpTools;
import io.queryapigate.store.ApiKeyRow;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/mcp/status} (how the MCP server is served, and how many tools the caller sees there) and
 * {@code GET /api/v1/mcp/tools} (the tools a key would see, {@code ?key=NAME}, or the caller's own), in the
 * original's item shape.
 */
@Path("/api/v1/mcp")
@Produces(MediaType.APPLICATION_JSON)
public class McpStatusResource {
    private final McpEndpoint mcp;
    private final ApiKeys keys;

    public McpStatusResource(McpEndpoint mcp, ApiKeys keys) {
        this.mcp = mcp;
        this.keys = keys;
    }

    @GET
    @Path("status")
    @Requires(Capability.OBSERVE)
    public Map<String, Object> status(@Auth Caller caller) {
        List<Tool> tools = mcp.handler().toolsFor(caller);
        int saved = (int) tools.stream().filter(t -> !McpTools.RESERVED.contains(t.name())).count();
        return mcp.status(tools.size(), saved);
    }

    @GET
    @Path("tools")
    @Requires(Capability.OBSERVE)
    public Map<String, Object> tools(@Auth Caller caller, @QueryParam("key") String key) {
        Caller who = caller;
        if (key != null && !key.isEmpty()) {
            ApiKeyRow row = keys.find(key); // 404 key_not_found, another workspace's too
            who = new Caller(row.id(), row.name(), false, keys.effective(row), new Identity(Identity.Kind.KEY,
                    row.roleName(), false, row.workspace(), Map.of(), null, null, keys.claims(row), 0));
        }
        List<Map<String, Object>> items = new ArrayList<>();
        for (Tool t : mcp.handler().toolsFor(who)) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", t.name());
            item.put("description", t.description());
            item.put("kind", McpTools.RESERVED.contains(t.name()) ? "ad-hoc" : "saved query");
            Map<?, ?> properties = t.inputSchema() != null && t.inputSchema().get("properties") instanceof Map<?, ?> p
                    ? p : Map.of();
            item.put("params", properties.keySet().stream().map(Object::toString).sorted().toList());
            item.put("read_only", t.annotations() != null && Boolean.TRUE.equals(t.annotations().readOnlyHint()));
            items.add(item);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", who.name());
        out.put("items", items);
        return out;
    }
}
