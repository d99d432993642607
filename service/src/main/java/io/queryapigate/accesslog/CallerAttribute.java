package io.queryapigate.accesslog;

import io.queryapigate.auth.Caller;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.security.Principal;

/**
 * Leaves who called in a request attribute for the request log ({@code %reqAttribute{qag.caller}}): {@code
 * key:<id>:<name>} for an API key, the name for an administrator or a signed-in user ({@code
 * administrator:<name>}, {@code user:<name>}), nothing before authentication or when it failed. Never a credential;
 * a name is written with anything outside {@code [A-Za-z0-9._@:-]} as {@code _}, so it cannot forge a log field.
 */
public final class CallerAttribute implements ContainerResponseFilter {
    /** The request attribute. */
    public static final String ATTRIBUTE = "qag.caller";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Principal who = request.getSecurityContext() == null ? null
                : request.getSecurityContext().getUserPrincipal();
        if (who instanceof Caller caller) {
            request.setProperty(ATTRIBUTE, describe(caller));
        }
    }

    static String describe(Caller caller) {
        String name = safe(caller.name());
        return switch (caller.identity().kind()) {
            case KEY -> "key:" + caller.keyId() + ":" + name;
            case BREAK_GLASS -> "admin-key";
            default -> caller.identity().kind().name().toLowerCase(java.util.Locale.ROOT) + ":" + name;
        };
    }

    private static String safe(String name) {
        if (name == null) {
            return "-";
        }
        StringBuilder out = new StringBuilder(Math.min(name.length(), 80));
        for (int i = 0; i < name.length() && i < 80; i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '@' || c == ':' || c == '-';
            out.append(ok ? c : '_');
        }
        return out.toString();
    }
}
