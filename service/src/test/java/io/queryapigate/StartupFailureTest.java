package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.TestConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Configuration mistakes stop startup with a message that names the key. */
class StartupFailureTest {
    private static void start(Path config) throws Exception {
        DropwizardTestSupport<GatewayConfiguration> support =
                new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        try {
            support.before();
        } finally {
            support.after();
        }
    }

    @Test
    void anUnknownDialectStopsStartup() {
        Path config = TestConfig.write("  sales:\n    dialect: nosuchdb\n    url: x\n", "");
        assertThatThrownBy(() -> start(config)).hasStackTraceContaining("connections.sales.dialect")
                .hasStackTraceContaining("no dialect named 'nosuchdb'");
    }

    @Test
    void aBadDialectPropertyStopsStartupNamingIt() {
        Path config = TestConfig.write("  demo:\n    dialect: duckdb\n    url: x.duckdb\n    properties:\n"
                + "      duckdb.colour: blue\n", "");
        assertThatThrownBy(() -> start(config)).hasStackTraceContaining("connections.demo.properties")
                .hasStackTraceContaining("duckdb.colour");
    }

    @Test
    void anUnknownYamlKeyStopsStartupNamingIt() {
        Path config = TestConfig.write(TestConfig.demoConnection(), "limits:\n  queryTimeOut: 5s\n");
        assertThatThrownBy(() -> start(config)).hasStackTraceContaining("queryTimeOut");
    }

    @Test
    void aShortAdminKeyIsRefused() {
        Path config = TestConfig.write(TestConfig.demoConnection(), "");
        assertThatThrownBy(() -> {
            java.nio.file.Files.writeString(config, java.nio.file.Files.readString(config)
                    .replace(TestConfig.ADMIN_KEY, "short"));
            start(config);
        }).hasStackTraceContaining("auth.adminKey");
    }
}
