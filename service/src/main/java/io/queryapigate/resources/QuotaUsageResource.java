package io.queryapigate.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Quota;
import io.queryapigate.auth.Requires;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.limits.Quotas;
import io.queryapigate.store.ApiKeyRow;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/v1/usage/quotas}: each API key of the workspace that has a usage quota, with what it used of it this
 * period, its limits, what remains and when it resets: the very counts {@link Quotas} enforces (Redis's when it is
 * configured and answering, else the store's with this process's unwritten counts). {@code ?key=} narrows it to one.
 */
@Path("/api/v1/usage/quotas")
@Produces(MediaType.APPLICATION_JSON)
public class QuotaUsageResource {
    private final ApiKeys keys;
    private final Quotas quotas;
    private final ObjectMapper mapper;

    public QuotaUsageResource(ApiKeys keys, Quotas quotas, ObjectMapper mapper) {
        this.keys = keys;
        this.quotas = quotas;
        this.mapper = mapper;
    }

    @GET
    @Requires(Capability.ACCESS_READ)
    public ObjectNode list(@Auth Caller caller, @QueryParam("key") String key) {
        ObjectNode body = mapper.createObjectNode();
        ArrayNode items = body.putArray("items");
        for (ApiKeyRow row : keys.list()) {
            Quota quota = keys.effective(row).quota();
            if (quota == null || (key != null && !key.equals(row.name()))) {
                continue;
            }
            Quotas.Usage used = quotas.usage(row.id(), quota);
            ObjectNode o = items.addObject();
            o.put("caller", row.name());
            o.put("per", quota.per());
            o.put("period", used.period().key().substring(quota.per().length() + 1));
            o.put("calls", used.calls());
            o.put("rows", used.rows());
            putLimit(o, "calls", quota.calls(), used.calls());
            putLimit(o, "rows", quota.rows(), used.rows());
            o.put("period_start", used.period().startText());
            o.put("resets_at", used.period().resetsText());
        }
        return body;
    }

    private static void putLimit(ObjectNode o, String what, Long limit, long used) {
        if (limit == null) {
            o.putNull(what + "_limit");
            o.putNull(what + "_remaining");
        } else {
            o.put(what + "_limit", limit);
            o.put(what + "_remaining", Math.max(0, limit - used));
        }
    }
}
