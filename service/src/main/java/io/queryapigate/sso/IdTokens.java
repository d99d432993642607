package io.queryapigate.sso;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.queryapigate.errors.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks an ID token from the provider's token endpoint: its signature with one of the provider's keys (JWKS) and
 * that key's own asymmetric algorithm (never {@code none}, never HMAC: the client secret is not a signing key here),
 * {@code iss} exactly the configured issuer, {@code aud} containing the client id, {@code azp} the client id when it
 * is present or the token has several audiences, {@code nonce} the one this sign-in sent, {@code exp} not passed and
 * {@code iat} neither in the future nor older than a sign-in may take (each within {@value #SKEW_SECONDS} seconds of
 * skew), and a {@code sub}. Anything else is 400 {@code sso_id_token}.
 */
public final class IdTokens {
    private static final Logger LOG = LoggerFactory.getLogger(IdTokens.class);
    static final int SKEW_SECONDS = 30;
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512, JWSAlgorithm.Ed25519, JWSAlgorithm.EdDSA);

    private final String issuer;
    private final String clientId;
    private final Duration maxAge;
    private final Clock clock;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    /**
     * @param keys   the provider's signing keys
     * @param maxAge the oldest an ID token may be ({@code iat}): the time a sign-in may take
     */
    public IdTokens(String issuer, String clientId, JWKSource<SecurityContext> keys, Duration maxAge, Clock clock) {
        this.issuer = issuer;
        this.clientId = clientId;
        this.maxAge = maxAge;
        this.clock = clock;
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(clientId),
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "iat", "exp", "nonce"), null) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        claims.setMaxClockSkew(SKEW_SECONDS);
        processor.setJWTClaimsSetVerifier(claims);
    }

    /** The verified claims of {@code idToken}, sent in answer to the sign-in that sent {@code nonce}. */
    public JWTClaimsSet verify(String idToken, String nonce) {
        JWTClaimsSet claims;
        try {
            claims = processor.process(idToken, null);
        } catch (KeySourceException e) {
            LOG.warn("SSO: the identity provider's keys could not be read: {}", e.getMessage());
            throw new ApiException(503, "sso_unreachable", "The identity provider's keys cannot be read: try again"
                    + " shortly.");
        } catch (ParseException | BadJOSEException | JOSEException e) {
            throw refused("refused ID token: " + e.getMessage());
        }
        String sent = stringClaim(claims, "nonce");
        if (sent == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                nonce.getBytes(StandardCharsets.UTF_8))) {
            throw refused("the ID token's nonce is not this sign-in's");
        }
        List<String> audience = claims.getAudience();
        String azp = stringClaim(claims, "azp");
        if ((audience.size() > 1 || claims.getClaim("azp") != null) && !clientId.equals(azp)) {
            throw refused("the ID token was issued to '" + azp + "', not to this server's client");
        }
        long now = clock.millis();
        long issuedAt = claims.getIssueTime().getTime();
        if (issuedAt > now + SKEW_SECONDS * 1000L || issuedAt < now - maxAge.toMillis() - SKEW_SECONDS * 1000L) {
            throw refused("the ID token's iat is out of bounds");
        }
        if (stringClaim(claims, "sub") == null || claims.getSubject().isEmpty()) {
            throw refused("the ID token names no subject");
        }
        return claims;
    }

    /** A claim that is text, else null. */
    static String stringClaim(JWTClaimsSet claims, String name) {
        return claims.getClaim(name) instanceof String s ? s : null;
    }

    private ApiException refused(String why) {
        LOG.warn("SSO: {} (issuer {})", why, issuer);
        return new ApiException(400, "sso_id_token", "The identity provider's answer could not be verified: sign in"
                + " again.");
    }
}
