package io.queryapigate.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HashiCorp Vault's (and OpenBao's) HTTP API through {@code java.net.http}, as the Vault providers use it: logs in
 * (a token, a token file read at each login, or AppRole), reads, renews and revokes leases. Every lease it handed
 * out is revoked on {@link #close}, and so is the token an AppRole login gave.
 */
public final class VaultClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VaultClient.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** How the client logs in: exactly one of a token, a token file, or an AppRole. */
    public record Login(String token, Path tokenFile, String roleId, String secretId, Path secretIdFile,
            String appRoleMount) {
        /** Hides the token and the secret id. */
        @Override
        public String toString() {
            return "Login[token=" + (token == null ? "none" : "****") + ", tokenFile=" + tokenFile + ", roleId="
                    + roleId + ", appRoleMount=" + appRoleMount + "]";
        }
    }

    private final URI address;
    private final Login login;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http;
    private final Set<String> leases = new LinkedHashSet<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private String appRoleToken;
    private Instant appRoleTokenRenewAt = Instant.MIN;

    public VaultClient(URI address, Login login, Clock clock) {
        String a = address.toString();
        this.address = URI.create(a.endsWith("/") ? a : a + "/");
        this.login = login;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The address, for messages. */
    public String address() {
        return address.toString();
    }

    /** GET {@code /v1/path}. */
    public JsonNode read(String path) {
        return call("GET", path, null);
    }

    /** PUT {@code /v1/path} with a JSON body. */
    public JsonNode write(String path, ObjectNode body) {
        return call("PUT", path, body);
    }

    /** A new JSON object for a request body. */
    public ObjectNode object() {
        return json.createObjectNode();
    }

    /** Remembers a lease to revoke on {@link #close}. */
    public synchronized void track(String leaseId) {
        if (leaseId != null && !leaseId.isEmpty()) {
            leases.add(leaseId);
        }
    }

    /**
     * Renews a lease by {@code increment}; returns the lease's new duration.
     *
     * @throws SecretUnavailableException when Vault refuses (the lease is gone or reached its maximum)
     */
    public Duration renew(String leaseId, Duration increment) {
        ObjectNode body = object().put("lease_id", leaseId).put("increment", increment.toSeconds());
        return Duration.ofSeconds(write("sys/leases/renew", body).path("lease_duration").asLong(0));
    }

    /** Revokes a lease now; a failure is logged, not thrown (the lease ends by itself). */
    public void revoke(String leaseId) {
        try {
            write("sys/leases/revoke", object().put("lease_id", leaseId));
            synchronized (this) {
                leases.remove(leaseId);
            }
        } catch (SecretUnavailableException e) {
            LOG.warn("Revoking a Vault lease failed: {}", e.getMessage());
        }
    }

    /** Revokes every lease handed out, then the AppRole login's token. Once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<String> all;
        synchronized (this) {
            all = new ArrayList<>(leases);
        }
        for (String lease : all) {
            revoke(lease);
        }
        if (appRoleToken != null) {
            try {
                call("POST", "auth/token/revoke-self", object());
            } catch (SecretUnavailableException e) {
                LOG.warn("Revoking the Vault token failed: {}", e.getMessage());
            }
        }
    }

    private JsonNode call(String method, String path, ObjectNode body) {
        HttpResponse<String> response = send(method, path, body, token(false));
        if (response.statusCode() == 403 && login.roleId() != null) { // the AppRole token expired early: log in again
            response = send(method, path, body, token(true));
        }
        return answer(method, path, response);
    }

    private HttpResponse<String> send(String method, String path, ObjectNode body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(address.resolve("v1/" + path)).timeout(TIMEOUT)
                .header("Accept", "application/json");
        if (token != null) {
            request.header("X-Vault-Token", token);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new SecretUnavailableException("Vault at " + address + " is unreachable ("
                    + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SecretUnavailableException("interrupted while asking Vault");
        }
    }

    private JsonNode answer(String method, String path, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 204) {
            return json.createObjectNode();
        }
        JsonNode body;
        try {
            body = response.body() == null || response.body().isBlank() ? json.createObjectNode()
                    : json.readTree(response.body());
        } catch (IOException e) {
            throw new SecretUnavailableException("Vault answered " + method + " " + path + " with " + status
                    + " and no JSON");
        }
        if (status / 100 != 2) {
            String why = body.path("errors").isArray() && !body.path("errors").isEmpty()
                    ? ": " + abbreviate(body.path("errors").get(0).asText()) : "";
            throw new SecretUnavailableException("Vault answered " + method + " " + path + " with " + status + why);
        }
        return body;
    }

    /** The token to send: the configured one, the token file's, or an AppRole login's (again when {@code fresh}). */
    private String token(boolean fresh) {
        if (login.token() != null) {
            return login.token();
        }
        if (login.tokenFile() != null) {
            return readFile(login.tokenFile(), "secrets.vault.tokenFile");
        }
        if (login.roleId() == null) {
            return null;
        }
        synchronized (this) {
            if (fresh || appRoleToken == null || !clock.instant().isBefore(appRoleTokenRenewAt)) {
                String secretId = login.secretId() != null ? login.secretId()
                        : login.secretIdFile() != null ? readFile(login.secretIdFile(), "secrets.vault.appRole.secretIdFile")
                        : null;
                ObjectNode body = object().put("role_id", login.roleId());
                if (secretId != null) {
                    body.put("secret_id", secretId);
                }
                JsonNode auth = answer("POST", "auth/" + login.appRoleMount() + "/login",
                        send("POST", "auth/" + login.appRoleMount() + "/login", body, null)).path("auth");
                String token = auth.path("client_token").asText("");
                if (token.isEmpty()) {
                    throw new SecretUnavailableException("Vault's AppRole login gave no token");
                }
                long seconds = auth.path("lease_duration").asLong(0);
                appRoleToken = token;
                appRoleTokenRenewAt = seconds <= 0 ? Instant.MAX
                        : clock.instant().plusSeconds(Math.max(1, seconds * 8 / 10));
            }
            return appRoleToken;
        }
    }

    private static String readFile(Path file, String key) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new SecretUnavailableException(key + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() > 200 ? oneLine.substring(0, 200) + "..." : oneLine;
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "VaultClient[" + address + "]";
    }
}
