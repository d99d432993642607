package io.queryapigate;

import static io.queryapigate.testing.TestingConfig.startAndStop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.secrets.Rekey;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The secret key in the running application: {@code POST /api/v1/settings/rekey} (this JVM has no
 * {@code QUERYAPIGATE_SECRET_KEY}), and startup stopping on a store whose sealed password no key opens, or on a
 * {@code secrets:} value that cannot work.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SecretsAppIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());

    @Test
    void rekeyWithoutAKeyIsRefusedAndOnlyForTheAdministrator() {
        assertThat(System.getenv(SecretBox.VARIABLE)).as("this test needs the variable unset").isNull();
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Http.Reply refused = http.post("/api/v1/settings/rekey", TestingConfig.ADMIN_KEY, "{}");
        refused.assertRefused(409, "secret_key_required");
        assertThat(refused.json().get("error").asText()).contains("QUERYAPIGATE_SECRET_KEY is not set");
        http.request("POST", "/api/v1/settings/rekey", TestingConfig.ADMIN_KEY, null)
                .assertRefused(409, "secret_key_required");
        http.post("/api/v1/settings/rekey", TestingConfig.ADMIN_KEY, "{\"check\": true}")
                .assertRefused(409, "secret_key_required");
        http.post("/api/v1/settings/rekey", TestingConfig.ADMIN_KEY, "{\"check\": \"yes\"}")
                .assertRefused(400, "invalid_body");
        http.post("/api/v1/settings/rekey", TestingConfig.ADMIN_KEY, "{\"chek\": true}")
                .assertRefused(400, "unknown_field");
        String reader = http.key("rekey-reader", Map.of("queries", List.of("*")));
        http.post("/api/v1/settings/rekey", reader, "{}").assertRefused(403, "admin_only");
    }

    @Test
    void aSealedPasswordWithoutTheKeyStopsStartupNamingTheConnection() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), "");
        String url = "jdbc:sqlite:" + config.getParent().resolve("queryapigate.db");
        Store.migrate(url, null, null);
        Store.connect(url, null, null).jdbi().useHandle(h -> h.createUpdate("INSERT INTO connections (name, dialect,"
                + " url, password_sealed, pool_size, properties, allowed_functions, created_at, updated_at) VALUES"
                + " ('warehouse', 'postgres', 'jdbc:x', :s, 4, '{}', '[]', 0, 0)")
                .bind("s", SecretBox.of(SecretBox.newKey()).seal("pw", Rekey.context("warehouse"))).execute());
        assertThatThrownBy(() -> startAndStop(config))
                .hasStackTraceContaining("encrypted password of connection 'warehouse'")
                .hasStackTraceContaining("QUERYAPIGATE_SECRET_KEY is not set");
    }

    @Test
    void aSecretsValueThatCannotWorkStopsStartupNamingTheKey() {
        Path badAddress = TestingConfig.write(TestingConfig.demoConnection(),
                "secrets:\n  vault:\n    address: ftp://vault\n    token: t\n");
        assertThatThrownBy(() -> startAndStop(badAddress)).hasStackTraceContaining("secrets.vault.address");
        Path kv3 = TestingConfig.write(TestingConfig.demoConnection(), "secrets:\n  vault:\n    kvVersion: 3\n");
        assertThatThrownBy(() -> startAndStop(kv3)).hasStackTraceContaining("secrets.vault.kvVersion");
        Path relative = TestingConfig.write(TestingConfig.demoConnection(),
                "secrets:\n  fileDirectories: [run/secrets]\n");
        assertThatThrownBy(() -> startAndStop(relative)).hasStackTraceContaining("secrets.fileDirectories");
        Path shortTtl = TestingConfig.write(TestingConfig.demoConnection(), "secrets:\n  cacheTtl: 10ms\n");
        assertThatThrownBy(() -> startAndStop(shortTtl)).hasStackTraceContaining("secrets.cacheTtl");
    }
}
