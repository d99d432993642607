package io.queryapigate.resources;

import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.config.SettingsView;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1/settings}: the server's effective configuration, by section, read-only. Administrators only. */
@Path("/api/v1/settings")
@Produces(MediaType.APPLICATION_JSON)
public class SettingsResource {
    private final List<SettingsView.Section> sections;

    public SettingsResource(List<SettingsView.Section> sections) {
        this.sections = List.copyOf(sections);
    }

    @GET
    public Map<String, List<SettingsView.Section>> settings(@Auth Caller caller) {
        Admin.require(caller);
        return Map.of("items", sections);
    }
}
