package io.queryapigate.dialect.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The sqlite dialect's properties: defaults, durations, and refusals that name the key. */
class SqliteDialectConfigTest {

    @Test
    void defaults() {
        assertThat(SqliteDialectConfig.fromProperties(Map.of())).isEqualTo(SqliteDialectConfig.defaults());
        assertThat(SqliteDialectConfig.defaults().busyTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(SqliteDialectConfig.defaults().initScript()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"500ms, 500", "5s, 5000", "2, 2000", "1m, 60000", " 3 S , 3000", "0, 0"})
    void busyTimeouts(String value, long millis) {
        assertThat(SqliteDialectConfig.fromProperties(Map.of("sqlite.busy_timeout", value)).busyTimeout())
                .isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "", "-1s", "5 hours", "1.5s", "99999999999s"})
    void aBadBusyTimeoutNamesTheKey(String value) {
        assertThatThrownBy(() -> SqliteDialectConfig.fromProperties(Map.of("sqlite.busy_timeout", value)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sqlite.busy_timeout: expected");
    }

    @Test
    void theBriefsExampleMessage() {
        assertThatThrownBy(() -> SqliteDialectConfig.fromProperties(Map.of("sqlite.busy_timeout", "x")))
                .hasMessageStartingWith("sqlite.busy_timeout: expected a duration, got 'x'");
    }

    @Test
    void unknownKeysAndEmptyScriptsAreRefused() {
        assertThatThrownBy(() -> SqliteDialectConfig.fromProperties(Map.of("sqlite.read_only", "true", "duckdb.x", "1")))
                .hasMessage("unknown properties duckdb.x, sqlite.read_only; the sqlite dialect accepts"
                        + " sqlite.busy_timeout, sqlite.init_script");
        assertThatThrownBy(() -> SqliteDialectConfig.fromProperties(Map.of("sqlite.init_script", " ")))
                .hasMessage("sqlite.init_script: expected a file path, got an empty value");
    }

    @Test
    void theInitScriptBecomesAbsolute() {
        assertThat(SqliteDialectConfig.fromProperties(Map.of("sqlite.init_script", "config/x.sql")).initScript())
                .isEqualTo(Optional.of(Path.of("config/x.sql").toAbsolutePath().normalize()));
    }
}
