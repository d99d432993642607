package io.queryapigate.jwt;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.auth.Authenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.config.JwtConfig;
import io.queryapigate.params.Claims;
import io.queryapigate.store.PrincipalDao;
import java.net.http.HttpClient;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signed-in users: a JWT from one of the configured issuers ({@link JwtConfig}) becomes a {@link Caller}. The issuer
 * is picked by the token's own {@code iss} (unverified), and then only that issuer's keys and algorithms can make it
 * valid ({@link TrustedIssuer}). Who the user is: the issuer's {@code userClaim} ({@code sub} by default), named
 * {@code jwt:<user>} (key names cannot contain {@code :}, so the two never collide) and counted under their own key
 * id ({@link Caller#principalKeyId}), so rate limits, quotas, history and events are per person. What they may do:
 * the API-key role their {@code roleClaim} names (the first that exists, or the union of all with
 * {@code combineRoles}), else the {@code defaultRole}; a token naming no existing role is refused. Any failure is
 * an empty answer, which the filter turns into the same 401 as an unknown key.
 *
 * <p>A token verified once is remembered until it expires (an application sends the same token for its minutes of
 * life): its next calls skip the signature and the parsing, and only the role is looked up again (in memory), so a
 * changed role applies on the next request.
 */
public final class JwtAuthenticator implements Authenticator<String, Caller> {
    public static final String NAME_PREFIX = "jwt:";
    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
    private static final int MAX_TOKEN_LENGTH = 8192;
    private static final int MAX_VERIFIED = 4096;

    private final Map<String, TrustedIssuer> issuers = new HashMap<>();
    private final RoleGrants roles;
    private final Principals principals;
    private final Clock clock;
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    /** A token that passed verification: who it names, until when it is valid. */
    private record Verified(JwtConfig.Issuer issuer, Map<String, Object> claims, String name, String subject,
            long validUntil) {}

    public JwtAuthenticator(JwtConfig config, RoleGrants roles, PrincipalDao principals, Clock clock) {
        this(config, roles, principals, clock, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build());
    }

    JwtAuthenticator(JwtConfig config, RoleGrants roles, PrincipalDao principals, Clock clock, HttpClient http) {
        config.validate();
        for (JwtConfig.Issuer issuer : config.getIssuers()) {
            issuers.put(issuer.getIssuer(), new TrustedIssuer(issuer, http, clock::millis));
        }
        this.roles = roles;
        this.principals = new Principals(principals, clock::millis);
        this.clock = clock;
    }

    @Override
    public Optional<Caller> authenticate(String token) {
        if (token == null || token.length() > MAX_TOKEN_LENGTH) {
            return Optional.empty();
        }
        Verified known = verified.get(token);
        if (known != null) {
            if (clock.millis() <= known.validUntil()) {
                return caller(known, false);
            }
            verified.remove(token);
            return Optional.empty();
        }
        SignedJWT jwt;
        TrustedIssuer issuer;
        try {
            jwt = SignedJWT.parse(token); // a JWT with alg "none" is no signed JWT: refused here
            issuer = issuers.get(jwt.getJWTClaimsSet().getIssuer());
        } catch (ParseException | RuntimeException e) {
            return Optional.empty();
        }
        if (issuer == null) {
            return Optional.empty();
        }
        JWTClaimsSet claims = issuer.verify(jwt, clock.millis());
        if (claims == null) {
            return Optional.empty();
        }
        Verified fresh = verified(issuer.config(), claims);
        if (fresh == null) {
            return Optional.empty();
        }
        if (verified.size() >= MAX_VERIFIED) {
            verified.clear(); // a bound, not an eviction policy: those still in use are verified once more
        }
        verified.put(token, fresh);
        return caller(fresh, true);
    }

    /** How many times an issuer's keys were fetched (for tests: the refetch on an unknown key id is bounded). */
    long keyFetches(String issuer) {
        return issuers.get(issuer).jwks().fetches();
    }

    /** Who a verified token names, or null when it names no user. */
    private static Verified verified(JwtConfig.Issuer issuer, JWTClaimsSet token) {
        Map<String, Object> claims = withoutNulls(token.toJSONObject());
        Object user = Claims.lookup(claims, issuer.getUserClaim());
        if (!(user instanceof String || user instanceof Long || user instanceof Integer) || user.toString().isEmpty()) {
            return null;
        }
        String subject = token.getSubject() != null ? token.getSubject() : user.toString();
        long validUntil = token.getExpirationTime().getTime() + issuer.getClockSkew().toMilliseconds();
        return new Verified(issuer, Map.copyOf(claims), NAME_PREFIX + user, subject, validUntil);
    }

    /** The caller a verified token makes, under its role as the roles are now; {@code fresh}: first verified now. */
    private Optional<Caller> caller(Verified who, boolean fresh) {
        JwtConfig.Issuer issuer = who.issuer();
        List<RoleGrants.Role> found = roles(issuer, who.claims());
        if (found.isEmpty()) {
            if (fresh) {
                LOG.warn("A valid token of {} for {} names no existing role (jwt roleClaim {} / defaultRole {}):"
                        + " refused", issuer.getIssuer(), who.name(), issuer.getRoleClaim(), issuer.getDefaultRole());
            }
            return Optional.empty();
        }
        long id = principals.idOf(issuer.getIssuer(), who.subject(), who.name());
        RoleGrants.Role first = found.get(0);
        String role = first.name();
        Grants grants = first.grants();
        if (found.size() > 1) {
            List<Grants> all = new ArrayList<>(found.size());
            List<String> names = new ArrayList<>(found.size());
            for (RoleGrants.Role r : found) {
                all.add(r.grants());
                names.add(r.name());
            }
            role = String.join(",", names);
            grants = RoleUnion.of(all);
        }
        Identity identity = new Identity(Identity.Kind.USER, role, false, first.workspace(), Map.of(),
                issuer.getIssuer(), who.subject(), who.claims(), 0);
        return Optional.of(new Caller(Caller.principalKeyId(id), who.name(), false, grants, identity));
    }

    /**
     * The roles the token maps to: those its role claim names, then the default role; the first that exists, or,
     * with {@code combineRoles}, every one that exists in the first one's workspace. With a {@code workspace} on the
     * issuer, only roles of that workspace count.
     */
    private List<RoleGrants.Role> roles(JwtConfig.Issuer issuer, Map<String, Object> claims) {
        List<String> wanted = new ArrayList<>(4);
        if (issuer.getRoleClaim() != null) {
            Object value = Claims.lookup(claims, issuer.getRoleClaim());
            if (value instanceof String s) {
                wanted.add(s);
            } else if (value instanceof List<?> list) {
                for (Object v : list) {
                    if (v instanceof String s) {
                        wanted.add(s);
                    }
                }
            }
        }
        if (issuer.getDefaultRole() != null) {
            wanted.add(issuer.getDefaultRole());
        }
        List<RoleGrants.Role> found = new ArrayList<>(1);
        for (String name : wanted) {
            Optional<RoleGrants.Role> role = roles.role(name);
            if (role.isEmpty() || (issuer.getWorkspace() != null && !issuer.getWorkspace().equals(
                    role.get().workspace())) || found.contains(role.get())
                    || (!found.isEmpty() && !found.get(0).workspace().equals(role.get().workspace()))) {
                continue;
            }
            found.add(role.get());
            if (!issuer.isCombineRoles()) {
                break;
            }
        }
        return found;
    }

    // Identity keeps the claims in an immutable map, which holds no nulls
    private static Map<String, Object> withoutNulls(Map<String, Object> claims) {
        Map<String, Object> out = new LinkedHashMap<>(claims.size());
        claims.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }
}
