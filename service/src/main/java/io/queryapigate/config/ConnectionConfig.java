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

    /**
     * What is wrong with {@code url} for this connection's dialect, before the dialect is created (which checks it
     * fully and may open the database): a control character, or for the dialects that reach a server the scheme
     * and host they need; null when the shape is right or the dialect is not one of the built-in ones.
     */
    public String urlProblem() {
        if (url == null || url.isEmpty()) {
            return null;
        }
        if (url.isBlank() || url.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "'" + url.strip() + "' contains a line break, tab or other control character";
        }
        String scheme = switch (dialect == null ? "" : dialect) {
            case "postgres" -> "jdbc:postgresql:";
            case "mysql" -> "jdbc:mysql://";
            case "trino" -> "jdbc:trino://";
            case "clickhouse" -> url.startsWith("https://") ? "https://" : "http://";
            case "mongo" -> url.startsWith("mongodb+srv://") ? "mongodb+srv://" : "mongodb://";
            case "jdbc" -> "jdbc:";
            default -> null;
        };
        if (scheme == null) {
            return null;
        }
        String text = url.strip();
        if (!text.startsWith(scheme)) {
            return "'" + url + "' is not a " + dialect + " URL: it must start with " + scheme;
        }
        if (!scheme.endsWith("//") && !(dialect.equals("postgres") && text.startsWith(scheme + "//"))) {
            return null;
        }
        scheme = scheme.endsWith("//") ? scheme : scheme + "//";
        String rest = text.substring(scheme.length());
        String authority = rest.split("[/?#]", 2)[0];
        String hosts = authority.substring(authority.lastIndexOf('@') + 1);
        if (hosts.isEmpty()) {
            // pgjdbc and Connector/J read no host as localhost
            return dialect.equals("postgres") || dialect.equals("mysql") ? null
                    : "'" + url + "' names no host (" + scheme + "host:port/...)";
        }
        if (hosts.chars().anyMatch(c -> c == ' ' || c == '"' || c == '<' || c == '>' || c == '\\')) {
            return "'" + url + "' is not a valid URL: the host '" + hosts + "' contains a space or quote";
        }
        if (!dialect.equals("mongo") && !dialect.equals("mysql")) {
            int colon = hosts.lastIndexOf(':');
            if (colon >= 0 && !hosts.endsWith("]") && !hosts.substring(colon + 1).matches("\\d{1,5}")) {
                return "'" + url + "' is not a valid URL: the port '" + hosts.substring(colon + 1)
                        + "' is not a number";
            }
        }
        return null;
    }
}
