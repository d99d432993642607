package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The request log ({@code server.requestLog}): what of a request it may show beyond Dropwizard's own settings. */
public class AccessLogConfig {
    /**
     * Whether the request line keeps the query string's values ({@code ?email=alice@example.com}); by default only
     * the names are kept ({@code ?email=...}): saved queries' parameters arrive there.
     */
    private boolean queryValues;

    @JsonProperty
    public boolean isQueryValues() {
        return queryValues;
    }

    @JsonProperty
    public void setQueryValues(boolean queryValues) {
        this.queryValues = queryValues;
    }
}
