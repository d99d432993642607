package io.queryapigate.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.siem.AuditDelivery;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/v1/audit/delivery}: each SIEM output's progress (delivered up to which entry, how far behind, its
 * last error, which instance holds its lease). The audit log is the server's: a server-wide role only.
 */
@Path("/api/v1/audit/delivery")
@Produces(MediaType.APPLICATION_JSON)
public class AuditDeliveryResource {
    private final AuditDelivery delivery;
    private final ObjectMapper mapper;

    public AuditDeliveryResource(AuditDelivery delivery, ObjectMapper mapper) {
        this.delivery = delivery;
        this.mapper = mapper;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode status(@Auth Caller caller) {
        if (!caller.identity().serverWide()) {
            throw ApiException.forbidden("role_forbidden", "Only a server-wide role may see where the audit log is"
                    + " delivered: a role in a workspace administers that workspace.");
        }
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        for (AuditDelivery.Status s : delivery.status()) {
            ObjectNode o = items.addObject();
            o.put("output", s.output()).put("type", s.type()).put("target", s.target());
            if (s.deliveredSeq() == null) {
                o.putNull("delivered_seq");
            } else {
                o.put("delivered_seq", s.deliveredSeq());
            }
            o.put("head_seq", s.headSeq()).put("behind", s.behind());
            time(o, "oldest_undelivered_at", s.oldestUndeliveredAt());
            time(o, "last_delivered_at", s.lastDeliveredAt());
            o.put("last_error", s.lastError());
            time(o, "last_error_at", s.lastErrorAt());
            o.put("instance", s.instance());
            time(o, "lease_until", s.leaseUntil());
        }
        return out;
    }

    private static void time(ObjectNode o, String field, Long epochMillis) {
        o.put(field, epochMillis == null ? null : ServerTime.format(epochMillis));
    }
}
