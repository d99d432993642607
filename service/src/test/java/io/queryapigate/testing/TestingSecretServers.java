package io.queryapigate.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The secret stores the secrets tests talk to, as {@code scripts/test-services.sh} starts them: the AWS emulator
 * (moto, {@code QAG_MOTO_URL}, else port 15000) and OpenBao ({@code QAG_VAULT_URL} and {@code QAG_VAULT_TOKEN},
 * else port 18200 with the dev root token). A server that does not answer fails the test, naming the command that
 * starts it; nothing is skipped.
 */
public final class TestingSecretServers {
    private TestingSecretServers() {}

    /** The AWS emulator's endpoint. */
    public static URI moto() {
        URI url = URI.create(env("QAG_MOTO_URL", "http://127.0.0.1:15000"));
        require(url.resolve("/moto-api/data.json"), null, "moto", "QAG_MOTO_URL");
        return url;
    }

    /** OpenBao's address. */
    public static URI vault() {
        URI url = URI.create(env("QAG_VAULT_URL", "http://127.0.0.1:18200"));
        require(url.resolve("/v1/sys/mounts"), vaultToken(), "openbao", "QAG_VAULT_URL");
        return url;
    }

    /** OpenBao's root token. */
    public static String vaultToken() {
        return env("QAG_VAULT_TOKEN", "qag-test-root");
    }

    private static String env(String name, String otherwise) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? otherwise : v;
    }

    private static void require(URI probe, String token, String service, String variable) {
        HttpRequest.Builder request = HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5));
        if (token != null) {
            request.header("X-Vault-Token", token);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status == 200) {
                return;
            }
            throw new IllegalStateException(service + " at " + probe + " answered " + status);
        } catch (IOException e) {
            throw new IllegalStateException(service + " does not answer at " + probe + " (" + variable + "): start it"
                    + " with SERVICES=" + service + " scripts/test-services.sh start", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
