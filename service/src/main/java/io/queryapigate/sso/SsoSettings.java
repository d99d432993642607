package io.queryapigate.sso;

import io.queryapigate.auth.AdminRole;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Console sign-in as configured ({@code sso:}), checked: the identity provider's issuer, this server as its
 * confidential client, where the provider sends people back, and which groups give which administrator role.
 *
 * @param issuer       the provider's issuer, exactly as its ID tokens name it (its discovery document lives under it)
 * @param clientId     this server's client id at the provider; ID tokens must be issued to it
 * @param clientSecret the client secret, or a secret reference resolved when a code is exchanged
 * @param redirectUri  the callback as the provider calls it; null: derived from each request's own address
 * @param scopes       what the authorization request asks for, space-separated, {@code openid} among them
 * @param groupsClaim  the ID token claim (a dotted path) listing the person's groups
 * @param roles        group to role; several groups give the most capable of their roles, none no sign-in
 * @param sessionTtl   how long a console session lasts
 * @param loginTtl     how long a started sign-in may take
 */
public record SsoSettings(String issuer, String clientId, String clientSecret, URI redirectUri, String scopes,
        String groupsClaim, Map<String, AdminRole> roles, Duration sessionTtl, Duration loginTtl) {
    /** Where the provider sends the browser back to, on this server. */
    public static final String CALLBACK_PATH = "/auth/sso/callback";

    public SsoSettings {
        roles = Map.copyOf(roles);
    }

    /** The most capable role {@code groups} map to, or null for none. */
    public AdminRole roleFor(List<String> groups) {
        AdminRole best = null;
        for (String group : groups) {
            AdminRole role = roles.get(group);
            if (role == null && group.startsWith("/")) {
                role = roles.get(group.substring(1)); // Keycloak's full group path
            }
            if (role != null && (best == null || role.ordinal() < best.ordinal())) {
                best = role;
            }
        }
        return best;
    }
}
