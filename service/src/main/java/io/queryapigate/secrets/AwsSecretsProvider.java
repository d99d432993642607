package io.queryapigate.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClientBuilder;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;
import software.amazon.awssdk.services.secretsmanager.model.SecretsManagerException;

/**
 * {@code ${aws-sm:prod/sales}} and {@code ${aws-sm:prod/sales#password}}: an AWS Secrets Manager secret by name or
 * ARN, its whole {@code SecretString}, or after {@code #} a field of it as JSON. Only secrets whose name starts with
 * a prefix in {@code secrets.aws.allowedPrefixes} are read. Credentials come from the AWS SDK's default chain (the
 * environment, the profile files, the container's or instance's role); the client is built on first use.
 */
public final class AwsSecretsProvider implements SecretProvider {
    private final String region;
    private final URI endpoint;
    private final List<String> allowedPrefixes;
    private final ObjectMapper json = new ObjectMapper();
    private SecretsManagerClient client;

    /**
     * @param region the region, or null for none configured (every reference is refused)
     * @param endpoint another endpoint than AWS's (an emulator), or null
     * @param allowedPrefixes name prefixes references may read
     */
    public AwsSecretsProvider(String region, URI endpoint, List<String> allowedPrefixes) {
        this.region = region;
        this.endpoint = endpoint;
        this.allowedPrefixes = allowedPrefixes.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    @Override
    public String prefix() {
        return "aws-sm";
    }

    @Override
    public String refusal(String reference) {
        String id = secretId(reference);
        if (id.isEmpty()) {
            return "name the secret: ${aws-sm:prod/sales} or ${aws-sm:prod/sales#password}";
        }
        if (region == null) {
            return "secrets.aws.region is not set (nor AWS_REGION)";
        }
        if (allowedPrefixes.isEmpty()) {
            return "secrets.aws.allowedPrefixes is empty: no secret may be read";
        }
        String name = nameOf(id);
        for (String prefix : allowedPrefixes) {
            if (name.startsWith(prefix)) {
                return null;
            }
        }
        return "'" + id + "' is not a secret secrets.aws.allowedPrefixes allows";
    }

    @Override
    public Secret fetch(String reference) {
        String id = secretId(reference);
        int hash = reference.indexOf('#');
        GetSecretValueResponse answer;
        try {
            answer = client().getSecretValue(r -> r.secretId(id));
        } catch (ResourceNotFoundException e) {
            throw new SecretUnavailableException("AWS Secrets Manager has no secret " + id);
        } catch (SecretsManagerException e) {
            throw new SecretUnavailableException("AWS Secrets Manager refused it ("
                    + e.awsErrorDetails().errorCode() + ", HTTP " + e.statusCode() + ")");
        } catch (SdkException e) {
            throw new SecretUnavailableException("AWS Secrets Manager is unreachable or the credentials are missing ("
                    + e.getClass().getSimpleName() + ")");
        }
        String text = answer.secretString();
        if (text == null) {
            throw new SecretUnavailableException("the secret " + id + " holds binary data, not text");
        }
        if (hash < 0) {
            return new Secret(text, null);
        }
        String field = reference.substring(hash + 1);
        JsonNode value;
        try {
            value = json.readTree(text).path(field);
        } catch (IOException e) {
            throw new SecretUnavailableException("the secret " + id + " is not JSON, so it has no field " + field);
        }
        if (value.isMissingNode() || value.isNull() || value.isContainerNode()) {
            throw new SecretUnavailableException("the secret " + id + " has no text field '" + field + "'");
        }
        return new Secret(value.asText(), null);
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    private synchronized SecretsManagerClient client() {
        if (client == null) {
            SecretsManagerClientBuilder builder = SecretsManagerClient.builder().region(Region.of(region))
                    .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(5))
                            .socketTimeout(Duration.ofSeconds(10)));
            if (endpoint != null) {
                builder.endpointOverride(endpoint);
            }
            client = builder.build();
        }
        return client;
    }

    private static String secretId(String reference) {
        int hash = reference.indexOf('#');
        return (hash < 0 ? reference : reference.substring(0, hash)).strip();
    }

    /** The secret's name, from a name or an ARN ({@code arn:aws:secretsmanager:region:account:secret:name-AbCdEf}). */
    private static String nameOf(String id) {
        int at = id.indexOf(":secret:");
        return id.startsWith("arn:") && at >= 0 ? id.substring(at + ":secret:".length()) : id;
    }
}
