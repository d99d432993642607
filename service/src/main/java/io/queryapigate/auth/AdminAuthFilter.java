package io.queryapigate.auth;

import io.queryapigate.http.RequestIds;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * HTTP Basic authentication in front of every servlet of the admin port (health checks, metrics, threads, tasks),
 * except the configured open paths. Dropwizard has no admin authentication of its own, so this is a plain servlet
 * filter on the admin context.
 *
 * <p>A path is the servlet path plus path info, as Jetty resolved and normalised it to pick the servlet, so
 * {@code /ping/../threads} is {@code /threads}; open paths match exactly. Username and password are compared as
 * SHA-256 digests with {@link MessageDigest#isEqual} (constant time for the digests' fixed length), both always,
 * so the answer's timing does not say which one was wrong. A refusal is 401 with {@code WWW-Authenticate: Basic}
 * and the error envelope.
 */
public final class AdminAuthFilter implements Filter {
    static final String REALM = "queryapigate-admin";

    private final byte[] usernameSha256;
    private final byte[] passwordSha256;
    private final Set<String> openPaths;

    public AdminAuthFilter(String username, byte[] passwordSha256, Set<String> openPaths) {
        this.usernameSha256 = KeyHasher.sha256(username);
        this.passwordSha256 = passwordSha256.clone();
        this.openPaths = Set.copyOf(openPaths);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        if (openPaths.contains(path(request)) || authenticated(request.getHeader("Authorization"))) {
            chain.doFilter(req, res);
            return;
        }
        String id = RequestIds.accept(request.getHeader(RequestIds.HEADER));
        if (id == null) {
            id = RequestIds.generate();
        }
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader(RequestIds.HEADER, id);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        // the id holds only [A-Za-z0-9._:-] (RequestIds.accept), so it needs no JSON escaping
        response.getWriter().write("{\"error\":\"The admin port requires credentials (HTTP Basic, adminAuth in the"
                + " configuration).\",\"code\":\"unauthorized\",\"request_id\":\"" + id + "\"}");
    }

    static String path(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        return (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    }

    boolean authenticated(String header) {
        if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        boolean user = MessageDigest.isEqual(usernameSha256, KeyHasher.sha256(decoded.substring(0, colon)));
        boolean password = MessageDigest.isEqual(passwordSha256, KeyHasher.sha256(decoded.substring(colon + 1)));
        return user & password;
    }
}
