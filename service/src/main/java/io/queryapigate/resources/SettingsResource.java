package io.queryapigate.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.config.SettingsView;
import io.queryapigate.errors.ApiException;
import io.queryapigate.secrets.Rekey;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/settings}: the server's effective configuration, by section, read-only; {@code POST
 * /api/v1/settings/rekey}: stored passwords re-encrypted under the first secret key. Administrators only.
 */
@Path("/api/v1/settings")
@Produces(MediaType.APPLICATION_JSON)
public class SettingsResource {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsResource.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<SettingsView.Section> sections;
    private final Rekey rekey;

    public SettingsResource(List<SettingsView.Section> sections, Rekey rekey) {
        this.sections = List.copyOf(sections);
        this.rekey = rekey;
    }

    @GET
    @Requires(Capability.SETTINGS_READ)
    public Map<String, List<SettingsView.Section>> settings(@Auth Caller caller) {
        return Map.of("items", sections);
    }

    /**
     * Re-encrypts every stored password under the first key in {@code QUERYAPIGATE_SECRET_KEY}, or with
     * {@code {"check": true}} only reports which key each is under.
     */
    @POST
    @Path("/rekey")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.SECRETS_ROTATE)
    public Map<String, Object> rekey(@Auth Caller caller, String text) {
        JsonNode node = optionalJson(text);
        Body.of(node, false, Set.of("check"));
        JsonNode check = node == null ? null : node.get("check");
        if (check != null && !check.isNull() && !check.isBoolean()) {
            throw Body.fieldError("check", "check is true or false");
        }
        try {
            if (check != null && check.asBoolean()) {
                return rekey.check().toJson();
            }
            Rekey.Report done = rekey.rekey();
            LOG.info("{} re-encrypted {} stored password(s) under the first secret key", caller.name(),
                    done.rekeyed());
            return done.toJson();
        } catch (Rekey.Refused e) {
            ApiException refusal = new ApiException(409, e.code(), e.getMessage());
            throw e.values().isEmpty() ? refusal : refusal.with("values", e.values());
        }
    }

    private static JsonNode optionalJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_body", "Request body must be a JSON object");
        }
    }
}
