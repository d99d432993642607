package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.secrets.SecretReferences;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code secrets:} block, read as the application reads its YAML (with ${VAR} substituted first). */
class SecretsConfigTest {
    @TempDir
    Path dir;

    private GatewayConfiguration load(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("config.yml"), "auth:\n  adminKey: test-admin-key-0123456789\n"
                + (yaml.equals("{}\n") ? "" : yaml));
        ObjectMapper mapper = Jackson.newObjectMapper();
        return new YamlConfigurationFactory<>(GatewayConfiguration.class, Validators.newValidator(), mapper, "dw")
                .build(new SubstitutingSourceProvider(new FileConfigurationSourceProvider(),
                        new EnvironmentVariableSubstitutor(false)), file.toString());
    }

    @Test
    void providerReferencesSurviveTheYamlsOwnSubstitutionUnchanged() throws Exception {
        GatewayConfiguration config = load("connections:\n"
                + "  a: {dialect: postgres, url: x, password: \"${vault:secret/data/sales#password}\"}\n"
                + "  b: {dialect: postgres, url: x, password: \"${aws-sm:prod/sales#password}\"}\n"
                + "  c: {dialect: postgres, url: x, password: \"${vault-db:reporting#password}\"}\n"
                + "  d: {dialect: postgres, url: x, user: \"${vault-db:reporting#username}\","
                + " password: \"${file:/run/secrets/db}\"}\n"
                + "  e: {dialect: postgres, url: x, password: \"${QAG_NOT_SET_ANYWHERE_17}\"}\n");
        Map<String, ConnectionConfig> c = config.getConnections();
        assertThat(c.get("a").getPassword()).isEqualTo("${vault:secret/data/sales#password}");
        assertThat(c.get("b").getPassword()).isEqualTo("${aws-sm:prod/sales#password}");
        assertThat(c.get("c").getPassword()).isEqualTo("${vault-db:reporting#password}");
        assertThat(c.get("d").getUser()).isEqualTo("${vault-db:reporting#username}");
        assertThat(c.get("d").getPassword()).isEqualTo("${file:/run/secrets/db}");
        assertThat(c.get("e").getPassword()).as("an unset variable is left for the resolver, which names it")
                .isEqualTo("${QAG_NOT_SET_ANYWHERE_17}");
    }

    @Test
    void theDefaultsAllowNothingButTheEnvironment() throws Exception {
        try (SecretReferences refs = load("{}\n").getSecrets().build(Map.of("DB_PW", "x"), Clock.systemUTC())) {
            assertThat(refs.prefixes()).containsExactly("env", "file", "vault", "vault-db", "aws-sm");
            assertThat(refs.resolve("a", "${DB_PW}").value()).isEqualTo("x");
            assertThatThrownBy(() -> refs.check("a", "${file:/run/secrets/db}"))
                    .hasMessageContaining("secrets.fileDirectories is empty");
            assertThatThrownBy(() -> refs.check("a", "${vault:secret/data/x#y}"))
                    .hasMessageContaining("secrets.vault.address is not set");
            assertThatThrownBy(() -> refs.check("a", "${aws-sm:x}"))
                    .hasMessageContaining("secrets.aws.region is not set");
        }
    }

    @Test
    void aFullBlockBuildsAndTheRegionMayComeFromTheEnvironment() throws Exception {
        SecretsConfig secrets = load("secrets:\n  cacheTtl: 1m\n  fileDirectories: [/run/secrets]\n"
                + "  vault:\n    address: http://127.0.0.1:8200\n    appRole: {roleId: r, secretIdFile: /run/secrets/sid}\n"
                + "    allowedPaths: [secret/data/app]\n    kvVersion: 1\n    databaseRoles: [reporting]\n"
                + "  aws:\n    endpoint: http://127.0.0.1:15000\n    allowedPrefixes: [prod/]\n").getSecrets();
        try (SecretReferences refs = secrets.build(Map.of("AWS_REGION", "eu-west-1"), Clock.systemUTC())) {
            refs.check("a", "${vault:secret/data/app/db#password}");
            refs.check("a", "${vault-db:reporting#password}");
            refs.check("a", "${aws-sm:prod/db}");
            refs.check("a", "${file:/run/secrets/db}");
        }
    }

    @Test
    void loginsMustBeExactlyOne() throws Exception {
        SecretsConfig both = load("secrets:\n  vault:\n    address: http://v:8200\n    token: t\n"
                + "    tokenFile: /run/t\n").getSecrets();
        assertThatThrownBy(() -> both.build(Map.of(), Clock.systemUTC()))
                .hasMessageContaining("secrets.vault: give exactly one of token, tokenFile and appRole");
        SecretsConfig neither = load("secrets:\n  vault:\n    address: http://v:8200\n    appRole: {roleId: r}\n")
                .getSecrets();
        assertThatThrownBy(() -> neither.build(Map.of(), Clock.systemUTC()))
                .hasMessageContaining("secrets.vault.appRole: give one of secretId and secretIdFile");
    }
}
