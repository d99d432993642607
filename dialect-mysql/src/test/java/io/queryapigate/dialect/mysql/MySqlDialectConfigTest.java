package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MySqlDialectConfigTest {

    @Test
    void defaults() {
        MySqlDialectConfig c = MySqlDialectConfig.defaults();
        assertThat(c.flavor()).isEmpty();
        assertThat(c.timeLimitMode()).isEqualTo(TimeLimitMode.AUTO);
        assertThat(c.idleValidation()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.clientCancelGrace()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.writePoolSize()).isEmpty();
        assertThat(c.maxLifetime()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void fullMapping() {
        MySqlDialectConfig c = MySqlDialectConfig.from(Map.of(
                "mysql.flavor", "MariaDB",
                "mysql.time_limit_mode", "session",
                "mysql.idle_validation", "250ms",
                "mysql.client_cancel_grace", "PT2S",
                "mysql.connect_timeout", "3s",
                "mysql.write_pool_size", "2",
                "mysql.max_lifetime", "10m"));
        assertThat(c).isEqualTo(new MySqlDialectConfig(Optional.of(ServerInfo.Flavor.MARIADB), TimeLimitMode.SESSION,
                Duration.ofMillis(250), Duration.ofSeconds(2), Duration.ofSeconds(3), Optional.of(2),
                Duration.ofMinutes(10)));
        assertThat(MySqlDialectConfig.from(Map.of("mysql.idle_validation", "0")).idleValidation()).isZero();
    }

    @Test
    void unknownKeysAreAllNamed() {
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.idle_validaton", "5s", "postgres.x", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mysql.idle_validaton")
                .hasMessageContaining("postgres.x")
                .hasMessageContaining("known: mysql.client_cancel_grace");
    }

    @Test
    void malformedValuesNameTheKey() {
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.time_limit_mode", "fast")))
                .hasMessage("mysql.time_limit_mode: expected one of auto, hint, set_statement, session, got 'fast'");
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.idle_validation", "soon")))
                .hasMessageStartingWith("mysql.idle_validation: expected a duration");
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.idle_validation", "2h")))
                .hasMessageStartingWith("mysql.idle_validation: must be between 0 and 1h");
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.write_pool_size", "0")))
                .hasMessageStartingWith("mysql.write_pool_size:");
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.flavor", "postgres")))
                .hasMessageStartingWith("mysql.flavor:");
    }

    @Test
    void aPinnedFlavourRefusesAModeThatCannotWorkOnIt() {
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.flavor", "mariadb", "mysql.time_limit_mode", "hint")))
                .hasMessageStartingWith("mysql.time_limit_mode: 'hint' does not work on MariaDB");
        assertThatThrownBy(() -> MySqlDialectConfig.from(Map.of("mysql.flavor", "mysql", "mysql.time_limit_mode", "set_statement")))
                .hasMessageStartingWith("mysql.time_limit_mode: 'set_statement'");
    }
}
