package io.queryapigate.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.secrets.SecretUnavailableException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class SecretUnavailableMapperTest {
    @Test
    void answers503SecretUnavailableWithoutNamingTheReference() {
        Response r = new SecretUnavailableMapper().toResponse(new SecretUnavailableException(
                "connection 'sales': ${vault:secret/data/sales#password} could not be resolved: Vault answered 403"));
        assertThat(r.getStatus()).isEqualTo(503);
        ErrorBody body = (ErrorBody) r.getEntity();
        assertThat(body.code()).isEqualTo("secret_unavailable");
        assertThat(body.error()).contains("secret this connection needs is unavailable").doesNotContain("vault")
                .doesNotContain("sales");
    }
}
