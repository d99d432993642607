package io.queryapigate.jwt;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queryapigate.config.JwtConfig;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One configured issuer: checks that a token is its own. The signature with this issuer's keys only (its JWKS, or
 * its HMAC secret) and only with an algorithm it allows, the key's type matching that algorithm (an RSA public key
 * never serves as an HMAC secret; a key that names its own algorithm is used for that one only); {@code iss}
 * exactly; {@code aud} naming one of its audiences; {@code exp} required, {@code exp}/{@code nbf}/{@code iat} within
 * its clock skew.
 */
final class TrustedIssuer {
    private final JwtConfig.Issuer config;
    private final Set<String> algorithms;
    private final Jwks jwks;
    private final MACVerifier hmac;
    private final long skewMs;

    TrustedIssuer(JwtConfig.Issuer config, HttpClient http, LongSupplier clock) {
        this.config = config;
        this.algorithms = Set.copyOf(config.getAlgorithms());
        this.skewMs = config.getClockSkew().toMilliseconds();
        if (config.getHmacSecret() != null) {
            try {
                this.hmac = new MACVerifier(config.getHmacSecret().getBytes(StandardCharsets.UTF_8));
            } catch (JOSEException e) {
                throw new IllegalStateException("jwt: issuer " + config.getIssuer() + ": hmacSecret: "
                        + e.getMessage(), e);
            }
            this.jwks = null;
        } else {
            this.hmac = null;
            this.jwks = new Jwks(config.getIssuer(), config.getJwksUrl(), http, clock);
        }
    }

    JwtConfig.Issuer config() {
        return config;
    }

    Jwks jwks() {
        return jwks;
    }

    /** The token's claims when this issuer signed it and it is valid now, else null. */
    JWTClaimsSet verify(SignedJWT token, long nowMs) {
        JWSAlgorithm alg = token.getHeader().getAlgorithm();
        if (alg == null || !algorithms.contains(alg.getName()) || !signedByUs(token, alg)) {
            return null;
        }
        JWTClaimsSet claims;
        try {
            claims = token.getJWTClaimsSet();
        } catch (ParseException e) {
            return null;
        }
        return valid(claims, nowMs) ? claims : null;
    }

    private boolean signedByUs(SignedJWT token, JWSAlgorithm alg) {
        try {
            if (hmac != null) {
                return JWSAlgorithm.Family.HMAC_SHA.contains(alg) && token.verify(hmac);
            }
            for (JWK key : jwks.candidates(token.getHeader().getKeyID())) {
                JWSVerifier verifier = verifier(alg, key);
                if (verifier != null && token.verify(verifier)) {
                    return true;
                }
            }
            return false;
        } catch (JOSEException | IllegalStateException e) {
            return false;
        }
    }

    /** A verifier of {@code alg} with this key, or null when the key is not of that algorithm's type. */
    private static JWSVerifier verifier(JWSAlgorithm alg, JWK key) throws JOSEException {
        if (key.getAlgorithm() != null && !key.getAlgorithm().getName().equals(alg.getName())) {
            return null;
        }
        if (key instanceof RSAKey rsa && (JWSAlgorithm.Family.RSA.contains(alg))) {
            return new RSASSAVerifier(rsa);
        }
        if (key instanceof ECKey ec && JWSAlgorithm.Family.EC.contains(alg)
                && ec.getCurve().equals(Curve.forJWSAlgorithm(alg).iterator().next())) {
            return new ECDSAVerifier(ec);
        }
        if (key instanceof OctetKeyPair okp && JWSAlgorithm.EdDSA.equals(alg) && Curve.Ed25519.equals(okp.getCurve())) {
            return new Ed25519Verifier(okp);
        }
        return null;
    }

    private boolean valid(JWTClaimsSet claims, long now) {
        if (!config.getIssuer().equals(claims.getIssuer())) {
            return false;
        }
        Date exp = claims.getExpirationTime();
        if (exp == null || now > exp.getTime() + skewMs) {
            return false;
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now + skewMs < nbf.getTime()) {
            return false;
        }
        Date iat = claims.getIssueTime();
        if (iat != null && iat.getTime() > now + skewMs) {
            return false;
        }
        List<String> audiences = config.getAudiences();
        if (audiences.isEmpty()) {
            return true;
        }
        List<String> aud = claims.getAudience();
        for (String a : aud) {
            if (audiences.contains(a)) {
                return true;
            }
        }
        return false;
    }
}
