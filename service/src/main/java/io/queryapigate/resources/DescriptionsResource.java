package io.queryapigate.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.errors.ApiException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;

/**
 * {@code /api/v1/connections/{name}/descriptions}: what a connection's tables and columns mean: list, set or remove
 * ({@code PATCH}), import the database's own comments ({@code POST .../import}). Administrators only; the shapes are
 * the Python original's.
 */
@Path("/api/v1/connections/{name}/descriptions")
@Produces(MediaType.APPLICATION_JSON)
public class DescriptionsResource {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final Descriptions descriptions;

    public DescriptionsResource(Descriptions descriptions) {
        this.descriptions = descriptions;
    }

    @GET
    @Requires(Capability.CONNECTIONS_READ)
    public ObjectNode list(@Auth Caller caller, @PathParam("name") String name) {
        return items(name);
    }

    @PATCH
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_WRITE)
    public ObjectNode update(@Auth Caller caller, @PathParam("name") String name, JsonNode body) {
        if (body == null || !body.isObject() || body.size() != 1 || !body.has("items")) {
            throw ApiException.badRequest("invalid_body",
                    "The body is {\"items\": [{\"table\", \"column\", \"description\"}, ...]}");
        }
        descriptions.write(name, descriptions.parse(name, body.get("items")), caller.name(),
                Descriptions.Source.WRITTEN, true);
        return items(name);
    }

    @POST
    @Path("/import")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.CONNECTIONS_WRITE)
    public ObjectNode importComments(@Auth Caller caller, @PathParam("name") String name, String text) {
        JsonNode body = optionalJson(text);
        boolean overwrite = false;
        if (body != null && !body.isNull()) {
            JsonNode o = body.isObject() ? body.get("overwrite") : null;
            if (!body.isObject() || !onlyOverwrite(body) || o != null && !o.isNull() && !o.isBoolean()) {
                throw ApiException.badRequest("invalid_body", "The body is {\"overwrite\": true|false}, or empty");
            }
            overwrite = o != null && o.booleanValue();
        }
        return descriptions.importComments(name, overwrite, caller.name());
    }

    private ObjectNode items(String name) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("items", descriptions.list(name));
        return out;
    }

    private static JsonNode optionalJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_body", "Request body must be a JSON object");
        }
    }

    private static boolean onlyOverwrite(JsonNode body) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            if (!it.next().equals("overwrite")) {
                return false;
            }
        }
        return true;
    }
}
