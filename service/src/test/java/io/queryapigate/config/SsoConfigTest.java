package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationValidationException;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.secrets.SecretReferences;
import io.queryapigate.sso.SsoSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code sso:} block, read as the application reads its YAML: defaults, and bad values naming their key. */
class SsoConfigTest {
    private static final String GOOD = "sso:\n  issuer: https://id.example.com/realms/corp\n"
            + "  clientId: queryapigate-console\n  clientSecret: \"${env:SSO_SECRET}\"\n"
            + "  roles: {qag-owners: owner, qag-devs: publisher, qag-auditors: auditor}\n";

    @TempDir
    Path dir;

    private GatewayConfiguration load(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("config.yml"), "auth:\n  adminKey: test-admin-key-0123456789\n"
                + yaml);
        // as the application's bootstrap reads it: an unknown key fails
        ObjectMapper mapper = Jackson.newObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        return new YamlConfigurationFactory<>(GatewayConfiguration.class, Validators.newValidator(), mapper, "dw")
                .build(new SubstitutingSourceProvider(new FileConfigurationSourceProvider(),
                        new EnvironmentVariableSubstitutor(false)), file.toString());
    }

    private SsoSettings settings(String yaml) throws Exception {
        return load(yaml).getSso().settings(new SecretReferences(Map.of("SSO_SECRET", "s3cret")));
    }

    @Test
    void offUnlessConfigured() throws Exception {
        assertThat(load("").getSso()).isNull();
    }

    @Test
    void theDefaultsAndTheRolesAsConfigured() throws Exception {
        SsoSettings s = settings(GOOD);
        assertThat(s.issuer()).isEqualTo("https://id.example.com/realms/corp");
        assertThat(s.clientSecret()).as("a reference is kept, and resolved when a code is exchanged")
                .isEqualTo("${env:SSO_SECRET}");
        assertThat(s.redirectUri()).as("derived from each request").isNull();
        assertThat(s.scopes()).isEqualTo("openid profile email");
        assertThat(s.groupsClaim()).isEqualTo("groups");
        assertThat(s.sessionTtl()).isEqualTo(Duration.ofHours(8));
        assertThat(s.loginTtl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.roles()).containsEntry("qag-devs", AdminRole.DEVELOPER).containsEntry("qag-owners",
                AdminRole.OWNER);
    }

    @Test
    void severalGroupsGiveTheMostCapableRoleAndNoMappedGroupNone() throws Exception {
        SsoSettings s = settings(GOOD);
        assertThat(s.roleFor(List.of("qag-auditors", "qag-devs", "other"))).isEqualTo(AdminRole.DEVELOPER);
        assertThat(s.roleFor(List.of("qag-auditors", "/qag-owners"))).as("Keycloak's full group path")
                .isEqualTo(AdminRole.OWNER);
        assertThat(s.roleFor(List.of("qag-owners-not", "QAG-OWNERS"))).as("names match exactly").isNull();
        assertThat(s.roleFor(List.of())).isNull();
    }

    @Test
    void anExplicitRedirectUriMustBeTheCallback() throws Exception {
        assertThat(settings(GOOD + "  redirectUri: https://data.example.com/auth/sso/callback\n").redirectUri())
                .isEqualTo(URI.create("https://data.example.com/auth/sso/callback"));
        assertThatThrownBy(() -> settings(GOOD + "  redirectUri: https://data.example.com/elsewhere\n"))
                .hasMessageContaining("sso.redirectUri").hasMessageContaining("/auth/sso/callback");
    }

    @Test
    void badValuesStopStartupNamingTheirKey() {
        assertThatThrownBy(() -> settings(GOOD.replace("https://id.example.com", "http://id.example.com")))
                .hasMessageContaining("sso.issuer").hasMessageContaining("https://");
        assertThatThrownBy(() -> settings(GOOD.replace("https://id.example.com/realms/corp",
                "https://id.example.com/x?y=1"))).hasMessageContaining("sso.issuer");
        assertThatThrownBy(() -> settings(GOOD.replace("qag-devs: publisher", "qag-devs: superuser")))
                .hasMessageContaining("sso.roles.qag-devs").hasMessageContaining("superuser");
        assertThatThrownBy(() -> settings(GOOD + "  scopes: [profile, email]\n")).hasMessageContaining("sso.scopes")
                .hasMessageContaining("openid");
        assertThatThrownBy(() -> settings(GOOD.replace("${env:SSO_SECRET}", "${file:/etc/shadow}")))
                .as("a reference its provider may not read").hasMessageContaining("sso.clientSecret");
        assertThatThrownBy(() -> load(GOOD.replace("  roles: {qag-owners: owner, qag-devs: publisher,"
                + " qag-auditors: auditor}\n", ""))).isInstanceOf(ConfigurationValidationException.class)
                .hasMessageContaining("sso.roles");
        assertThatThrownBy(() -> load(GOOD + "  sessionTtl: 30d\n")).hasMessageContaining("sso.sessionTtl");
        assertThatThrownBy(() -> load(GOOD + "  loginTtl: 5s\n")).hasMessageContaining("sso.loginTtl");
        assertThatThrownBy(() -> load(GOOD.replace("  clientId: queryapigate-console\n", "")))
                .hasMessageContaining("sso.clientId");
        assertThatThrownBy(() -> load(GOOD + "  groupClaim: groups\n")).as("an unknown key")
                .hasMessageContaining("groupClaim");
    }
}
