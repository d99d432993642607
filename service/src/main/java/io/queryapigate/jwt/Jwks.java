package io.queryapigate.jwt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import io.queryapigate.config.JwtConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One issuer's published signing keys (JWKS), fetched on first use and kept. The JWKS's address is configured, or
 * discovered from {@code {issuer}/.well-known/openid-configuration} (whose {@code issuer} must be the issuer itself).
 * A token naming a key id this set lacks makes it fetch again, at most once per {@link #REFETCH_MS} (a provider
 * rotating its keys publishes the new one well before signing with it), so tokens with made-up key ids cannot make
 * this server hammer the provider; keys older than {@link #MAX_AGE_MS} are fetched again on the next use, keeping
 * the old ones if that fails.
 */
final class Jwks {
    static final long REFETCH_MS = 30_000;
    static final long MAX_AGE_MS = 3_600_000;
    private static final Logger LOG = LoggerFactory.getLogger(Jwks.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BYTES = 512 * 1024;

    private final String issuer;
    private final String configuredUrl;
    private final HttpClient http;
    private final LongSupplier clock;
    private final AtomicLong fetches = new AtomicLong();
    private volatile JWKSet keys;
    private volatile long fetchedAt;
    private long lastAttempt = Long.MIN_VALUE;
    private String url;

    Jwks(String issuer, String configuredUrl, HttpClient http, LongSupplier clock) {
        this.issuer = issuer;
        this.configuredUrl = configuredUrl;
        this.url = configuredUrl;
        this.http = http;
        this.clock = clock;
    }

    /** The signing keys that may have signed a token naming {@code kid} (every signing key when it names none). */
    List<JWK> candidates(String kid) {
        JWKSet known = keys;
        long now = clock.getAsLong();
        if (known != null && now - fetchedAt < MAX_AGE_MS) {
            List<JWK> found = matching(known, kid);
            if (!found.isEmpty()) {
                return found;
            }
        }
        synchronized (this) {
            known = keys;
            if (known != null && now - fetchedAt < MAX_AGE_MS) {
                List<JWK> found = matching(known, kid);
                if (!found.isEmpty()) {
                    return found;
                }
            }
            if (lastAttempt != Long.MIN_VALUE && now - lastAttempt < REFETCH_MS) {
                return known == null ? List.of() : matching(known, kid);
            }
            lastAttempt = now;
            try {
                keys = fetch();
                fetchedAt = now;
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not fetch the signing keys of issuer {} ({}): {}", issuer,
                        url == null ? "discovery" : url, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return keys == null ? List.of() : matching(keys, kid);
        }
    }

    /** How many times the keys were fetched (the JWKS, not discovery). */
    long fetches() {
        return fetches.get();
    }

    private static List<JWK> matching(JWKSet set, String kid) {
        List<JWK> out = new ArrayList<>(1);
        for (JWK k : set.getKeys()) {
            if ((kid == null || kid.equals(k.getKeyID())) && (k.getKeyUse() == null
                    || KeyUse.SIGNATURE.equals(k.getKeyUse())) && !k.isPrivate()) {
                out.add(k);
            }
        }
        return out;
    }

    private JWKSet fetch() throws IOException, InterruptedException {
        if (url == null) {
            url = discover();
        }
        fetches.incrementAndGet();
        try {
            return JWKSet.parse(get(url));
        } catch (java.text.ParseException e) {
            throw new IOException("not a JWK set: " + e.getMessage(), e);
        }
    }

    // OpenID Connect Discovery: the document's issuer must be the one configured, exactly
    private String discover() throws IOException, InterruptedException {
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        JsonNode doc = JSON.readTree(get(base + "/.well-known/openid-configuration"));
        if (!issuer.equals(doc.path("issuer").asText(null))) {
            throw new IOException("the discovery document names issuer " + doc.path("issuer") + ", not " + issuer);
        }
        String jwks = doc.path("jwks_uri").asText(null);
        if (jwks == null || !JwtConfig.safeKeysUrl(jwks)) {
            throw new IOException("the discovery document has no https jwks_uri (http only on localhost)");
        }
        return jwks;
    }

    private String get(String address) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(address)).timeout(Duration.ofSeconds(5))
                .header("Accept", "application/json").GET().build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IOException(address + " answered " + response.statusCode());
        }
        if (response.body().length > MAX_BYTES) {
            throw new IOException(address + " answered more than " + MAX_BYTES + " bytes");
        }
        return new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Jwks[" + issuer + (configuredUrl == null ? ", discovered" : ", " + configuredUrl) + "]";
    }
}
