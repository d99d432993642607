package io.queryapigate.config;

import io.queryapigate.auth.IpRange;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.http.Cors;
import io.dropwizard.util.Duration;
import java.util.regex.Pattern;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.ArrayList;
import java.util.List;

/** Server-wide security switches. */
public class SecurityConfig {
    private static final Pattern ORIGIN = Pattern.compile("[a-z][a-z0-9+.-]*://[^/\\s?#*]+");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /** The ceiling for writes: no key (not even the administrator key) writes while this is false. */
    private boolean allowWrites;

    /** Addresses or CIDR blocks of reverse proxies whose X-Forwarded-For is believed. */
    @NotNull
    private List<String> trustedProxies = new ArrayList<>();

    /** The HMAC key for {@code hash} masking rules; without it, hash rules are refused. */
    private String maskingKey;

    /** Origins browsers may call from ({@code https://app.example.com}, or {@code "*"}); empty = no CORS. */
    @NotNull
    private List<String> corsOrigins = new ArrayList<>();

    /** The methods a cross-origin page may use. */
    @NotNull
    private List<String> corsMethods = new ArrayList<>(Cors.METHODS);

    /** The request headers a cross-origin page may send. */
    @NotNull
    private List<String> corsHeaders = new ArrayList<>(Cors.HEADERS);

    /** The response headers a cross-origin page may read. */
    @NotNull
    private List<String> corsExposedHeaders = new ArrayList<>(Cors.EXPOSED);

    /** Whether a cross-origin page may send cookies (console sessions); never with the origin {@code *}. */
    private boolean corsCredentials;

    /** How long a browser may keep a preflight's answer. */
    @NotNull
    private Duration corsMaxAge = Duration.seconds(600);

    /** {@code Strict-Transport-Security} max-age in seconds, sent on HTTPS requests only; 0 = never. */
    @Min(0)
    private long hstsMaxAge;

    /** Whether callers without a key may read {@code /openapi.json} (the generic routes, never saved queries). */
    private boolean publicSpec;

    @JsonProperty
    public boolean isPublicSpec() {
        return publicSpec;
    }

    @JsonProperty
    public void setPublicSpec(boolean publicSpec) {
        this.publicSpec = publicSpec;
    }

    @JsonProperty
    public List<String> getCorsOrigins() {
        return corsOrigins;
    }

    @JsonProperty
    public void setCorsOrigins(List<String> corsOrigins) {
        this.corsOrigins = corsOrigins;
    }

    @JsonProperty
    public List<String> getCorsMethods() {
        return corsMethods;
    }

    @JsonProperty
    public void setCorsMethods(List<String> corsMethods) {
        this.corsMethods = corsMethods;
    }

    @JsonProperty
    public List<String> getCorsHeaders() {
        return corsHeaders;
    }

    @JsonProperty
    public void setCorsHeaders(List<String> corsHeaders) {
        this.corsHeaders = corsHeaders;
    }

    @JsonProperty
    public List<String> getCorsExposedHeaders() {
        return corsExposedHeaders;
    }

    @JsonProperty
    public void setCorsExposedHeaders(List<String> corsExposedHeaders) {
        this.corsExposedHeaders = corsExposedHeaders;
    }

    @JsonProperty
    public boolean isCorsCredentials() {
        return corsCredentials;
    }

    @JsonProperty
    public void setCorsCredentials(boolean corsCredentials) {
        this.corsCredentials = corsCredentials;
    }

    @JsonProperty
    public Duration getCorsMaxAge() {
        return corsMaxAge;
    }

    @JsonProperty
    public void setCorsMaxAge(Duration corsMaxAge) {
        this.corsMaxAge = corsMaxAge;
    }

    @JsonProperty
    public long getHstsMaxAge() {
        return hstsMaxAge;
    }

    @JsonProperty
    public void setHstsMaxAge(long hstsMaxAge) {
        this.hstsMaxAge = hstsMaxAge;
    }

    @JsonProperty
    public boolean isAllowWrites() {
        return allowWrites;
    }

    @JsonProperty
    public void setAllowWrites(boolean allowWrites) {
        this.allowWrites = allowWrites;
    }

    @JsonProperty
    public List<String> getTrustedProxies() {
        return trustedProxies;
    }

    @JsonProperty
    public void setTrustedProxies(List<String> trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    @JsonProperty
    public String getMaskingKey() {
        return maskingKey;
    }

    @JsonProperty
    public void setMaskingKey(String maskingKey) {
        this.maskingKey = maskingKey;
    }

    /**
     * Jetty's CORS handler for the configured origins, or null when none is (CORS off). Origins are {@code
     * scheme://host[:port]} or {@code *}; credentials are refused with {@code *} (any site could act as the
     * signed-in user), methods and headers must be tokens: each mistake stops startup naming its key.
     */
    public Cors buildCors() {
        if (corsOrigins.isEmpty()) {
            if (corsCredentials) {
                throw new IllegalStateException("security.corsCredentials: needs security.corsOrigins");
            }
            return null;
        }
        for (String origin : corsOrigins) {
            String o = origin == null ? "" : Cors.normalise(origin);
            if (!o.equals("*") && !ORIGIN.matcher(o).matches()) {
                throw new IllegalStateException("security.corsOrigins: '" + origin
                        + "' is not an origin (scheme://host[:port], or \"*\")");
            }
            if (o.equals("*") && corsCredentials) {
                throw new IllegalStateException("security.corsCredentials: true with the origin \"*\" would let "
                        + "any site act with a signed-in user's session; list the origins instead");
            }
        }
        tokens("security.corsMethods", corsMethods);
        tokens("security.corsHeaders", corsHeaders);
        tokens("security.corsExposedHeaders", corsExposedHeaders);
        return new Cors(corsOrigins, corsMethods, corsHeaders, corsExposedHeaders, corsCredentials,
                java.time.Duration.ofMillis(corsMaxAge.toMilliseconds()));
    }

    private static void tokens(String key, List<String> values) {
        for (String v : values) {
            if (v == null || !TOKEN.matcher(v).matches()) {
                throw new IllegalStateException(key + ": '" + v + "' is not a header or method name");
            }
        }
    }

    /** Where callers' addresses come from: the peer, or {@code X-Forwarded-For} from a trusted proxy. */
    public ClientAddress buildClientAddress() {
        List<IpRange> proxies = new ArrayList<>();
        for (String p : trustedProxies) {
            try {
                proxies.add(IpRange.parse(p));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("security.trustedProxies: " + e.getMessage(), e);
            }
        }
        return new ClientAddress(proxies);
    }
}
