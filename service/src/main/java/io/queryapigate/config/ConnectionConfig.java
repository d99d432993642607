package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One database connection declared in YAML under {@code connections:}. The {@code properties} map is handed to the
 * dialect verbatim; the dialect validates it and names any bad key.
 */
public class ConnectionConfig {
    @NotEmpty
    @Pattern(regexp = "[a-z][a-z0-9_-]*", message = "must be a lowercase dialect name such as duckdb or postgres")
    private String dialect;

    @NotEmpty
    private String url;

    /**
     * The plugin (a folder or jar in the plugins folder, without {@code .jar}) whose classes the dialect sees while it
     * creates this connection, e.g. the one JDBC driver of several for a {@code jdbc} connection; unset: its own.
     */
    @Pattern(regexp = "[^/\\\\]+", message = "must be the name of a folder or jar in the plugins folder")
    private String plugin;

    private String user;

    private String password;

    /** Overrides limits.queryTimeout for this connection when set. */
    private Duration queryTimeout;

    @Min(1)
    @Max(1024)
    private int poolSize = 8;

    private Map<String, String> properties = new LinkedHashMap<>();

    /**
     * Functions that keys restricted to tables or with masked columns may call on this connection beyond the
     * engine's pure built-ins ({@code my_fn} or {@code schema.my_fn}); see docs/function-catalogues.md.
     */
    private List<@Pattern(regexp = "[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)?",
            message = "must be a function name or schema.function") String> allowedFunctions = new ArrayList<>();

    @JsonProperty
    public String getDialect() {
        return dialect;
    }

    @JsonProperty
    public void setDialect(String dialect) {
        this.dialect = dialect;
    }

    @JsonProperty
    public String getUrl() {
        return url;
    }

    @JsonProperty
    public void setUrl(String url) {
        this.url = url;
    }

    @JsonProperty
    public String getPlugin() {
        return plugin;
    }

    @JsonProperty
    public void setPlugin(String plugin) {
        this.plugin = plugin;
    }

    @JsonProperty
    public String getUser() {
        return user;
    }

    @JsonProperty
    public void setUser(String user) {
        this.user = user;
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
    public Duration getQueryTimeout() {
        return queryTimeout;
    }

    @JsonProperty
    public void setQueryTimeout(Duration queryTimeout) {
        this.queryTimeout = queryTimeout;
    }

    @JsonProperty
    public int getPoolSize() {
        return poolSize;
    }

    @JsonProperty
    public void setPoolSize(int poolSize) {
        this.poolSize = poolSize;
    }

    @JsonProperty
    public List<String> getAllowedFunctions() {
        return allowedFunctions;
    }

    @JsonProperty
    public void setAllowedFunctions(List<String> allowedFunctions) {
        this.allowedFunctions = allowedFunctions == null ? new ArrayList<>() : allowedFunctions;
    }

    @JsonProperty
    public Map<String, String> getProperties() {
        return properties;
    }

    @JsonProperty
    public void setProperties(Map<String, String> properties) {
        this.properties = properties == null ? new LinkedHashMap<>() : properties;
    }
}
