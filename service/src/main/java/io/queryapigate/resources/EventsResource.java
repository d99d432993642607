package io.queryapigate.resources;

import io.dropwizard.auth.Auth;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import io.queryapigate.live.LiveTail;
import io.queryapigate.live.Recheck;
import io.queryapigate.workspaces.WorkspacePrefix;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /events}: the calls the caller may see, live, as Server-Sent Events ({@code live.LiveTail}): a key its
 * own, an administrator its workspace's. Filters {@code type}, {@code kind}, {@code query}, {@code connection},
 * {@code status}; {@code Last-Event-ID} (or {@code ?last_event_id=}) resumes after that event.
 */
@Path("/events")
public class EventsResource {
    /** The media type of the stream. */
    public static final String EVENT_STREAM = "text/event-stream";

    private final LiveTail tail;
    private final Authenticator<String, Caller> credentials;
    private final ApiKeyAuthFilter.Sessions sessions;

    /**
     * @param credentials what a stream's key or token is checked against again
     * @param sessions    what a stream's console session is checked against again; null without sign-in
     */
    public EventsResource(LiveTail tail, Authenticator<String, Caller> credentials,
            ApiKeyAuthFilter.Sessions sessions) {
        this.tail = tail;
        this.credentials = credentials;
        this.sessions = sessions;
    }

    @GET
    @Produces(MediaType.WILDCARD)
    public Response events(@Auth Caller caller, @Context HttpServletRequest request, @Context HttpHeaders headers,
            @QueryParam("type") String type, @QueryParam("kind") String kind, @QueryParam("query") String query,
            @QueryParam("connection") String connection, @QueryParam("status") String status,
            @HeaderParam("Last-Event-ID") String lastEventIdHeader,
            @QueryParam("last_event_id") String lastEventIdParam) {
        boolean named = request.getAttribute(WorkspacePrefix.NAMED) != null;
        Long lastEventId = lastEventId(lastEventIdHeader != null ? lastEventIdHeader : lastEventIdParam);
        return Response.ok(tail.open(caller, named, type, kind, query, connection, status, lastEventId,
                        recheck(headers)), EVENT_STREAM)
                .header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no")
                .build();
    }

    /** The id to resume after; anything but a whole number starts a live-only stream, as in the original. */
    static Long lastEventId(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > 18 || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        return Long.parseLong(raw);
    }

    /** The request's credential, checked again as the filter checked it. */
    private Recheck recheck(HttpHeaders headers) {
        String key = headers.getHeaderString(ApiKeyAuthFilter.HEADER);
        String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (key == null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            key = authorization.substring(7).strip();
        }
        if (key != null) {
            String secret = key;
            return () -> {
                try {
                    return credentials.authenticate(secret).isPresent();
                } catch (AuthenticationException | RuntimeException e) {
                    return false;
                }
            };
        }
        Cookie cookie = headers.getCookies().get(ApiKeyAuthFilter.Sessions.COOKIE);
        String csrf = headers.getHeaderString(ApiKeyAuthFilter.Sessions.CSRF_HEADER);
        if (cookie != null && sessions != null) {
            return () -> {
                try {
                    return sessions.authenticate(cookie.getValue(), csrf) != null;
                } catch (ApiException e) {
                    return false;
                }
            };
        }
        return () -> false;
    }
}
