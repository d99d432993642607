package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code privilegeWarnings} reads the running instance's settings back: the dialect's own locked-down instances
 * have nothing to report (read-only file and writable in-memory database alike); the lines for an instance with
 * external access or an unlocked configuration are checked on the values, since the dialect cannot open one.
 */
class DuckDbPrivilegesTest {
    @TempDir
    Path home;

    private Dialect dialect(String url, Map<String, String> properties) {
        return new DuckDbDialectFactory().create(new DialectContext("test", url, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, 1, home), properties);
    }

    @Test
    void theDialectsInstancesHaveNothingToReport() {
        try (Dialect memory = dialect(":memory:", Map.of(DuckDbDialectConfig.READ_ONLY, "false"))) {
            assertThat(memory.privilegeWarnings(Duration.ofSeconds(10))).isEmpty();
        }
        try (Dialect created = dialect("made.duckdb", Map.of(DuckDbDialectConfig.READ_ONLY, "false"))) {
            assertThat(created.privilegeWarnings(Duration.ofSeconds(10))).isEmpty();
        }
        try (Dialect readOnly = dialect("made.duckdb", Map.of())) {
            assertThat(readOnly.privilegeWarnings(Duration.ofSeconds(10))).isEmpty();
        }
    }

    @Test
    void aMissingDatabaseGivesOneLineAndNoException() {
        try (Dialect missing = dialect("missing.duckdb", Map.of())) {
            assertThat(missing.privilegeWarnings(Duration.ofSeconds(2))).singleElement().asString()
                    .startsWith("could not check the DuckDB configuration");
        }
    }

    @Test
    void externalAccessAndAnUnlockedConfigurationAreReported() {
        assertThat(DuckDbPrivileges.warnings("false", "true")).isEmpty();
        assertThat(DuckDbPrivileges.warnings("true", "true")).singleElement().asString()
                .contains("enable_external_access=true").contains("read and write files");
        assertThat(DuckDbPrivileges.warnings("false", "false")).singleElement().asString()
                .contains("lock_configuration=false");
        assertThat(DuckDbPrivileges.warnings("true", "false")).hasSize(2);
    }
}
