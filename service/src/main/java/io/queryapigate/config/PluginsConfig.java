package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.queryapigate.plugins.Plugins;
import jakarta.validation.constraints.NotEmpty;
import java.nio.file.Path;

/**
 * Where plugins live (docs/plugins.md): a folder whose subfolders and jars are each one plugin, a dialect or a
 * library such as a JDBC driver. A relative path resolves from the service's home; a missing folder holds none.
 */
public class PluginsConfig {
    @NotEmpty
    private String directory = "plugins";

    @JsonProperty
    public String getDirectory() {
        return directory;
    }

    @JsonProperty
    public void setDirectory(String directory) {
        this.directory = directory;
    }

    /** The plugins folder, resolved from {@code home}. */
    public Path resolve(Path home) {
        return home.resolve(directory).toAbsolutePath().normalize();
    }

    /** Loads the plugins, each in its own class loader that sees the SPI from {@code service}. */
    public Plugins load(Path home, ClassLoader service) {
        return Plugins.load(resolve(home), service);
    }
}
