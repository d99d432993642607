package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotEmpty;

/**
 * A saved query the service creates and publishes at startup when the store has no query of that name yet, so a
 * fresh installation has an endpoint ready to call. Existing queries are never touched.
 */
public class SeedQuery {
    @NotEmpty
    private String name;

    @NotEmpty
    private String connection;

    @NotEmpty
    private String sql;

    private JsonNode parameters;

    private String description;

    @JsonProperty
    public String getName() {
        return name;
    }

    @JsonProperty
    public void setName(String name) {
        this.name = name;
    }

    @JsonProperty
    public String getConnection() {
        return connection;
    }

    @JsonProperty
    public void setConnection(String connection) {
        this.connection = connection;
    }

    @JsonProperty
    public String getSql() {
        return sql;
    }

    @JsonProperty
    public void setSql(String sql) {
        this.sql = sql;
    }

    @JsonProperty
    public JsonNode getParameters() {
        return parameters;
    }

    @JsonProperty
    public void setParameters(JsonNode parameters) {
        this.parameters = parameters;
    }

    @JsonProperty
    public String getDescription() {
        return description;
    }

    @JsonProperty
    public void setDescription(String description) {
        this.description = description;
    }
}
