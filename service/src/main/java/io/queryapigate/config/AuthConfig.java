package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** The administrator key. Scoped keys live in the store. */
public class AuthConfig {
    @NotNull
    @Size(min = 16, message = "must be at least 16 characters long")
    private String adminKey;

    @JsonProperty
    public String getAdminKey() {
        return adminKey;
    }

    @JsonProperty
    public void setAdminKey(String adminKey) {
        this.adminKey = adminKey;
    }
}
