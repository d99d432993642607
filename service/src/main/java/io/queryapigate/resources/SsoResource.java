package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.auth.ApiKeyAuthFilter.Sessions;
import io.queryapigate.errors.ApiException;
import io.queryapigate.errors.ErrorResponses;
import io.queryapigate.http.ServerTime;
import io.queryapigate.sso.ConsoleSessions;
import io.queryapigate.sso.ConsoleSignIn;
import io.queryapigate.sso.SsoSettings;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Console sign-in through the identity provider ({@link ConsoleSignIn}): {@code GET /auth/sso/login} sends the
 * browser to the provider, {@code GET /auth/sso/callback} takes it back and starts a console session,
 * {@code GET /auth/session} says who is signed in, {@code POST /auth/logout} ends the session. Without {@code sso:}
 * in the YAML they answer 404 {@code not_found} ({@code /auth/session}: not signed in).
 *
 * <p>Cookies, all {@code __Host-} (Secure, Path=/, no Domain): {@value #STATE_COOKIE} binds a sign-in under way to
 * the browser (HttpOnly, SameSite=Lax: the provider sends the browser back with a cross-site navigation);
 * {@value Sessions#COOKIE} is the session (HttpOnly, SameSite=Strict); {@value #CSRF_COOKIE} is the session's CSRF
 * token, readable by the console's page, which sends it in {@value Sessions#CSRF_HEADER} (SameSite=Strict).
 */
@Path("/auth")
@Produces(MediaType.APPLICATION_JSON)
public class SsoResource {
    static final String STATE_COOKIE = "__Host-qag_sso";
    static final String CSRF_COOKIE = "__Host-qag_csrf";

    private final ConsoleSignIn signIn;
    private final ConsoleSessions sessions;

    /** @param signIn null when console sign-in is not configured */
    public SsoResource(ConsoleSignIn signIn, ConsoleSessions sessions) {
        this.signIn = signIn;
        this.sessions = sessions;
    }

    @GET
    @Path("/sso/login")
    public Response login(@QueryParam("return_to") String returnTo, @QueryParam("next") String next,
            @Context UriInfo uri) {
        ConsoleSignIn on = configured();
        ConsoleSignIn.Started started = on.begin(returnTo != null ? returnTo : next, redirectUri(on, uri));
        return Response.status(Response.Status.FOUND).location(started.location()).header("Cache-Control", "no-store")
                .header("Set-Cookie", cookie(STATE_COOKIE, started.browser(), on.settings().loginTtl(), true, "Lax"))
                .build();
    }

    @GET
    @Path("/sso/callback")
    public Response callback(@QueryParam("code") String code, @QueryParam("state") String state,
            @QueryParam("error") String error, @CookieParam(STATE_COOKIE) String browser,
            @CookieParam(Sessions.COOKIE) String previous, @Context UriInfo uri,
            @Context HttpServletRequest request) {
        ConsoleSignIn on = configured();
        String clearState = cookie(STATE_COOKIE, "", Duration.ZERO, true, "Lax");
        ConsoleSignIn.SignedIn done;
        try {
            done = on.finish(code, state, browser, error, redirectUri(on, uri));
        } catch (ApiException e) {
            return Response.fromResponse(ErrorResponses.of(request, e.status(), e.code(), e.getMessage(), Map.of()))
                    .header("Set-Cookie", clearState).header("Cache-Control", "no-store").build();
        }
        if (previous != null) { // signed in again in this browser: the session it had ends, not only its cookie
            sessions.end(previous);
        }
        Duration ttl = on.settings().sessionTtl();
        return Response.status(Response.Status.FOUND).location(URI.create(done.returnTo()))
                .header("Cache-Control", "no-store")
                .header("Set-Cookie", clearState)
                .header("Set-Cookie", cookie(Sessions.COOKIE, done.session().sessionId(), ttl, true, "Strict"))
                .header("Set-Cookie", cookie(CSRF_COOKIE, done.session().csrfToken(), ttl, false, "Strict"))
                .build();
    }

    /**
     * Whether console sign-in is on and who is signed in. With the session cookie, the CSRF token is needed here too
     * (403 {@code csrf_failed}); an unknown or ended session is "not signed in", and its cookies are cleared.
     */
    @GET
    @Path("/session")
    public Response session(@CookieParam(Sessions.COOKIE) String sessionId,
            @HeaderParam(Sessions.CSRF_HEADER) String csrf) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("sso", signIn != null);
        body.put("signed_in", false);
        body.put("sso_only", false);
        if (signIn == null || sessionId == null) {
            return Response.ok(body).header("Cache-Control", "no-store").build();
        }
        ConsoleSessions.Live live = sessions.find(sessionId).orElse(null);
        if (live == null) {
            return cleared(Response.ok(body)).build();
        }
        sessions.authenticate(sessionId, csrf);
        body.put("signed_in", true);
        body.put("admin", live.administrator().name());
        body.put("role", live.administrator().role());
        body.put("email", live.administrator().email());
        body.put("expires_at", ServerTime.format(live.session().expiresAt()));
        return Response.ok(body).header("Cache-Control", "no-store").build();
    }

    @POST
    @Path("/logout")
    public Response logout(@CookieParam(Sessions.COOKIE) String sessionId,
            @HeaderParam(Sessions.CSRF_HEADER) String csrf, @Context HttpServletRequest request) {
        ConsoleSignIn on = configured();
        if (sessions.find(sessionId).isEmpty()) {
            return cleared(Response.fromResponse(ErrorResponses.of(request, 401, "unauthorized",
                    "Not signed in.", Map.of()))).build();
        }
        sessions.authenticate(sessionId, csrf);
        sessions.end(sessionId);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("signed_out", true);
        body.put("provider_sign_out", on.providerSignOut());
        return cleared(Response.ok(body)).build();
    }

    /** The original's path for {@link #logout}. */
    @POST
    @Path("/sso/logout")
    public Response ssoLogout(@CookieParam(Sessions.COOKIE) String sessionId,
            @HeaderParam(Sessions.CSRF_HEADER) String csrf, @Context HttpServletRequest request) {
        return logout(sessionId, csrf, request);
    }

    private ConsoleSignIn configured() {
        if (signIn == null) {
            throw ApiException.notFound("not_found", "Console sign-in through SSO is not configured.");
        }
        return signIn;
    }

    private static URI redirectUri(ConsoleSignIn on, UriInfo uri) {
        SsoSettings settings = on.settings();
        return settings.redirectUri() != null ? settings.redirectUri()
                : uri.getBaseUriBuilder().replacePath(SsoSettings.CALLBACK_PATH).replaceQuery(null).build();
    }

    private static Response.ResponseBuilder cleared(Response.ResponseBuilder response) {
        return response.header("Cache-Control", "no-store")
                .header("Set-Cookie", cookie(Sessions.COOKIE, "", Duration.ZERO, true, "Strict"))
                .header("Set-Cookie", cookie(CSRF_COOKIE, "", Duration.ZERO, false, "Strict"));
    }

    /** A {@code __Host-} cookie: Secure, Path=/, no Domain; {@code ttl} zero removes it. */
    static String cookie(String name, String value, Duration ttl, boolean httpOnly, String sameSite) {
        return name + "=" + value + "; Path=/; Max-Age=" + ttl.toSeconds() + "; Secure"
                + (httpOnly ? "; HttpOnly" : "") + "; SameSite=" + sameSite;
    }
}
