package io.queryapigate.audit;

import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;

/**
 * Who made an administrative change, as its audit entry records it.
 *
 * @param kind         {@code owner} (the break-glass administrator key), {@code administrator}, {@code key},
 *                     {@code user} (a signed-in user), {@code cli}, {@code startup}, or {@code server} (work of the
 *                     server's own, outside a request)
 * @param name         the administrator's, key's or user's name; {@code admin} for the break-glass owner; the command
 *                     for the CLI
 * @param via          how it proved who it is: {@code break-glass}, {@code token} (a personal admin token),
 *                     {@code sso} (a console session), {@code key}, {@code jwt}, {@code cli}, {@code startup},
 *                     {@code server}
 * @param credentialId the admin token's, console session's, key's or signed-in user's store id; 0 for none
 * @param address      the client's address (after trusted proxies), or null outside a request
 * @param requestId    the request's id, or null outside a request
 */
public record Actor(String kind, String name, String via, long credentialId, String address, String requestId) {
    /** The server's own work outside a request (no request, no command). */
    public static final Actor SERVER = new Actor("server", "-", "server", 0, null, null);
    /** What the server does while starting (the example APIs restored, a new audit key recorded). */
    public static final Actor STARTUP = new Actor("startup", "startup", "startup", 0, null, null);

    /** A command of the command line, named by what it does ({@code config apply}). */
    public static Actor cli(String command) {
        return new Actor("cli", command, "cli", 0, null, null);
    }

    /**
     * The caller of a request: {@code scheme} is its security context's authentication scheme ({@code Session} for
     * a console session).
     */
    public static Actor of(Caller caller, String scheme, String address, String requestId) {
        Identity identity = caller.identity();
        return switch (identity.kind()) {
            case BREAK_GLASS -> new Actor("owner", "admin", "break-glass", 0, address, requestId);
            case ADMINISTRATOR -> new Actor("administrator", caller.name(), "Session".equals(scheme) ? "sso" : "token",
                    identity.credentialId(), address, requestId);
            case USER -> new Actor("user", caller.name(), "jwt", Caller.principalId(caller.keyId()), address,
                    requestId);
            case KEY -> new Actor("key", caller.name(), "key", caller.keyId(), address, requestId);
        };
    }
}
