package io.queryapigate.config;

import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayApplication;
import io.queryapigate.GatewayConfiguration;
import java.io.IOException;
import java.util.List;

/** The application's own configuration factory, as its bootstrap makes it, reading YAML text. */
final class TestingConfigFactory {
    private final CheckingConfigurationFactory<GatewayConfiguration> factory;

    TestingConfigFactory() {
        GatewayApplication application = new GatewayApplication();
        Bootstrap<GatewayConfiguration> bootstrap = new Bootstrap<>(application);
        application.initialize(bootstrap);
        ConfigurationFactory<GatewayConfiguration> made = bootstrap.getConfigurationFactoryFactory().create(
                GatewayConfiguration.class, bootstrap.getValidatorFactory().getValidator(),
                bootstrap.getObjectMapper(), "dw");
        this.factory = (CheckingConfigurationFactory<GatewayConfiguration>) made;
    }

    /** A first line for a file: {@code home:} a fresh temporary directory. */
    static String home() {
        try {
            return "home: " + java.nio.file.Files.createTempDirectory("qag-config-") + "\n";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The problems of {@code yaml}; empty when it reads. */
    List<ConfigProblem> problems(String yaml) {
        try {
            factory.build(yaml, "config.yml");
            return List.of();
        } catch (ConfigProblemsException e) {
            return e.problems();
        } catch (ConfigurationException | IOException e) {
            throw new AssertionError("not a ConfigProblemsException: " + e, e);
        }
    }
}
