package io.queryapigate.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import io.modelcontextprotocol.common.McpTransportContext;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.config.McpConfig;
import io.queryapigate.errors.ApiException;
import io.queryapigate.errors.ErrorBody;
import io.queryapigate.http.Bodies;
import io.queryapigate.http.RequestIds;
import io.queryapigate.limits.Limiter;
import io.queryapigate.limits.Limits;
import io.queryapigate.workspaces.WorkspaceSettling;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * In front of the MCP transport, at {@code /mcp} and {@code /w/{workspace}/mcp}, once per HTTP request, as REST
 * applies it: the per-address rate limit, authentication ({@code X-API-Key}, or {@code Authorization: Bearer} with a
 * key, an admin token or a JWT; with {@code mcp.oauth} a bearer JWT must be one issued for the MCP server, with its
 * audience and scope), the key's {@code allowed_ips}, its own rate limit, and the workspace settled. A refusal is the
 * HTTP answer (401, 403, 404, 429 in the JSON envelope, {@code Retry-After} on 429, {@code WWW-Authenticate} on 401
 * and 403), where an MCP client looks for it; a caller let in travels to the handlers in the transport context.
 */
public final class McpGate implements Filter {
    /** The request attribute holding the caller let in. */
    static final String CALLER = "queryapigate.mcp.caller";
    private static final Pattern PREFIXED = Pattern.compile("/w/([A-Za-z0-9][A-Za-z0-9_.-]{0,99})" + McpConfig.PATH
            + "/?");

    private final Authenticator<String, Caller> credentials;
    private final Authenticator<String, Caller> oauthTokens;
    private final McpConfig.OAuth oauth;
    private final Limits limits;
    private final ClientAddress addresses;
    private final WorkspaceSettling settling;
    private final HttpServlet transport;
    private final ObjectMapper mapper;

    /**
     * @param credentials REST's authenticator (keys, admin tokens, JWTs of the configured issuers)
     * @param oauthTokens the verifier of tokens issued for the MCP server, or null without {@code mcp.oauth}
     * @param transport the MCP transport, served for {@code /w/{workspace}/mcp} (it is mapped at {@code /mcp})
     */
    public McpGate(Authenticator<String, Caller> credentials, Authenticator<String, Caller> oauthTokens,
            McpConfig.OAuth oauth, Limits limits, ClientAddress addresses, WorkspaceSettling settling,
            HttpServlet transport, ObjectMapper mapper) {
        this.credentials = credentials;
        this.oauthTokens = oauthTokens;
        this.oauth = oauth;
        this.limits = limits;
        this.addresses = addresses;
        this.settling = settling;
        this.transport = transport;
        this.mapper = mapper;
    }

    /** The caller the gate let in, for the transport context. */
    public static McpTransportContext context(HttpServletRequest request) {
        return McpTransportContext.create(Map.of(McpHandler.CALLER, request.getAttribute(CALLER),
                McpHandler.REQUEST_ID, RequestIds.of(request)));
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String workspace = null;
        if (!path.equals(McpConfig.PATH)) {
            Matcher m = PREFIXED.matcher(path);
            if (!m.matches()) {
                chain.doFilter(req, res); // another /w/ route: Jersey's
                return;
            }
            workspace = m.group(1);
        }
        String key = request.getHeader(ApiKeyAuthFilter.HEADER);
        String authorization = request.getHeader("Authorization");
        boolean presented = key != null || authorization != null;
        try {
            Limiter.Decision address = limits.addressDecision(request.getRemoteAddr(),
                    request.getHeader("X-Forwarded-For"));
            rateHeaders(response, address, "X-RateLimit-Limit", "X-RateLimit-Remaining");
            Limits.refuseAddress(address);
            Caller caller = authenticate(request, key, authorization);
            Limiter.Decision own = limits.keyDecision(caller);
            rateHeaders(response, own, "X-RateLimit-Key-Limit", "X-RateLimit-Key-Remaining");
            Limits.refuseKey(own);
            request.setAttribute(CALLER, settling.settle(caller, workspace));
        } catch (ApiException e) {
            refuse(request, response, e, presented);
            return;
        }
        if (workspace == null) {
            chain.doFilter(req, res);
        } else {
            transport.service(req, res);
        }
    }

    private Caller authenticate(HttpServletRequest request, String key, String authorization) {
        String secret = key;
        boolean bearer = false;
        if (secret == null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            secret = authorization.substring(7).strip();
            bearer = true;
        }
        if (secret == null || secret.isEmpty()) {
            throw unauthorized();
        }
        boolean oauthToken = bearer && oauthTokens != null && looksLikeJwt(secret);
        Optional<Caller> found;
        try {
            found = (oauthToken ? oauthTokens : credentials).authenticate(secret);
        } catch (AuthenticationException e) {
            found = Optional.empty();
        }
        Caller caller = found.orElseThrow(McpGate::unauthorized);
        if (oauthToken && !scopes(secret).contains(oauth.getScope())) {
            throw ApiException.forbidden("insufficient_scope", "The token does not carry the scope '"
                    + oauth.getScope() + "' this MCP server needs.");
        }
        List<String> allowedIps = caller.grants().allowedIps();
        if (!caller.admin() && allowedIps != null && !fromAllowedAddress(request, allowedIps)) {
            throw unauthorized(); // as an unknown key, as REST answers it
        }
        return caller;
    }

    private static ApiException unauthorized() {
        return new ApiException(401, "unauthorized", "Unauthorized: missing or invalid X-API-Key or bearer token.");
    }

    private boolean fromAllowedAddress(HttpServletRequest request, List<String> allowed) {
        return addresses.within(request.getRemoteAddr(), request.getHeader("X-Forwarded-For"), allowed);
    }

    /** The scopes of a token already verified: its {@code scope} (space-separated) or {@code scp} (a list). */
    private List<String> scopes(String token) {
        try {
            String payload = token.substring(token.indexOf('.') + 1, token.lastIndexOf('.'));
            JsonNode claims = mapper.readTree(new String(Base64.getUrlDecoder().decode(payload),
                    StandardCharsets.UTF_8));
            if (claims.path("scope").isTextual()) {
                return List.of(claims.get("scope").asText().trim().split("\\s+"));
            }
            if (claims.path("scp").isArray()) {
                return mapper.convertValue(claims.get("scp"), mapper.getTypeFactory()
                        .constructCollectionType(List.class, String.class));
            }
            return List.of();
        } catch (IOException | IllegalArgumentException e) {
            return List.of();
        }
    }

    private static boolean looksLikeJwt(String secret) {
        int first = secret.indexOf('.');
        return first > 0 && secret.indexOf('.', first + 1) > first + 1;
    }

    private static void rateHeaders(HttpServletResponse response, Limiter.Decision d, String limit,
            String remaining) {
        if (d != null) {
            response.setHeader(limit, Long.toString(d.limit()));
            response.setHeader(remaining, Long.toString(d.remaining()));
        }
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, ApiException e, boolean presented)
            throws IOException {
        Bodies.discard(request.getInputStream()); // the connection stays open for the client's next request
        response.setStatus(e.status());
        response.setContentType("application/json");
        if (e.status() == 401 || e.status() == 403) {
            response.setHeader("WWW-Authenticate", ProtectedResource.challenge(oauth, e.status(), e.code(),
                    presented));
        }
        Long retryAfter = null;
        if (e.retryAfterSeconds() > 0) {
            retryAfter = e.retryAfterSeconds();
            response.setHeader("Retry-After", Long.toString(retryAfter));
        }
        mapper.writeValue(response.getOutputStream(), new ErrorBody(e.getMessage(), e.code(), null,
                RequestIds.of(request), null, retryAfter, e.extra()));
    }
}
