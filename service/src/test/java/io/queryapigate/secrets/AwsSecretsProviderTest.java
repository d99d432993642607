package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.testing.TestingClock;
import io.queryapigate.testing.TestingSecretServers;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** {@code ${aws-sm:...}} against the AWS emulator (moto): secrets made with the AWS SDK, rotated and deleted. */
class AwsSecretsProviderTest {
    private static final String RUN = "qag-" + UUID.randomUUID().toString().substring(0, 8);
    private static URI endpoint;
    private static SecretsManagerClient admin;

    @BeforeAll
    static void emulator() {
        endpoint = TestingSecretServers.moto();
        // the SDK's first credentials source; the emulator takes any. No instance metadata is ever asked for.
        System.setProperty("aws.accessKeyId", "testing");
        System.setProperty("aws.secretAccessKey", "testing");
        System.setProperty("aws.disableEc2Metadata", "true");
        admin = SecretsManagerClient.builder().region(Region.US_EAST_1).endpointOverride(endpoint)
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    private final TestingClock clock = new TestingClock();

    private SecretReferences refs(String... prefixes) {
        return new SecretReferences(List.of(new AwsSecretsProvider("us-east-1", endpoint, List.of(prefixes))),
                Duration.ofMinutes(5), clock);
    }

    private static String create(String name, String value) {
        return admin.createSecret(r -> r.name(name).secretString(value)).arn();
    }

    @Test
    void resolvesAWholeSecretAFieldOfItsJsonAndAnArn() {
        create(RUN + "/sales", "{\"username\":\"reporter\",\"password\":\"pa55\",\"port\":5432}");
        String arn = create(RUN + "/plain", "just-text");
        try (SecretReferences refs = refs(RUN + "/")) {
            assertThat(refs.resolve("sales", "${aws-sm:" + RUN + "/sales#password}").value()).isEqualTo("pa55");
            assertThat(refs.resolve("sales", "${aws-sm:" + RUN + "/sales#port}").value()).isEqualTo("5432");
            assertThat(refs.resolve("sales", "${aws-sm:" + RUN + "/plain}").value()).isEqualTo("just-text");
            assertThat(refs.resolve("sales", "${aws-sm:" + arn + "}").value()).isEqualTo("just-text");
            assertThatThrownBy(() -> refs.resolve("sales", "${aws-sm:" + RUN + "/sales#nosuch}"))
                    .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("no text field 'nosuch'")
                    .hasMessageNotContaining("pa55");
            assertThatThrownBy(() -> refs.resolve("sales", "${aws-sm:" + RUN + "/plain#password}"))
                    .hasMessageContaining("is not JSON").hasMessageNotContaining("just-text");
        }
    }

    @Test
    void theAllowListIsCheckedBeforeAsking() {
        create(RUN + "-other/secret", "x");
        try (SecretReferences refs = refs(RUN + "/")) {
            assertThatThrownBy(() -> refs.resolve("sales", "${aws-sm:" + RUN + "-other/secret}"))
                    .isInstanceOf(SecretUnavailableException.class)
                    .hasMessageContaining("is not a secret secrets.aws.allowedPrefixes allows");
        }
        try (SecretReferences none = refs()) {
            assertThatThrownBy(() -> none.check("sales", "${aws-sm:" + RUN + "/x}"))
                    .hasMessageContaining("secrets.aws.allowedPrefixes is empty");
        }
    }

    @Test
    void aRotatedSecretIsReadAgainAfterTheCacheTimeAndADeletedOneFailsClosed() {
        String name = RUN + "/rotating";
        create(name, "first");
        try (SecretReferences refs = refs(RUN + "/")) {
            String ref = "${aws-sm:" + name + "}";
            assertThat(refs.resolve("sales", ref).value()).isEqualTo("first");
            admin.putSecretValue(r -> r.secretId(name).secretString("second"));
            clock.advance(Duration.ofMinutes(3));
            assertThat(refs.resolve("sales", ref).value()).as("within the cache time").isEqualTo("first");
            clock.advance(Duration.ofMinutes(1));
            assertThat(refs.resolve("sales", ref).value()).as("after the refresh time").isEqualTo("second");

            admin.deleteSecret(r -> r.secretId(name).forceDeleteWithoutRecovery(true));
            clock.advance(Duration.ofMinutes(4));
            assertThat(refs.resolve("sales", ref).value()).as("forgiven while the value is within its time")
                    .isEqualTo("second");
            clock.advance(Duration.ofMinutes(1));
            assertThatThrownBy(() -> refs.resolve("sales", ref)).isInstanceOf(SecretUnavailableException.class)
                    .hasMessageContaining(ref).hasMessageContaining("has no secret")
                    .hasMessageNotContaining("second");
        }
    }

    @Test
    void anUnreachableEndpointFailsClosedNamingTheReference() {
        try (SecretReferences refs = new SecretReferences(List.of(new AwsSecretsProvider("us-east-1",
                URI.create("http://127.0.0.1:9"), List.of("x/"))), Duration.ofMinutes(5), clock)) {
            assertThatThrownBy(() -> refs.resolve("sales", "${aws-sm:x/db}"))
                    .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("${aws-sm:x/db}")
                    .hasMessageContaining("unreachable");
        }
    }
}
