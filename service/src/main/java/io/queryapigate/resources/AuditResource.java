package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.audit.AuditEntries;
import io.queryapigate.audit.AuditVerifier;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code /api/v1/audit}: administrative changes, newest first (a server-wide role reads the whole log, or one
 * workspace's with {@code ?workspace=}; through {@code /w/{workspace}/}, and for a workspace member, that workspace's
 * entries), and {@code /verify}, the
 * hash chain walked from its anchor (server-wide roles only, as the Python original).
 */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
    private final AuditEntries entries;
    private final AuditVerifier verifier;

    public AuditResource(AuditEntries entries, AuditVerifier verifier) {
        this.entries = entries;
        this.verifier = verifier;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode list(@Auth Caller caller, @QueryParam("action") String action,
            @QueryParam("actor") String actor, @QueryParam("target") String target, @QueryParam("q") String text,
            @QueryParam("workspace") String workspace, @QueryParam("since") String since,
            @QueryParam("until") String until, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        Identity identity = caller.identity();
        // a server-wide role reads every workspace's, unless the request acts in one (/w/{workspace}/...)
        String shown = identity.serverWide() && Identity.DEFAULT_WORKSPACE.equals(identity.workspace())
                ? blankToNull(workspace) : identity.workspace();
        return entries.list(new AuditEntries.Request(action, actor, target, text, since, until, limit, cursor),
                shown);
    }

    @GET
    @Path("/verify")
    @Requires(Capability.OBSERVE)
    public Map<String, Object> verify(@Auth Caller caller) {
        if (!caller.identity().serverWide()) {
            throw ApiException.forbidden("role_forbidden", "Only a server-wide role may verify the whole server's"
                    + " audit log - a role in a workspace administers that workspace");
        }
        return verifier.verify();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
