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
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.auth.AuthenticationException;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Credentials;
import io.queryapigate.auth.Identity;
import jakarta.ws.rs.Consumes;
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
 * Console sign-in: {@code POST /auth/console/sign-in} starts a session with the administrator key or a personal
 * admin token; through the identity provider ({@link ConsoleSignIn}), {@code GET /auth/sso/login} sends the
 * browser to the provider and {@code GET /auth/sso/callback} takes it back and starts one. {@code GET /auth/session}
 * says who is signed in, {@code POST /auth/logout} ends the session. Without {@code sso:} in the YAML the two
 * {@code /auth/sso/} routes answer 404 {@code not_found}.
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
    private final Credentials credentials;

    /** @param signIn null when console sign-in through SSO is not configured */
    public SsoResource(ConsoleSignIn signIn, ConsoleSessions sessions, Credentials credentials) {
        this.signIn = signIn;
        this.sessions = sessions;
        this.credentials = credentials;
    }

    /** What {@code POST /auth/console/sign-in} takes: the administrator key or a personal admin token. */
    public record SignIn(@JsonProperty("secret") String secret) {}

    /**
     * Starts a console session with the administrator key of the YAML or a personal admin token ({@code qagadm_}):
     * the session's cookies are set, the secret is kept nowhere. A scoped API key or a user's token is no way into
     * the console: 403 {@code admin_only}. A request from a page of another origin is refused (403
     * {@code csrf_failed}), so no other site can sign a browser in under an account of its choosing.
     */
    @POST
    @Path("/console/sign-in")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signInWithSecret(SignIn body, @HeaderParam("Origin") String origin,
            @CookieParam(Sessions.COOKIE) String previous, @Context UriInfo uri, @Context HttpServletRequest request) {
        if (origin != null && !sameOrigin(origin, request)) {
            throw ApiException.forbidden("csrf_failed", "A console sign-in must come from the console's own page.");
        }
        String secret = body == null || body.secret() == null ? "" : body.secret().strip();
        if (secret.isEmpty()) {
            throw ApiException.badRequest("invalid_request", "The administrator key or a personal admin token is"
                    + " needed in \"secret\".");
        }
        Caller caller;
        try {
            caller = credentials.authenticate(secret).orElseThrow(ApiException::unauthorized);
        } catch (AuthenticationException e) {
            throw ApiException.unauthorized();
        }
        Identity identity = caller.identity();
        ConsoleSessions.Issued issued;
        if (identity.kind() == Identity.Kind.BREAK_GLASS) {
            issued = sessions.startWithAdminKey();
        } else if (identity.kind() == Identity.Kind.ADMINISTRATOR && Caller.administratorId(caller.keyId()) > 0) {
            issued = sessions.start(Caller.administratorId(caller.keyId()));
        } else {
            throw ApiException.forbidden("admin_only", "Only administrators sign in to the console: the"
                    + " administrator key or a personal admin token.");
        }
        if (previous != null) {
            sessions.end(previous);
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("signed_in", true);
        out.put("admin", caller.name());
        out.put("role", identity.role());
        out.put("expires_at", ServerTime.format(issued.expiresAt()));
        Duration ttl = sessions.ttl();
        return Response.ok(out).header("Cache-Control", "no-store")
                .header("Set-Cookie", cookie(Sessions.COOKIE, issued.sessionId(), ttl, true, "Strict"))
                .header("Set-Cookie", cookie(CSRF_COOKIE, issued.csrfToken(), ttl, false, "Strict"))
                .build();
    }

    private static boolean sameOrigin(String origin, HttpServletRequest request) {
        String host = request.getHeader("Host");
        return host != null && (origin.equals("http://" + host) || origin.equals("https://" + host));
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
        if (sessionId == null) {
            return Response.ok(body).header("Cache-Control", "no-store").build();
        }
        ConsoleSessions.Live live = sessions.find(sessionId).orElse(null);
        if (live == null) {
            return cleared(Response.ok(body)).build();
        }
        sessions.authenticate(sessionId, csrf);
        body.put("signed_in", true);
        body.put("admin", live.caller().name());
        body.put("role", live.caller().identity().role());
        body.put("email", live.adminKey() ? null : live.administrator().email());
        body.put("admin_key", live.adminKey());
        body.put("expires_at", ServerTime.format(live.session().expiresAt()));
        return Response.ok(body).header("Cache-Control", "no-store").build();
    }

    @POST
    @Path("/logout")
    public Response logout(@CookieParam(Sessions.COOKIE) String sessionId,
            @HeaderParam(Sessions.CSRF_HEADER) String csrf, @Context HttpServletRequest request) {
        if (sessions.find(sessionId).isEmpty()) {
            return cleared(Response.fromResponse(ErrorResponses.of(request, 401, "unauthorized",
                    "Not signed in.", Map.of()))).build();
        }
        sessions.authenticate(sessionId, csrf);
        sessions.end(sessionId);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("signed_out", true);
        body.put("provider_sign_out", signIn == null ? null : signIn.providerSignOut());
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
