package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.schema.SchemaBrowser;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Optional;

/**
 * {@code /api/v1/connections/{name}/schema}: a connection's tables, views and columns with their descriptions, as the
 * administrator sees them or ({@code ?key=}) as one key does. Administrators only.
 */
@Path("/api/v1/connections/{name}/schema")
public class SchemaResource {
    private final SchemaBrowser browser;
    private final ApiKeys keys;

    public SchemaResource(SchemaBrowser browser, ApiKeys keys) {
        this.browser = browser;
        this.keys = keys;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_READ)
    public ObjectNode get(@Auth Caller caller, @PathParam("name") String name, @QueryParam("database") String database,
            @QueryParam("key") String key, @QueryParam("refresh") String refresh) {
        boolean again = flag("refresh", refresh);
        Grants grants = key == null || key.isEmpty() ? null : keys.effective(keys.find(key));
        return browser.describe(name, database == null || database.isEmpty() ? Optional.empty()
                : Optional.of(database), grants, again);
    }

    private static boolean flag(String name, String value) {
        if (value == null || value.isEmpty() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiException.badRequest("invalid_request", name + " must be true or false");
    }
}
