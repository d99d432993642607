package io.queryapigate.resources;

import io.queryapigate.output.format.Values;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /health}: public liveness. Per-connection and store checks are on the admin port. */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {
    private final String version;
    private final Clock clock;

    public HealthResource(String version, Clock clock) {
        this.version = version;
        this.clock = clock;
    }

    @GET
    public Map<String, Object> health() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "ok");
        out.put("version", version);
        out.put("time", clock.instant().toString());
        // the zone timestamps with a zone are shown in (output.format.Values)
        out.put("time_zone", Values.ZONE.getId());
        out.put("utc_offset", Values.ZONE.getRules().getOffset(clock.instant()).getId().replace("Z", "+00:00"));
        return out;
    }
}
