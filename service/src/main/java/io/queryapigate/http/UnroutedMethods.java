package io.queryapigate.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Set;

/**
 * Sends a request whose method no route has (TRACE, or any other token) straight to Jersey, which answers it 405
 * with the route's {@code Allow} in the envelope: Dropwizard's {@code allowedMethods} filter would answer a bare 405
 * without {@code Allow}, which RFC 9110 requires. Methods routes have still pass that filter, so an operator who
 * leaves one out of {@code allowedMethods} keeps it refused. Jersey never echoes a TRACE. On the API port only.
 */
public final class UnroutedMethods implements Filter {
    /** The methods the resources serve; anything else is refused by Jersey whatever the path. */
    private static final Set<String> ROUTED = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final String jerseyServlet;

    /** @param jerseyServlet the name of the servlet Jersey runs in */
    public UnroutedMethods(String jerseyServlet) {
        this.jerseyServlet = jerseyServlet;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        if (req instanceof HttpServletRequest request && !ROUTED.contains(request.getMethod())) {
            request.getServletContext().getNamedDispatcher(jerseyServlet).forward(req, res);
            return;
        }
        chain.doFilter(req, res);
    }
}
