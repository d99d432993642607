package io.queryapigate.workspaces;

import io.queryapigate.scope.Scope;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /w/{workspace}/rest} is {@code /rest} acting in that workspace, for every route (the management API,
 * {@code /q}, {@code /execute_sql}, ...), with no route of its own: the prefix is taken off before routing and the
 * name kept for {@link WorkspaceSettling}, which decides once the caller is known whether it may act there. Every
 * request starts in the default {@link Scope}.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 500)
public final class WorkspacePrefix implements ContainerRequestFilter {
    /** The request property holding the workspace the path named. */
    public static final String NAMED = "queryapigate.workspace";
    private static final Pattern PREFIX = Pattern.compile("w/([A-Za-z0-9][A-Za-z0-9_.-]{0,99})(/.*)?");

    @Override
    public void filter(ContainerRequestContext request) {
        Scope.set(null);
        URI base = request.getUriInfo().getBaseUri();
        URI uri = request.getUriInfo().getRequestUri();
        int start = base.getRawPath().length();
        if (!uri.getRawPath().startsWith("w/", start)) { // every other request: nothing allocated
            return;
        }
        Matcher m = PREFIX.matcher(uri.getRawPath().substring(start));
        if (!m.matches()) {
            return;
        }
        String rest = m.group(2) == null ? "" : m.group(2).substring(1);
        request.setProperty(NAMED, m.group(1));
        request.setRequestUri(base, URI.create(base + rest + (uri.getRawQuery() == null ? ""
                : "?" + uri.getRawQuery())));
    }
}
