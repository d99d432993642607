package io.queryapigate.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.config.AuditConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** QUERYAPIGATE_AUDIT_KEY and the retention cap as startup reads them: a bad value stops it, naming the variable. */
class AuditKeysTest {
    private static final String A = "a".repeat(32);
    private static final String B = "b".repeat(40);

    @Test
    void keysAreLongEnoughAndListedOnce() {
        assertThat(AuditChain.fromVariable(null).keyed()).isFalse();
        assertThat(AuditChain.fromVariable(" , ").keyed()).isFalse();
        assertThat(AuditChain.fromVariable(A + ", " + B).keyCount()).isEqualTo(2);
        assertThatThrownBy(() -> AuditChain.fromVariable("short")).hasMessage("QUERYAPIGATE_AUDIT_KEY must be at"
                + " least 32 characters - e.g. from `openssl rand -hex 32`");
        assertThatThrownBy(() -> AuditChain.fromVariable(A + ",short")).hasMessageStartingWith(
                "Key 2 of 2 in QUERYAPIGATE_AUDIT_KEY must be at least 32 characters");
        assertThatThrownBy(() -> AuditChain.fromVariable(A + "," + B + "," + A)).hasMessage(
                "Key 3 of 3 in QUERYAPIGATE_AUDIT_KEY is the same as key 1 - list each key once");
    }

    @Test
    void theFirstKeySignsAndEveryOneVerifies() {
        AuditChain rotating = AuditChain.fromVariable(B + "," + A);
        String signed = AuditChain.fromVariable(A).hash(AuditChain.GENESIS, 1, "{}");
        assertThat(signed).startsWith("hmac-sha256:").hasSize("hmac-sha256:".length() + 64);
        assertThat(rotating.check(signed, AuditChain.GENESIS, 1, "{}")).isEqualTo(AuditChain.Check.KEYED);
        assertThat(rotating.signedBy(signed, AuditChain.GENESIS, 1, "{}")).isEqualTo(1);
        assertThat(rotating.hash(AuditChain.GENESIS, 1, "{}")).isNotEqualTo(signed);
        assertThat(rotating.check(signed, AuditChain.GENESIS, 2, "{}")).isEqualTo(AuditChain.Check.WRONG);
        assertThat(AuditChain.unkeyed().hash(AuditChain.GENESIS, 1, "{}")).startsWith("sha256:");
        assertThat(AuditChain.unkeyed().check(signed, AuditChain.GENESIS, 1, "{}"))
                .isEqualTo(AuditChain.Check.KEYED_UNCHECKED);
    }

    @Test
    void thePythonVariableWinsOverTheYamlCap() {
        AuditConfig config = new AuditConfig();
        config.setMaxEntries(2000);
        assertThat(config.maxEntries(Map.of())).isEqualTo(2000);
        assertThat(config.maxEntries(Map.of(AuditConfig.LIMIT_VARIABLE, " 50 "))).isEqualTo(50);
        assertThatThrownBy(() -> config.maxEntries(Map.of(AuditConfig.LIMIT_VARIABLE, "0")))
                .hasMessageStartingWith("QUERYAPIGATE_AUDIT_LOG_LIMIT must be a whole number of at least 1");
        assertThatThrownBy(() -> config.maxEntries(Map.of(AuditConfig.LIMIT_VARIABLE, "lots")))
                .hasMessageContaining("QUERYAPIGATE_AUDIT_LOG_LIMIT");
    }
}
