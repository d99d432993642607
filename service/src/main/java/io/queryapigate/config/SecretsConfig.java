package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import io.queryapigate.secrets.AwsSecretsProvider;
import io.queryapigate.secrets.EnvironmentProvider;
import io.queryapigate.secrets.FileProvider;
import io.queryapigate.secrets.SecretProvider;
import io.queryapigate.secrets.SecretReferences;
import io.queryapigate.secrets.VaultClient;
import io.queryapigate.secrets.VaultDatabaseProvider;
import io.queryapigate.secrets.VaultProvider;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code secrets:}: where secret references may read ({@code ${file:...}}, {@code ${vault:...}},
 * {@code ${vault-db:...}}, {@code ${aws-sm:...}}) and how long a value is kept. Every provider reads nothing until
 * its allow-list names something. See docs/secrets.md.
 */
public class SecretsConfig {
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration cacheTtl = Duration.minutes(5);

    @NotNull
    @JsonProperty
    private List<String> fileDirectories = new ArrayList<>();

    @Valid
    @NotNull
    @JsonProperty
    private Vault vault = new Vault();

    @Valid
    @NotNull
    @JsonProperty
    private Aws aws = new Aws();

    /** {@code secrets.vault}: HashiCorp Vault or OpenBao over its HTTP API. */
    public static class Vault {
        /** {@code http(s)://host:8200}; unset, no Vault reference resolves. */
        @JsonProperty
        private String address;
        @JsonProperty
        private String token;
        @JsonProperty
        private String tokenFile;
        @Valid
        @JsonProperty
        private AppRole appRole;
        @NotNull
        @JsonProperty
        private List<String> allowedPaths = new ArrayList<>();
        @Min(1)
        @Max(2)
        @JsonProperty
        private int kvVersion = 2;
        @NotEmpty
        @JsonProperty
        private String databaseMount = "database";
        @NotNull
        @JsonProperty
        private List<String> databaseRoles = new ArrayList<>();
    }

    /** {@code secrets.vault.appRole}: the AppRole login. */
    public static class AppRole {
        @NotEmpty
        @JsonProperty
        private String roleId;
        @JsonProperty
        private String secretId;
        @JsonProperty
        private String secretIdFile;
        @NotEmpty
        @JsonProperty
        private String mount = "approle";
    }

    /** {@code secrets.aws}: AWS Secrets Manager. */
    public static class Aws {
        /** Unset: AWS_REGION, then AWS_DEFAULT_REGION. */
        @JsonProperty
        private String region;
        /** Another endpoint than AWS's, such as an emulator's. */
        @JsonProperty
        private String endpoint;
        @NotNull
        @JsonProperty
        private List<String> allowedPrefixes = new ArrayList<>();
    }

    public Duration getCacheTtl() {
        return cacheTtl;
    }

    /**
     * The resolver with every provider: the environment, files, Vault (KV and database credentials), AWS Secrets
     * Manager. Another provider joins by being added to this list.
     *
     * @throws IllegalArgumentException naming the key of a value that cannot work
     */
    public SecretReferences build(Map<String, String> environment, Clock clock) {
        VaultClient vaultClient = vaultClient(clock);
        List<SecretProvider> providers = List.of(
                new EnvironmentProvider(environment),
                new FileProvider(fileDirectories.stream().map(d -> absolute(d, "secrets.fileDirectories")).toList()),
                new VaultProvider(vaultClient, vault.allowedPaths, vault.kvVersion),
                new VaultDatabaseProvider(vaultClient, vault.databaseMount, vault.databaseRoles, clock),
                new AwsSecretsProvider(region(environment), endpoint(), aws.allowedPrefixes));
        return new SecretReferences(providers, java.time.Duration.ofMillis(cacheTtl.toMilliseconds()), clock);
    }

    private VaultClient vaultClient(Clock clock) {
        if (vault.address == null || vault.address.isBlank()) {
            return null;
        }
        URI address = httpUri(vault.address, "secrets.vault.address");
        int logins = (blank(vault.token) ? 0 : 1) + (blank(vault.tokenFile) ? 0 : 1) + (vault.appRole == null ? 0 : 1);
        if (logins != 1) {
            throw new IllegalArgumentException("secrets.vault: give exactly one of token, tokenFile and appRole"
                    + " (found " + logins + ")");
        }
        AppRole role = vault.appRole;
        if (role != null && blank(role.secretId) == blank(role.secretIdFile)) {
            throw new IllegalArgumentException("secrets.vault.appRole: give one of secretId and secretIdFile");
        }
        return new VaultClient(address, new VaultClient.Login(blank(vault.token) ? null : vault.token,
                blank(vault.tokenFile) ? null : absolute(vault.tokenFile, "secrets.vault.tokenFile"),
                role == null ? null : role.roleId, role == null || blank(role.secretId) ? null : role.secretId,
                role == null || blank(role.secretIdFile) ? null : absolute(role.secretIdFile, "secrets.vault.appRole.secretIdFile"),
                role == null ? null : role.mount), clock);
    }

    private String region(Map<String, String> environment) {
        if (!blank(aws.region)) {
            return aws.region.strip();
        }
        String region = environment.get("AWS_REGION");
        return blank(region) ? (blank(environment.get("AWS_DEFAULT_REGION")) ? null
                : environment.get("AWS_DEFAULT_REGION")) : region;
    }

    private URI endpoint() {
        return blank(aws.endpoint) ? null : httpUri(aws.endpoint, "secrets.aws.endpoint");
    }

    private static URI httpUri(String text, String key) {
        try {
            URI uri = URI.create(text.strip());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + ": '" + text + "' is not an http:// or https:// URL");
    }

    private static Path absolute(String path, String key) {
        Path p = Path.of(path);
        if (!p.isAbsolute()) {
            throw new IllegalArgumentException(key + ": '" + path + "' must be an absolute path");
        }
        return p;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
