package io.queryapigate.resources;

import io.queryapigate.output.format.Values;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /health}: public liveness, 503 with {@code "status": "stopping"} once the server has begun a graceful
 * stop (Dropwizard's {@code health.delayedShutdownHandlerEnabled}), so a load balancer stops sending before the
 * connectors close. Per-connection and store checks are on the admin port.
 */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {
    private final String version;
    private final Clock clock;
    private final BooleanSupplier stopping;

    public HealthResource(String version, Clock clock) {
        this(version, clock, () -> false);
    }

    /** As the other constructor; {@code stopping} says whether a graceful stop has begun. */
    public HealthResource(String version, Clock clock, BooleanSupplier stopping) {
        this.version = version;
        this.clock = clock;
        this.stopping = stopping;
    }

    @GET
    public Response health() {
        boolean stop = stopping.getAsBoolean();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", stop ? "stopping" : "ok");
        out.put("version", version);
        out.put("time", clock.instant().toString());
        // the zone timestamps with a zone are shown in (output.format.Values)
        out.put("time_zone", Values.ZONE.getId());
        out.put("utc_offset", Values.ZONE.getRules().getOffset(clock.instant()).getId().replace("Z", "+00:00"));
        return Response.status(stop ? 503 : 200).entity(out).build();
    }
}
