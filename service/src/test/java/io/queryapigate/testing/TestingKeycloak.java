package io.queryapigate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Keycloak of the identity tests, as {@code scripts/test-services.sh start keycloak} runs it: {@code
 * QAG_KEYCLOAK_URL}, else http://localhost:18085, with the realm {@code queryapigate} from
 * {@code config/keycloak/queryapigate-realm.json} (users alice, bob, carol, dave with password {@code <name>-pw};
 * clients {@code queryapigate-console}, {@code reporting-app}, {@code other-app}). A Keycloak that does not answer
 * fails the test, naming the command that starts it; nothing is skipped. Tokens are real: password grants for users,
 * client credentials for applications.
 */
public final class TestingKeycloak {
    public static final String REALM = "queryapigate";
    public static final String CONSOLE = "queryapigate-console";
    public static final String CONSOLE_SECRET = "console-secret";
    public static final String REPORTING = "reporting-app";
    public static final String REPORTING_SECRET = "reporting-secret";
    public static final String OTHER = "other-app";
    public static final String OTHER_SECRET = "other-secret";
    /** The audience this server's tokens carry (the realm's audience mapper). */
    public static final String AUDIENCE = "queryapigate-api";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static volatile String checked;

    private TestingKeycloak() {}

    /** Keycloak's base address, checked once per JVM: the realm's discovery document answers. */
    public static String url() {
        String url = System.getenv("QAG_KEYCLOAK_URL");
        url = url == null || url.isBlank() ? "http://localhost:18085" : url.strip();
        if (!url.equals(checked)) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/realms/" + REALM
                        + "/.well-known/openid-configuration")).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("Keycloak at " + url + " answered " + r.statusCode() + " for realm "
                            + REALM + ": start it with scripts/test-services.sh start keycloak");
                }
            } catch (IOException e) {
                throw new IllegalStateException("Keycloak does not answer at " + url + " (QAG_KEYCLOAK_URL): start it"
                        + " with scripts/test-services.sh start keycloak", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            checked = url;
        }
        return url;
    }

    /** The realm's issuer, as its tokens name it in {@code iss}. */
    public static String issuer() {
        return url() + "/realms/" + REALM;
    }

    /** The realm's signing keys. */
    public static String jwksUrl() {
        return issuer() + "/protocol/openid-connect/certs";
    }

    /** A user's access token from a password grant through {@code client}. */
    public static String userToken(String client, String secret, String user) {
        return tokens(Map.of("grant_type", "password", "client_id", client, "client_secret", secret, "username", user,
                "password", user + "-pw", "scope", "openid")).get("access_token").asText();
    }

    /** A user's access token through the reporting application (audience {@code queryapigate-api}). */
    public static String userToken(String user) {
        return userToken(REPORTING, REPORTING_SECRET, user);
    }

    /** An application's own access token (client credentials). */
    public static String clientToken(String client, String secret) {
        return tokens(Map.of("grant_type", "client_credentials", "client_id", client, "client_secret", secret))
                .get("access_token").asText();
    }

    /** The token endpoint's whole answer (access, ID and refresh tokens) for these form fields. */
    public static JsonNode tokens(Map<String, String> form) {
        String body = new LinkedHashMap<>(form).entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(issuer()
                    + "/protocol/openid-connect/token")).timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new AssertionError("Keycloak refused a token for " + form.get("client_id") + "/"
                        + form.getOrDefault("username", "-") + ": " + r.statusCode() + " " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException("Keycloak's token endpoint failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
