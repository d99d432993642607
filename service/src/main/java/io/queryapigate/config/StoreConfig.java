package io.queryapigate.config;

import java.nio.file.Path;
import io.queryapigate.store.Store;
import io.dropwizard.core.setup.Environment;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Where the gateway keeps its own data (keys, saved queries, run history, events). Without a URL it is the embedded
 * SQLite file {@code ${home}/queryapigate.db}; a {@code jdbc:postgresql:} URL shares one store between instances.
 */
public class StoreConfig {
    private String url;
    private String user;
    private String password;

    @Min(1)
    @Max(256)
    private int maxConnections = 8;

    @JsonProperty
    public String getUrl() {
        return url;
    }

    @JsonProperty
    public void setUrl(String url) {
        this.url = url;
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
    public int getMaxConnections() {
        return maxConnections;
    }

    @JsonProperty
    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Opens (and migrates) the store: SQLite at {@code ${home}/queryapigate.db} unless a URL is given. */
    public Store build(Environment environment, Path home) throws Exception {
        return Store.open(environment, Store.resolveUrl(url, home), user, password, maxConnections, home);
    }
}
