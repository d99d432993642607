package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrinoDialectConfigTest {

    @Test
    void defaults() {
        TrinoDialectConfig c = TrinoDialectConfig.defaults();
        assertThat(c).isEqualTo(new TrinoDialectConfig(Optional.empty(), Optional.empty(), false,
                TrinoDialectConfig.SslVerification.FULL, Optional.empty(), Optional.empty(), Optional.empty(),
                "queryapigate", List.of(), ZoneId.of("UTC"), Duration.ofMillis(250)));
    }

    @Test
    void fullMapping() {
        TrinoDialectConfig c = TrinoDialectConfig.from(Map.ofEntries(
                Map.entry("trino.catalog", "Hive"),
                Map.entry("trino.schema", "sales"),
                Map.entry("trino.ssl", "TRUE"),
                Map.entry("trino.ssl_verification", "ca"),
                Map.entry("trino.ssl_truststore_path", "/etc/qag/trino.jks"),
                Map.entry("trino.ssl_truststore_password", "s3cret"),
                Map.entry("trino.ssl_truststore_type", "JKS"),
                Map.entry("trino.source", "qag-prod"),
                Map.entry("trino.client_tags", "gateway, reports,gateway"),
                Map.entry("trino.time_zone", "Europe/Berlin"),
                Map.entry("trino.client_cancel_grace", "PT1S")));
        assertThat(c).isEqualTo(new TrinoDialectConfig(Optional.of("hive"), Optional.of("sales"), true,
                TrinoDialectConfig.SslVerification.CA, Optional.of("/etc/qag/trino.jks"), Optional.of("s3cret"),
                Optional.of("JKS"), "qag-prod", List.of("gateway", "reports"), ZoneId.of("Europe/Berlin"),
                Duration.ofSeconds(1)));
        assertThat(c.toString()).doesNotContain("s3cret").contains("sslTrustStorePassword=****");
        assertThat(TrinoDialectConfig.from(Map.of("trino.client_cancel_grace", "0")).clientCancelGrace()).isZero();
    }

    @Test
    void unknownKeysAreAllNamed() {
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.catalg", "x", "mysql.flavor", "mysql")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trino.catalg")
                .hasMessageContaining("mysql.flavor")
                .hasMessageContaining("known: trino.catalog");
    }

    @Test
    void malformedValuesNameTheKey() {
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.ssl", "yes")))
                .hasMessage("trino.ssl: expected true or false, got 'yes'");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.schema", "tiny")))
                .hasMessageStartingWith("trino.schema: a schema needs a catalog");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.catalog", "tpch.tiny")))
                .hasMessageStartingWith("trino.catalog: expected a plain catalog or schema name");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.catalog", "  ")))
                .hasMessage("trino.catalog: must not be blank");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.time_zone", "Mars/Olympus")))
                .hasMessageStartingWith("trino.time_zone: expected a time zone");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.client_cancel_grace", "soon")))
                .hasMessageStartingWith("trino.client_cancel_grace: expected a duration");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.client_cancel_grace", "2m")))
                .hasMessageStartingWith("trino.client_cancel_grace: must be between 0ms and 60000ms");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.client_tags", "a,,b")))
                .hasMessageStartingWith("trino.client_tags:");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.source", "bad\nsource")))
                .hasMessageStartingWith("trino.source:");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.ssl_verification", "some")))
                .hasMessage("trino.ssl_verification: expected one of full, ca, none, got 'some'");
    }

    @Test
    void tlsKeysNeedSsl() {
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.ssl_truststore_path", "/x.jks")))
                .hasMessage("trino.ssl_truststore_path: only meaningful with trino.ssl=true");
        assertThatThrownBy(() -> TrinoDialectConfig.from(Map.of("trino.ssl", "true",
                "trino.ssl_truststore_password", "x"))).hasMessageStartingWith("trino.ssl_truststore_password: needs");
    }
}
