package io.queryapigate;

import static io.queryapigate.testing.TestingConfig.startAndStop;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Configuration mistakes stop startup with a message that names the key. */
class StartupFailureIT {
    @Test
    void anUnknownDialectStopsStartup() {
        Path config = TestingConfig.write("  sales:\n    dialect: nosuchdb\n    url: x\n", "");
        assertThatThrownBy(() -> startAndStop(config)).hasStackTraceContaining("connections.sales.dialect")
                .hasStackTraceContaining("no dialect named 'nosuchdb'");
    }

    @Test
    void aBadDialectPropertyStopsStartupNamingIt() {
        Path config = TestingConfig.write("  demo:\n    dialect: duckdb\n    url: x.duckdb\n    properties:\n"
                + "      duckdb.colour: blue\n", "");
        assertThatThrownBy(() -> startAndStop(config)).hasStackTraceContaining("connections.demo.properties")
                .hasStackTraceContaining("duckdb.colour");
    }

    @Test
    void anUnknownYamlKeyStopsStartupNamingIt() {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), "limits:\n  queryTimeOut: 5s\n");
        assertThatThrownBy(() -> startAndStop(config)).hasStackTraceContaining("queryTimeOut");
    }

    @Test
    void aShortAdminKeyIsRefused() {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), "");
        assertThatThrownBy(() -> {
            java.nio.file.Files.writeString(config, java.nio.file.Files.readString(config)
                    .replace(TestingConfig.ADMIN_KEY, "short"));
            startAndStop(config);
        }).hasStackTraceContaining("auth.adminKey");
    }

    @Test
    void anAdminAuthBlockNeedsExactlyOnePassword() {
        Path neither = TestingConfig.write(TestingConfig.demoConnection(), "adminAuth:\n  username: ops\n");
        assertThatThrownBy(() -> startAndStop(neither))
                .hasStackTraceContaining("adminAuth: set exactly one of password");
        Path both = TestingConfig.write(TestingConfig.demoConnection(), "adminAuth:\n  username: ops\n"
                + "  password: long-enough-password-1\n  passwordSha256: " + "ab".repeat(32) + "\n");
        assertThatThrownBy(() -> startAndStop(both)).hasStackTraceContaining("adminAuth: set exactly one of password");
    }

    @Test
    void aBadAdminAuthValueIsRefusedNamingIt() {
        Path shortPassword = TestingConfig.write(TestingConfig.demoConnection(),
                "adminAuth:\n  username: ops\n  password: short\n");
        assertThatThrownBy(() -> startAndStop(shortPassword)).hasStackTraceContaining("adminAuth.password");
        Path colon = TestingConfig.write(TestingConfig.demoConnection(),
                "adminAuth:\n  username: \"a:b\"\n  password: long-enough-password-1\n");
        assertThatThrownBy(() -> startAndStop(colon)).hasStackTraceContaining("adminAuth.username");
        Path wildcard = TestingConfig.write(TestingConfig.demoConnection(),
                "adminAuth:\n  username: ops\n  password: long-enough-password-1\n  openPaths: [\"/health*\"]\n");
        assertThatThrownBy(() -> startAndStop(wildcard)).hasStackTraceContaining("adminAuth.openPaths");
        Path hash = TestingConfig.write(TestingConfig.demoConnection(),
                "adminAuth:\n  username: ops\n  passwordSha256: abc\n");
        assertThatThrownBy(() -> startAndStop(hash)).hasStackTraceContaining("adminAuth.passwordSha256");
    }
}
