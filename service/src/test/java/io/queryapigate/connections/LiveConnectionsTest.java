package io.queryapigate.connections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretResolver;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stored connections kept in step with the store and with their secrets: a secret resolved again when it expires
 * replaces the pool only when its value changed, and a provider failure takes the connection out of service until
 * it resolves again. On a real SQLite store and DuckDB; the secrets come from a provider of this test's own.
 */
class LiveConnectionsTest {
    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();
    private ConnectionRegistry registry;

    /** A provider whose value (null: unavailable) the test sets; every answer expires at once. */
    private static final class Expiring implements SecretResolver {
        final AtomicReference<String> value = new AtomicReference<>("v1");

        @Override
        public Resolved resolve(String connection, String text) {
            String v = value.get();
            if (v == null) {
                throw new SecretUnavailableException("connection '" + connection + "': " + text + " is unavailable");
            }
            return new Resolved(v, Instant.now());
        }

        @Override
        public boolean isReference(String text) {
            return text != null && text.startsWith("${test:");
        }
    }

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.stop();
        }
    }

    @Test
    void anExpiredSecretIsResolvedAgainAndAFailureTakesTheConnectionOutUntilItResolves() throws Exception {
        Path home = Files.createTempDirectory("qag-live-");
        String url = "jdbc:sqlite:" + home.resolve("store.db");
        Store.migrate(url, null, null);
        Store store = Store.connect(url, null, null);
        registry = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()), Map.of(),
                Duration.ofSeconds(30), 1000, home);
        Expiring secrets = new Expiring();
        Connections connections = new Connections(store, registry,
                DialectRegistry.discover(getClass().getClassLoader()), SecretBox.of(null), secrets,
                Validators.newValidator(), MAPPER, Clock.systemUTC(), Duration.ofMillis(100),
                TestingAudit.of(store));
        connections.create(MAPPER.readTree("{\"name\": \"vaulted\", \"dialect\": \"duckdb\", \"url\": \":memory:\","
                + " \"password\": \"${test:db}\", \"properties\": {\"duckdb.read_only\": \"false\"}}"), "test");
        long first = registry.require("vaulted").generation();

        connections.live().tick();
        assertThat(registry.require("vaulted").generation()).as("the same value keeps the pool").isEqualTo(first);

        secrets.value.set("v2");
        connections.live().tick();
        long second = registry.require("vaulted").generation();
        assertThat(second).as("a changed value replaces the pool").isNotEqualTo(first);

        secrets.value.set(null);
        connections.live().tick();
        assertThatThrownBy(() -> registry.require("vaulted")).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("${test:db}").hasMessageNotContaining("v2");
        assertThat(registry.get("vaulted")).as("its pool is closed, not kept with a stale secret").isEmpty();

        secrets.value.set("v3");
        Thread.sleep(150); // a failed connection is tried again after the check interval
        connections.live().tick();
        assertThat(registry.require("vaulted").generation()).as("back once it resolves").isGreaterThan(second);

        connections.delete("vaulted", null, "done", false, "test");
        assertThatThrownBy(() -> registry.require("vaulted")).hasMessageContaining("No connection named");
    }
}
