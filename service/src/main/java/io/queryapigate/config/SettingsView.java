package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The server's effective configuration as {@code GET /api/v1/settings} shows it, in the Python original's shape:
 * sections of rows, each naming the original's environment variable for the same setting ({@code env}, empty when it
 * had none) and this server's configuration key ({@code config}). Secrets are shown only as configured or not.
 */
public final class SettingsView {
    private SettingsView() {}

    /** A group of settings. */
    public record Section(@JsonProperty("id") String id, @JsonProperty("title") String title,
            @JsonProperty("description") String description, @JsonProperty("rows") List<Row> rows) {}

    /**
     * One setting.
     *
     * @param source {@code config} when the configuration file sets it, else {@code default}
     */
    public record Row(@JsonProperty("label") String label, @JsonProperty("description") String description,
            @JsonProperty("env") String env, @JsonProperty("config") String config,
            @JsonProperty("value") String value, @JsonProperty("source") String source) {
        /** Always null: this server reads its settings from its configuration file, not from the environment. */
        @JsonProperty("env_value")
        public String envValue() {
            return null;
        }

        @JsonProperty("experimental")
        public boolean experimental() {
            return false;
        }
    }

    /** A row whose source is decided by comparing the value with its default. */
    public static Row row(String label, String description, String env, String config, String value,
            String defaultValue) {
        return new Row(label, description, env, config, value, value.equals(defaultValue) ? "default" : "config");
    }
}
