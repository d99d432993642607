package io.queryapigate.params;

import static org.assertj.core.api.Assertions.assertThat;
import static io.queryapigate.params.ParamTesting.json;
import static io.queryapigate.params.ParamTesting.refused;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.errors.ApiException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code from_claim} parameters: the value comes from the caller's claims only, never from the request. */
class FromClaimTest {
    private static final Map<String, Object> ALICE = Map.of("sub", "a11ce", "org_id", "acme", "uid", 42,
            "app_metadata", Map.of("tenant", "t-7", "level", 3), "https://example.com/tenant", "namespaced",
            "realm_access", Map.of("roles", List.of("analyst")), "staff", true);

    private static ParamRules rules(String declared) {
        return ParamRules.parse(json(declared));
    }

    @Test
    void theValueComesFromTheClaimsReadAsTheDeclaredType() {
        ParamRules r = rules("""
                {"tenant": {"type": "str", "from_claim": "org_id"}, "uid": {"type": "int", "from_claim": "uid"},
                 "deep": {"from_claim": "app_metadata.tenant"}, "level": {"type": "int", "from_claim": "app_metadata.level"},
                 "ns": {"from_claim": "https://example.com/tenant"}, "staff": {"type": "bool", "from_claim": "staff"},
                 "uid_text": {"type": "str", "from_claim": "uid"}, "limit": {"type": "int", "default": 10}}""");
        Map<String, Object> v = r.resolve(Map.of(), null, ALICE);
        assertThat(v).containsEntry("tenant", "acme").containsEntry("uid", 42L).containsEntry("deep", "t-7")
                .containsEntry("level", 3L).containsEntry("ns", "namespaced").containsEntry("staff", true)
                .containsEntry("uid_text", "42").containsEntry("limit", 10L);
        assertThat(r.specs().get("tenant").required()).isTrue();
        assertThat(r.inputs()).extracting(ParamSpec::name).containsExactly("limit");
        assertThat(r.toJson().get("tenant").get("from_claim").asText()).isEqualTo("org_id");
        assertThat(ParamRules.parse(r.toJson()).specs().get("deep").fromClaim()).isEqualTo("app_metadata.tenant");
    }

    @Test
    void aValueSentByTheRequestIsA400NamingTheParameter() {
        ParamRules r = rules("{\"tenant\": {\"type\": \"str\", \"from_claim\": \"org_id\"}, \"n\": \"int\"}");
        ApiException inQuery = refused(() -> r.resolve(Map.of("tenant", "globex", "n", "1"), null, ALICE));
        assertThat(inQuery.status()).isEqualTo(400);
        assertThat(inQuery.code()).isEqualTo("param_from_claim");
        assertThat(inQuery.errors()).containsOnlyKeys("tenant");
        ApiException inBody = refused(() -> r.resolve(Map.of(), json("{\"tenant\": \"globex\", \"n\": 1}"), ALICE));
        assertThat(inBody.code()).isEqualTo("param_from_claim");
        ApiException asNull = refused(() -> r.resolve(Map.of("n", "1"), json("{\"tenant\": null}"), ALICE));
        assertThat(asNull.code()).isEqualTo("param_from_claim");
        ApiException empty = refused(() -> r.resolve(Map.of("tenant", "", "n", "1"), null, ALICE));
        assertThat(empty.code()).isEqualTo("param_from_claim");
    }

    @Test
    void aCallerWithoutTheClaimIsA403() {
        ParamRules r = rules("{\"tenant\": {\"from_claim\": \"org_id\"}}");
        ApiException missing = refused(() -> r.resolve(Map.of(), null, Map.of("sub", "carol")));
        assertThat(missing.status()).isEqualTo(403);
        assertThat(missing.code()).isEqualTo("claim_missing");
        ApiException notText = refused(() -> r.resolve(Map.of(), null, Map.of("org_id", List.of("acme", "globex"))));
        assertThat(notText.code()).isEqualTo("claim_missing");
        ApiException object = refused(() -> r.resolve(Map.of(), null, Map.of("org_id", Map.of("id", "acme"))));
        assertThat(object.code()).isEqualTo("claim_missing");
        ApiException none = refused(() -> r.resolve(Map.of(), null, Map.of()));
        assertThat(none.status()).isEqualTo(403);
        assertThat(none.code()).isEqualTo("sign_in_required");
    }

    @Test
    void aClaimThatBreaksTheRulesIsRefusedLikeABadValue() {
        ParamRules r = rules("{\"uid\": {\"type\": \"int\", \"from_claim\": \"sub\"}}");
        ApiException bad = refused(() -> r.resolve(Map.of(), null, ALICE));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.code()).isEqualTo("param_invalid");
    }

    @Test
    void withoutClaimsAnAdministratorSuppliesTheValue() {
        ParamRules r = rules("{\"tenant\": {\"from_claim\": \"org_id\"}}");
        assertThat(r.resolve(Map.of("tenant", "globex"), null, null)).containsEntry("tenant", "globex");
        assertThat(refused(() -> r.resolve(Map.of(), null, null)).code()).isEqualTo("param_required");
    }

    @Test
    void aFromClaimParameterIsAlwaysRequiredWithoutADefault() {
        assertThat(refused(() -> rules("{\"t\": {\"from_claim\": \"org_id\", \"default\": \"acme\"}}")).errors())
                .containsKey("t");
        assertThat(refused(() -> rules("{\"t\": {\"from_claim\": \"org_id\", \"required\": false}}")).errors()
                .get("t")).contains("always required");
        assertThat(refused(() -> rules("{\"t\": {\"from_claim\": \"\"}}")).errors()).containsKey("t");
        assertThat(refused(() -> rules("{\"t\": {\"from_claim\": 7}}")).errors()).containsKey("t");
        assertThat(refused(() -> rules("{\"t\": {\"from_claim\": \"" + "x".repeat(201) + "\"}}")).errors())
                .containsKey("t");
    }

    @Test
    void claimsAreFoundByExactNameThenByPath() {
        assertThat(Claims.lookup(ALICE, "realm_access.roles")).isEqualTo(List.of("analyst"));
        assertThat(Claims.lookup(ALICE, "https://example.com/tenant")).isEqualTo("namespaced");
        assertThat(Claims.lookup(ALICE, "app_metadata.missing")).isNull();
        assertThat(Claims.lookup(ALICE, "org_id.deeper")).isNull();
        assertThat(Claims.lookup(ALICE, "app_metadata.")).isNull();
        assertThat(Claims.lookup(ALICE, ".")).isNull();
    }
}
