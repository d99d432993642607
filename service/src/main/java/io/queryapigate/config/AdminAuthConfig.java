package io.queryapigate.config;

import java.util.Set;
import java.util.Locale;
import java.util.HexFormat;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.auth.AdminAuthFilter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * HTTP Basic authentication for the admin port ({@code adminAuth:}). Absent: the admin port asks for no credentials
 * (bind it to 127.0.0.1). Present: every admin path except {@link #getOpenPaths()} needs the username and password.
 */
public class AdminAuthConfig {
    /** Admin paths a load balancer or orchestrator probes without credentials, unless configured otherwise. */
    public static final List<String> DEFAULT_OPEN_PATHS = List.of("/healthcheck", "/ping");

    @NotEmpty
    @Pattern(regexp = "[^:\\p{Cntrl}]{1,100}", message = "must be 1-100 characters without ':' or control characters")
    private String username;

    @Size(min = 16, message = "must be at least 16 characters long")
    private String password;

    @Pattern(regexp = "[0-9a-fA-F]{64}", message = "must be 64 hex digits (the SHA-256 of the password)")
    private String passwordSha256;

    @NotNull
    private List<@NotNull @Pattern(regexp = "/[^*?\\s]*", message = "must be a path starting with '/', no wildcards")
            String> openPaths = new ArrayList<>(DEFAULT_OPEN_PATHS);

    @JsonProperty
    public String getUsername() {
        return username;
    }

    @JsonProperty
    public void setUsername(String username) {
        this.username = username;
    }

    @JsonProperty
    public String getPassword() {
        return password;
    }

    @JsonProperty
    public void setPassword(String password) {
        this.password = password;
    }

    @JsonProperty
    public String getPasswordSha256() {
        return passwordSha256;
    }

    @JsonProperty
    public void setPasswordSha256(String passwordSha256) {
        this.passwordSha256 = passwordSha256;
    }

    @JsonProperty
    public List<String> getOpenPaths() {
        return openPaths;
    }

    @JsonProperty
    public void setOpenPaths(List<String> openPaths) {
        this.openPaths = openPaths;
    }

    @JsonIgnore
    @ValidationMethod(message = "adminAuth: set exactly one of password or passwordSha256")
    public boolean isOnePasswordSet() {
        boolean plain = password != null && !password.isEmpty();
        boolean hashed = passwordSha256 != null && !passwordSha256.isEmpty();
        return plain ^ hashed;
    }

    /** The admin port's authentication filter for this validated block. */
    public AdminAuthFilter buildFilter() {
        byte[] hash = password != null && !password.isEmpty() ? KeyHasher.sha256(password)
                : HexFormat.of().parseHex(passwordSha256.toLowerCase(Locale.ROOT));
        return new AdminAuthFilter(username, hash, Set.copyOf(openPaths));
    }
}
