package io.queryapigate.dialect.mongo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MongoDialectConfigTest {
    @Test
    void defaultsAndValues() {
        assertThat(MongoDialectConfig.fromProperties(Map.of()))
                .isEqualTo(new MongoDialectConfig(Optional.empty(), Duration.ofSeconds(10), 1000));
        assertThat(MongoDialectConfig.fromProperties(Map.of("mongo.database", "shop",
                "mongo.server_selection_timeout", "500ms", "mongo.batch_size", "50")))
                .isEqualTo(new MongoDialectConfig(Optional.of("shop"), Duration.ofMillis(500), 50));
    }

    @Test
    void badValuesNameTheirKey() {
        assertThatThrownBy(() -> MongoDialectConfig.fromProperties(Map.of("mongo.server_selection_timeout", "x")))
                .hasMessage("mongo.server_selection_timeout: expected a duration such as 10s or 500ms, got 'x'");
        assertThatThrownBy(() -> MongoDialectConfig.fromProperties(Map.of("mongo.batch_size", "0")))
                .hasMessageStartingWith("mongo.batch_size: ");
        assertThatThrownBy(() -> MongoDialectConfig.fromProperties(Map.of("mongo.database", "a/b")))
                .hasMessageStartingWith("mongo.database: ");
        assertThatThrownBy(() -> MongoDialectConfig.fromProperties(Map.of("mongo.write", "true")))
                .hasMessageStartingWith("unknown property mongo.write");
    }

    @Test
    void aUrlWithoutADatabaseNeedsTheProperty() {
        assertThatThrownBy(() -> TestingMongo.dialect("mongodb://127.0.0.1:1", 1, Map.of()))
                .hasMessageStartingWith("mongo.database: required");
        assertThatThrownBy(() -> TestingMongo.dialect("postgres://x", 1, Map.of()))
                .hasMessageStartingWith("url: expected a MongoDB connection string");
    }
}
