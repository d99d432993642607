package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Size;

/**
 * The administrator key: the break-glass owner, with every capability. Optional: without it, startup needs an active
 * owner among the named administrators in the store ({@code admins create NAME --role owner CONFIG} makes the first).
 * Scoped keys and administrators live in the store.
 */
public class AuthConfig {
    @Size(min = 16, message = "must be at least 16 characters long")
    private String adminKey;

    /** The key, or null when there is none. */
    @JsonProperty
    public String getAdminKey() {
        return adminKey;
    }

    @JsonProperty
    public void setAdminKey(String adminKey) {
        this.adminKey = adminKey;
    }
}
