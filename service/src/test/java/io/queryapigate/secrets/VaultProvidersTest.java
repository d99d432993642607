package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.TestingClock;
import io.queryapigate.testing.TestingSecretServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ${vault:...}} and {@code ${vault-db:...}} against a real OpenBao server (Vault's API): KV 2 and 1, a token,
 * a token file and an AppRole login, the allow-lists, and dynamic PostgreSQL credentials whose lease is shared,
 * renewed, replaced when it cannot be, and revoked on close (the role disappears from PostgreSQL).
 */
class VaultProvidersTest {
    private static final String RUN = "qag" + UUID.randomUUID().toString().substring(0, 8);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static URI vault;
    private static String root;

    @TempDir
    Path dir;

    private final TestingClock clock = new TestingClock();

    @BeforeAll
    static void server() {
        vault = TestingSecretServers.vault();
        root = TestingSecretServers.vaultToken();
        admin("PUT", "secret/data/" + RUN + "/sales", "{\"data\":{\"password\":\"kv2-pa55\",\"user\":\"reporter\"}}");
        admin("PUT", "secret/data/" + RUN + "-other/x", "{\"data\":{\"password\":\"not-yours\"}}");
    }

    /** A call as the root token; fails the test on an error status. */
    static JsonNode admin(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(vault.resolve("/v1/" + path)).header("X-Vault-Token", root)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new AssertionError(method + " " + path + ": " + r.statusCode() + " " + r.body());
            }
            return r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private VaultClient client(VaultClient.Login login) {
        return new VaultClient(vault, login, clock);
    }

    private static VaultClient.Login token(String token) {
        return new VaultClient.Login(token, null, null, null, null, null);
    }

    private SecretReferences refs(SecretProvider... providers) {
        return new SecretReferences(List.of(providers), Duration.ofMinutes(5), clock);
    }

    @Test
    void readsKvVersion2ThroughATokenAndATokenFile() throws IOException {
        String ref = "${vault:secret/data/" + RUN + "/sales#password}";
        try (SecretReferences refs = refs(new VaultProvider(client(token(root)), List.of("secret/data/" + RUN), 2))) {
            assertThat(refs.resolve("sales", ref).value()).isEqualTo("kv2-pa55");
            assertThatThrownBy(() -> refs.resolve("sales", "${vault:secret/data/" + RUN + "/sales#nosuch}"))
                    .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("no text field 'nosuch'");
            assertThatThrownBy(() -> refs.resolve("sales", "${vault:secret/data/" + RUN + "/missing#password}"))
                    .hasMessageContaining("404");
        }
        Path tokenFile = Files.writeString(dir.resolve("token"), root + "\n");
        try (SecretReferences refs = refs(new VaultProvider(client(new VaultClient.Login(null, tokenFile, null, null,
                null, null)), List.of("secret/data/" + RUN + "/"), 2))) {
            assertThat(refs.resolve("sales", ref).value()).isEqualTo("kv2-pa55");
        }
        try (SecretReferences refs = refs(new VaultProvider(client(token("wrong-token")), List.of("secret/"), 2))) {
            assertThatThrownBy(() -> refs.resolve("sales", ref)).isInstanceOf(SecretUnavailableException.class)
                    .hasMessageContaining(ref).hasMessageContaining("403");
        }
    }

    @Test
    void theAllowListAndTheFormAreCheckedBeforeAsking() {
        try (SecretReferences refs = refs(new VaultProvider(client(token(root)), List.of("secret/data/" + RUN), 2))) {
            assertThatThrownBy(() -> refs.resolve("s", "${vault:secret/data/" + RUN + "-other/x#password}"))
                    .hasMessageContaining("is not under a path secrets.vault.allowedPaths allows")
                    .hasMessageNotContaining("not-yours");
            assertThatThrownBy(() -> refs.check("s", "${vault:secret/data/" + RUN + "/../" + RUN + "-other/x#password}"))
                    .hasMessageContaining("is not a Vault path");
            assertThatThrownBy(() -> refs.check("s", "${vault:secret/data/" + RUN + "/sales}"))
                    .hasMessageContaining("name the field");
        }
        try (SecretReferences refs = refs(new VaultProvider(null, List.of("secret/"), 2))) {
            assertThatThrownBy(() -> refs.check("s", "${vault:secret/data/x#y}"))
                    .hasMessageContaining("secrets.vault.address is not set");
        }
    }

    @Test
    void readsKvVersion1() {
        admin("POST", "sys/mounts/" + RUN + "-kv1", "{\"type\":\"kv\",\"options\":{\"version\":\"1\"}}");
        admin("PUT", RUN + "-kv1/app", "{\"password\":\"kv1-pa55\"}");
        try (SecretReferences refs = refs(new VaultProvider(client(token(root)), List.of(RUN + "-kv1"), 1))) {
            assertThat(refs.resolve("s", "${vault:" + RUN + "-kv1/app#password}").value()).isEqualTo("kv1-pa55");
        }
    }

    @Test
    void logsInWithAnAppRoleWhosePolicyLimitsWhatItReads() throws IOException {
        String mount = RUN + "-approle";
        admin("POST", "sys/auth/" + mount, "{\"type\":\"approle\"}");
        admin("PUT", "sys/policies/acl/" + RUN, JSON.writeValueAsString(Map.of("policy",
                "path \"secret/data/" + RUN + "/*\" { capabilities = [\"read\"] }")));
        admin("POST", "auth/" + mount + "/role/gateway", "{\"token_policies\":[\"" + RUN + "\"],\"token_ttl\":\"1h\"}");
        String roleId = admin("GET", "auth/" + mount + "/role/gateway/role-id", null).path("data").path("role_id")
                .asText();
        String secretId = admin("POST", "auth/" + mount + "/role/gateway/secret-id", null).path("data")
                .path("secret_id").asText();
        Path secretIdFile = Files.writeString(dir.resolve("secret-id"), secretId);
        try (SecretReferences refs = refs(new VaultProvider(client(new VaultClient.Login(null, null, roleId, null,
                secretIdFile, mount)), List.of("secret/"), 2))) {
            assertThat(refs.resolve("s", "${vault:secret/data/" + RUN + "/sales#user}").value())
                    .isEqualTo("reporter");
            assertThatThrownBy(() -> refs.resolve("s", "${vault:secret/data/" + RUN + "-other/x#password}"))
                    .as("the AppRole's policy does not reach it").hasMessageContaining("403")
                    .hasMessageNotContaining("not-yours");
        }
        try (SecretReferences refs = refs(new VaultProvider(client(new VaultClient.Login(null, null, roleId,
                "wrong-secret-id", null, mount)), List.of("secret/"), 2))) {
            assertThatThrownBy(() -> refs.resolve("s", "${vault:secret/data/" + RUN + "/sales#user}"))
                    .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("login");
        }
    }

    @Test
    void databaseCredentialsShareALeaseAreRenewedReplacedAndRevokedOnClose() throws Exception {
        TestServers.Server pg = TestServers.postgres();
        String mount = RUN + "-db";
        admin("POST", "sys/mounts/" + mount, "{\"type\":\"database\"}");
        admin("POST", mount + "/config/pg", JSON.writeValueAsString(Map.of(
                "plugin_name", "postgresql-database-plugin", "allowed_roles", "reporting",
                "connection_url", "postgresql://{{username}}:{{password}}@" + pg.host() + ":" + pg.port()
                        + "/test?sslmode=disable",
                "username", pg.user(), "password", pg.password())));
        admin("POST", mount + "/roles/reporting", JSON.writeValueAsString(Map.of("db_name", "pg",
                "creation_statements", "CREATE ROLE \"{{name}}\" WITH LOGIN PASSWORD '{{password}}'"
                        + " VALID UNTIL '{{expiration}}';",
                "default_ttl", "60s", "max_ttl", "10m")));
        VaultDatabaseProvider credentials = new VaultDatabaseProvider(client(token(root)), mount,
                List.of("reporting"), clock);
        SecretReferences refs = refs(credentials);
        String first;
        String second;
        try {
            assertThatThrownBy(() -> refs.check("s", "${vault-db:admin#password}"))
                    .hasMessageContaining("not a role secrets.vault.databaseRoles allows");
            assertThatThrownBy(() -> refs.check("s", "${vault-db:reporting#token}"))
                    .hasMessageContaining("#username} or");
            SecretResolver.Resolved user = refs.resolve("s", "${vault-db:reporting#username}");
            SecretResolver.Resolved password = refs.resolve("s", "${vault-db:reporting#password}");
            first = user.value();
            assertThat(login(pg, first, password.value())).isEqualTo(first);
            assertThat(user.refreshAt()).as("asked again before the lease's margin (60 s - 6 s)")
                    .isBefore(clock.instant().plusSeconds(54));
            assertThat(leases(mount)).hasSize(1);

            clock.advance(Duration.ofSeconds(41)); // past two thirds: renewed, the same credentials
            assertThat(refs.resolve("s", "${vault-db:reporting#username}").value()).isEqualTo(first);
            assertThat(refs.resolve("s", "${vault-db:reporting#password}").value()).isEqualTo(password.value());
            assertThat(leases(mount)).hasSize(1);

            admin("PUT", "sys/leases/revoke-prefix/" + mount + "/creds/reporting", null);
            assertThat(roleExists(pg, first)).as("revoked by Vault").isFalse();
            clock.advance(Duration.ofSeconds(41)); // the renewal fails: new credentials
            second = refs.resolve("s", "${vault-db:reporting#username}").value();
            assertThat(second).isNotEqualTo(first);
            assertThat(login(pg, second, refs.resolve("s", "${vault-db:reporting#password}").value()))
                    .isEqualTo(second);
        } finally {
            refs.close();
        }
        assertThat(roleExists(pg, second)).as("its lease was revoked on close").isFalse();
        assertThat(leases(mount)).isEmpty();
    }

    private static List<String> leases(String mount) {
        HttpRequest request = HttpRequest.newBuilder(vault.resolve("/v1/sys/leases/lookup/" + mount
                + "/creds/reporting/")).header("X-Vault-Token", root).method("LIST", HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                return List.of();
            }
            List<String> keys = new java.util.ArrayList<>();
            JSON.readTree(r.body()).path("data").path("keys").forEach(k -> keys.add(k.asText()));
            return keys;
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static String login(TestServers.Server pg, String user, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(pg.url(), user, password);
                ResultSet rs = c.createStatement().executeQuery("SELECT current_user")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static boolean roleExists(TestServers.Server pg, String role) throws SQLException {
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                var s = c.prepareStatement("SELECT count(*) FROM pg_roles WHERE rolname = ?")) {
            s.setString(1, role);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }
}
