package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.secrets.SecretResolver;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.sso.ConsoleSessions;
import io.queryapigate.sso.ConsoleSignIn;
import io.queryapigate.sso.OidcProvider;
import io.queryapigate.sso.SsoSettings;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;

/**
 * {@code sso:}: console sign-in through the organisation's identity provider (OpenID Connect, authorization code
 * flow with PKCE, this server a confidential client). Absent: no console sign-in. See docs/identity.md.
 */
public class SsoConfig {
    @NotEmpty
    @JsonProperty
    private String issuer;

    @NotEmpty
    @JsonProperty
    private String clientId;

    @NotEmpty
    @JsonProperty
    private String clientSecret;

    @JsonProperty
    private String redirectUri;

    @NotNull
    @JsonProperty
    private List<String> scopes = new ArrayList<>(List.of("openid", "profile", "email"));

    @NotEmpty
    @JsonProperty
    private String groupsClaim = "groups";

    @NotEmpty
    @JsonProperty
    private Map<String, String> roles = new LinkedHashMap<>();

    @NotNull
    @MinDuration(value = 5, unit = TimeUnit.MINUTES)
    @MaxDuration(value = 7, unit = TimeUnit.DAYS)
    @JsonProperty
    private Duration sessionTtl = Duration.hours(8);

    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MINUTES)
    @MaxDuration(value = 1, unit = TimeUnit.HOURS)
    @JsonProperty
    private Duration loginTtl = Duration.minutes(10);

    /** How long a console session lasts ({@code sso.sessionTtl}): sessions started with a key last as long. */
    public java.time.Duration sessionTtlValue() {
        return java.time.Duration.ofMillis(sessionTtl.toMilliseconds());
    }

    /**
     * Console sign-in as configured: its sessions in the store, the provider found through its discovery document.
     *
     * @throws IllegalArgumentException naming the key of a value that cannot work
     */
    public ConsoleSignIn build(Jdbi jdbi, SecretResolver secrets, ObjectMapper mapper, Clock clock, AuditLog audit,
            ConsoleSessions sessions) {
        SsoSettings settings = settings(secrets);
        HttpClient http = HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(5)).build();
        return new ConsoleSignIn(settings, new OidcProvider(settings.issuer(), http, mapper, clock),
                sessions, jdbi, secrets, http, mapper, clock, audit);
    }

    /**
     * The checked settings.
     *
     * @param secrets checks a client secret given as a reference ({@code ${env:...}}, {@code ${file:...}}, ...)
     * @throws IllegalArgumentException naming the key of a value that cannot work
     */
    public SsoSettings settings(SecretResolver secrets) {
        // kept as written: ID tokens must name exactly this issuer, trailing slash and all
        String checkedIssuer = url(issuer, "sso.issuer").toString();
        URI redirect = redirectUri == null || redirectUri.isBlank() ? null : url(redirectUri, "sso.redirectUri");
        if (redirect != null && !redirect.getPath().endsWith(SsoSettings.CALLBACK_PATH)) {
            throw new IllegalArgumentException("sso.redirectUri: must end with " + SsoSettings.CALLBACK_PATH
                    + ", the address the identity provider sends people back to");
        }
        if (secrets.isReference(clientSecret)) {
            try {
                secrets.check("sso", clientSecret);
            } catch (SecretUnavailableException e) {
                throw new IllegalArgumentException("sso.clientSecret: " + e.getMessage(), e);
            }
        }
        for (String scope : scopes) {
            if (scope == null || !scope.matches("[\\x21\\x23-\\x5B\\x5D-\\x7E]+")) {
                throw new IllegalArgumentException("sso.scopes: '" + scope + "' is not a scope (one word each)");
            }
        }
        if (!scopes.contains("openid")) {
            throw new IllegalArgumentException("sso.scopes: must include openid (the sign-in needs an ID token)");
        }
        Map<String, AdminRole> mapped = new LinkedHashMap<>();
        roles.forEach((group, role) -> {
            if (group == null || group.isBlank()) {
                throw new IllegalArgumentException("sso.roles: a group name is empty");
            }
            mapped.put(group, AdminRole.of(role == null ? null : role.strip().toLowerCase(Locale.ROOT))
                    .orElseThrow(() -> new IllegalArgumentException("sso.roles." + group + ": '" + role
                            + "' is not a role (owner, admin, developer, auditor)")));
        });
        return new SsoSettings(checkedIssuer, clientId, clientSecret, redirect, String.join(" ", scopes),
                groupsClaim, mapped, java.time.Duration.ofMillis(sessionTtl.toMilliseconds()),
                java.time.Duration.ofMillis(loginTtl.toMilliseconds()));
    }

    /** An https URL (http only for localhost and 127.0.0.1), without user, query or fragment. */
    private static URI url(String text, String key) {
        URI uri;
        try {
            uri = URI.create(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a URL");
        }
        String host = uri.getHost();
        boolean local = "localhost".equals(host) || "127.0.0.1".equals(host) || "[::1]".equals(host);
        if (host == null || !("https".equals(uri.getScheme()) || ("http".equals(uri.getScheme()) && local))) {
            throw new IllegalArgumentException(key + ": '" + text + "' must be an https:// URL (http:// only for"
                    + " localhost)");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(key + ": '" + text + "' must have no user, query or fragment");
        }
        return uri;
    }
}
