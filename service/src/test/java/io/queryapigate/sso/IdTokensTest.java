package io.queryapigate.sso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.queryapigate.errors.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * ID tokens forged every way a sign-in could be fooled, against keys made here (the provider's JWKS as a key set):
 * each is refused with 400 {@code sso_id_token}, and only the honest one passes.
 */
class IdTokensTest {
    private static final String ISSUER = "https://id.example.com/realms/corp";
    private static final String CLIENT = "queryapigate-console";
    private static final String NONCE = "n-0123456789";
    private static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");
    private static final RSAKey RSA = generate();
    private static final ECKey EC = ecKey();
    private static final RSAKey STRANGER = generate();

    private final IdTokens tokens = new IdTokens(ISSUER, CLIENT,
            new ImmutableJWKSet<>(new JWKSet(List.of(RSA.toPublicJWK(), EC.toPublicJWK()))), Duration.ofMinutes(10),
            Clock.fixed(NOW, ZoneOffset.UTC));

    private static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyID("rsa-" + System.nanoTime()).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ECKey ecKey() {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JWTClaimsSet.Builder honest() {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(List.of(CLIENT, "queryapigate-api"))
                .claim("azp", CLIENT).subject("a11ce").claim("nonce", NONCE)
                .issueTime(Date.from(NOW.minusSeconds(5))).expirationTime(Date.from(NOW.plusSeconds(300)))
                .claim("groups", List.of("qag-owners")).claim("preferred_username", "alice");
    }

    private static String signed(JWTClaimsSet claims, RSAKey key) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String with(Consumer<JWTClaimsSet.Builder> change) {
        JWTClaimsSet.Builder b = honest();
        change.accept(b);
        return signed(b.build(), RSA);
    }

    private void assertRefused(String token) {
        assertThatThrownBy(() -> tokens.verify(token, NONCE)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("sso_id_token");
        });
    }

    @Test
    void theHonestTokenPassesWithItsClaims() throws Exception {
        JWTClaimsSet claims = tokens.verify(signed(honest().build(), RSA), NONCE);
        assertThat(claims.getSubject()).isEqualTo("a11ce");
        SignedJWT ec = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec-1").build(),
                honest().build());
        ec.sign(new ECDSASigner(EC));
        assertThat(tokens.verify(ec.serialize(), NONCE).getSubject()).as("an EC key of the provider").isEqualTo("a11ce");
        assertThat(tokens.verify(with(b -> b.audience(CLIENT).claim("azp", null)), NONCE).getSubject())
                .as("one audience, no azp").isEqualTo("a11ce");
    }

    @Test
    void anotherSignInsNonceOrNoneIsRefused() {
        assertThatThrownBy(() -> tokens.verify(signed(honest().build(), RSA), "n-another-sign-in"))
                .hasFieldOrPropertyWithValue("code", "sso_id_token");
        assertRefused(with(b -> b.claim("nonce", null)));
        assertRefused(with(b -> b.claim("nonce", 12345)));
    }

    @Test
    void anotherIssuerAudienceOrAuthorizedPartyIsRefused() {
        assertRefused(with(b -> b.issuer("https://evil.example.com/realms/corp")));
        assertRefused(with(b -> b.issuer(ISSUER + "/")));
        assertRefused(with(b -> b.audience("reporting-app").claim("azp", "reporting-app")));
        assertRefused(with(b -> b.audience(List.of("reporting-app", CLIENT)).claim("azp", "reporting-app")));
        assertRefused(with(b -> b.audience(List.of("reporting-app", CLIENT)).claim("azp", null)));
        assertRefused(with(b -> b.audience(CLIENT).claim("azp", "other-app")));
        assertRefused(with(b -> b.audience((String) null)));
    }

    @Test
    void expiredFutureOrStaleTokensAreRefused() {
        assertRefused(with(b -> b.expirationTime(Date.from(NOW.minusSeconds(31)))));
        assertRefused(with(b -> b.expirationTime(null)));
        assertRefused(with(b -> b.issueTime(Date.from(NOW.plusSeconds(120)))));
        assertRefused(with(b -> b.issueTime(Date.from(NOW.minus(Duration.ofMinutes(11))))));
        assertRefused(with(b -> b.issueTime(null)));
        assertThat(tokens.verify(with(b -> b.expirationTime(Date.from(NOW.minusSeconds(10)))), NONCE))
                .as("within the skew").isNotNull();
    }

    @Test
    void aTokenWithoutSubjectIsRefused() {
        assertRefused(with(b -> b.subject(null)));
        assertRefused(with(b -> b.subject("")));
    }

    @Test
    void unsignedOrWronglySignedTokensAreRefused() throws Exception {
        assertRefused(new PlainJWT(honest().build()).serialize());
        assertRefused(signed(honest().build(), STRANGER));
        SignedJWT stolenKid = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(RSA.getKeyID()).build(),
                honest().build());
        stolenKid.sign(new RSASSASigner(STRANGER));
        assertRefused(stolenKid.serialize());
        // HS256 "signed" with the provider's public key, the classic algorithm confusion
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(RSA.getKeyID()).build(),
                honest().build());
        hmac.sign(new MACSigner(RSA.toPublicJWK().toJSONString().repeat(2).getBytes(StandardCharsets.UTF_8)));
        assertRefused(hmac.serialize());
        // RS256 header naming the EC key
        SignedJWT mismatched = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("ec-1").build(),
                honest().build());
        mismatched.sign(new RSASSASigner(RSA));
        assertRefused(mismatched.serialize());
    }

    @Test
    void aClaimInjectedAfterSigningIsRefused() {
        String[] parts = signed(honest().build(), RSA).split("\\.");
        String injected = Base64URL.encode(honest().claim("groups", List.of("qag-owners", "root")).subject("bob")
                .build().toString()).toString();
        assertRefused(parts[0] + "." + injected + "." + parts[2]);
        String header = Base64URL.encode("{\"alg\":\"none\",\"kid\":\"" + RSA.getKeyID() + "\"}").toString();
        assertRefused(header + "." + parts[1] + "." + parts[2]);
        assertRefused(header + "." + parts[1] + ".");
    }
}
