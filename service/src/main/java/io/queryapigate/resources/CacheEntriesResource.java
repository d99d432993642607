package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.cache.CacheEntries;
import io.queryapigate.cache.CachedResponse;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /api/v1/cache/entries}: what the response cache holds, one entry's body, evicting. Administrators only. */
@Path("/api/v1/cache/entries")
public class CacheEntriesResource {
    private final CacheEntries entries;

    public CacheEntriesResource(CacheEntries entries) {
        this.entries = entries;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Requires(Capability.CACHE_READ)
    public ObjectNode list(@Auth Caller caller) {
        return entries.list();
    }

    @DELETE
    @Requires(Capability.CACHE_WRITE)
    public Response clear(@Auth Caller caller) {
        entries.evictAll();
        return Response.noContent().build();
    }

    /** The cached body itself, with its own content type: what a caller receives on a hit. */
    @GET
    @Path("/{key}")
    @Requires(Capability.CACHE_READ)
    public Response get(@Auth Caller caller, @PathParam("key") String key) {
        CachedResponse r = entries.get(key);
        String type = r.about() == null ? MediaType.APPLICATION_OCTET_STREAM : r.about().contentType();
        return Response.ok(r.body(), type).build();
    }

    @DELETE
    @Path("/{key}")
    @Requires(Capability.CACHE_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("key") String key) {
        entries.evict(key);
        return Response.noContent().build();
    }
}
