package io.queryapigate.sso;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.errors.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity provider's OpenID Connect discovery document ({@code ISSUER/.well-known/openid-configuration}), used
 * only when it names the configured issuer as its own and every endpoint in it is https (http only on localhost). It
 * is read when first needed, kept an hour, kept longer while it cannot be read again (an outage does not stop
 * sign-ins that worked a minute ago), and a provider never reached is asked again after 30 seconds, not on every
 * sign-in.
 */
public final class OidcProvider {
    private static final Logger LOG = LoggerFactory.getLogger(OidcProvider.class);
    static final Duration FRESH_FOR = Duration.ofHours(1);
    static final Duration RETRY = Duration.ofSeconds(30);
    static final int MAX_DOCUMENT = 1 << 20;

    /**
     * What this server uses of the document.
     *
     * @param tokenAuthMethods {@code token_endpoint_auth_methods_supported}, empty when not said
     * @param pkceMethods      {@code code_challenge_methods_supported}, empty when not said
     * @param endSession       {@code end_session_endpoint}, or null
     */
    public record Metadata(URI authorization, URI token, URI jwks, URI endSession, List<String> tokenAuthMethods,
            List<String> pkceMethods) {}

    private final String issuer;
    private final HttpClient http;
    private final ObjectMapper mapper;
    private final Clock clock;
    private Metadata cached;
    private Instant checkedAt;

    public OidcProvider(String issuer, HttpClient http, ObjectMapper mapper, Clock clock) {
        this.issuer = issuer;
        this.http = http;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** The provider's metadata, or 503 {@code sso_unreachable}. */
    public synchronized Metadata metadata() {
        Instant now = clock.instant();
        if (checkedAt != null) {
            Duration age = Duration.between(checkedAt, now);
            if (cached != null && age.compareTo(FRESH_FOR) < 0 || cached == null && age.compareTo(RETRY) < 0) {
                return orUnreachable(cached);
            }
        }
        Metadata found = fetch();
        checkedAt = now;
        if (found != null) {
            cached = found;
        } else if (cached != null) {
            LOG.warn("SSO: could not read the discovery document of {} again; using the one read before", issuer);
        }
        return orUnreachable(cached);
    }

    private static Metadata orUnreachable(Metadata m) {
        if (m == null) {
            throw new ApiException(503, "sso_unreachable", "The identity provider cannot be reached: try again"
                    + " shortly, or use a personal admin token.");
        }
        return m;
    }

    private Metadata fetch() {
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        URI url = URI.create(base + "/.well-known/openid-configuration");
        try {
            JsonNode doc = getJson(url);
            return usable(doc);
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("SSO: the discovery document {} is not usable: {}", url, e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private JsonNode getJson(URI url) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw new IOException("answered " + r.statusCode());
            }
            return mapper.readTree(in.readNBytes(MAX_DOCUMENT));
        }
    }

    private Metadata usable(JsonNode doc) {
        if (!issuer.equals(doc.path("issuer").asText(null))) {
            throw new IllegalArgumentException("it names the issuer '" + doc.path("issuer").asText("") + "', not '"
                    + issuer + "'");
        }
        return new Metadata(endpoint(doc, "authorization_endpoint", true), endpoint(doc, "token_endpoint", true),
                endpoint(doc, "jwks_uri", true), endpoint(doc, "end_session_endpoint", false),
                strings(doc.path("token_endpoint_auth_methods_supported")),
                strings(doc.path("code_challenge_methods_supported")));
    }

    private static URI endpoint(JsonNode doc, String name, boolean required) {
        JsonNode v = doc.path(name);
        if (!v.isTextual()) {
            if (required) {
                throw new IllegalArgumentException("it has no " + name);
            }
            return null;
        }
        URI uri = URI.create(v.asText());
        if (!secure(uri)) {
            throw new IllegalArgumentException(name + " '" + v.asText() + "' is not https");
        }
        return uri;
    }

    /** https, or http to this machine (a provider in development). */
    static boolean secure(URI uri) {
        String host = uri.getHost();
        return host != null && ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())
                && ("localhost".equals(host) || "127.0.0.1".equals(host) || "[::1]".equals(host)));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return List.copyOf(out);
    }
}
