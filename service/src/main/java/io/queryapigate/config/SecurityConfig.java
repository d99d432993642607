package io.queryapigate.config;

import io.queryapigate.auth.IpRange;
import io.queryapigate.auth.ClientAddress;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.ArrayList;
import java.util.List;

/** Server-wide security switches. */
public class SecurityConfig {
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
