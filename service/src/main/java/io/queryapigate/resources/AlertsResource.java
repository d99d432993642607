package io.queryapigate.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.alerts.Alerts;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.http.ServerTime;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;

/**
 * {@code GET /api/v1/alerts}: what needs an administrator's attention now ({@link Alerts}), worked out afresh each
 * time: {@code {"items": [...], "checked_at": "..."}}. The workspace's alerts for its administrators (those about API
 * keys only for a role that may read keys), the server's own for a server-wide role.
 */
@Path("/api/v1/alerts")
@Produces(MediaType.APPLICATION_JSON)
public class AlertsResource {
    private final Alerts alerts;
    private final ObjectMapper mapper;
    private final Clock clock;

    public AlertsResource(Alerts alerts, ObjectMapper mapper, Clock clock) {
        this.alerts = alerts;
        this.mapper = mapper;
        this.clock = clock;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode list(@Auth Caller caller) {
        boolean serverWide = caller.identity().serverWide();
        boolean keysVisible = AdminRole.of(caller.identity().role())
                .map(r -> r.allows(Capability.ACCESS_READ, serverWide)).orElse(false);
        ObjectNode body = mapper.createObjectNode();
        body.set("items", mapper.valueToTree(alerts.collect(keysVisible, serverWide)));
        body.put("checked_at", ServerTime.format(clock.millis()));
        return body;
    }
}
