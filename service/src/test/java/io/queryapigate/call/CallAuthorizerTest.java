package io.queryapigate.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.errors.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every grant check of a call: lookups, saved queries on their own or another connection, ad-hoc SQL. */
class CallAuthorizerTest {
    private static final CallAuthorizer AUTHORIZER = new CallAuthorizer();
    private static final Caller ADMIN = new Caller(Caller.ADMIN_KEY_ID, "admin", true, Grants.reach(List.of(),
            List.of(), false));

    private static Caller key(List<String> connections, List<String> queries, boolean adhoc) {
        return new Caller(7, "k", false, Grants.reach(connections, queries, adhoc));
    }

    private static ApiException refused(Runnable r) {
        ApiException e = catchThrowableOfType(ApiException.class, r::run);
        assertThat(e).as("expected a refusal").isNotNull();
        return e;
    }

    @Test
    void aKeyWithoutReachLearnsNothingFromALookup() {
        ApiException e = refused(() -> AUTHORIZER.mayLookUp(key(List.of(), List.of("other"), false), "orders"));
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.code()).isEqualTo("query_not_granted");
        AUTHORIZER.mayLookUp(key(List.of(), List.of("orders"), false), "orders");
        AUTHORIZER.mayLookUp(key(List.of("crm"), List.of(), false), "orders");
        AUTHORIZER.mayLookUp(ADMIN, "orders");
    }

    @Test
    void aSavedQueryRunsOnItsOwnConnectionUnlessTheKeyHoldsAnother() {
        Caller byQuery = key(List.of(), List.of("orders"), false);
        assertThat(AUTHORIZER.savedQueryConnection(byQuery, "orders", "crm", null)).isEqualTo("crm");
        assertThat(AUTHORIZER.savedQueryConnection(byQuery, "orders", "crm", "crm")).isEqualTo("crm");
        assertThat(AUTHORIZER.savedQueryConnection(byQuery, "orders", "crm", " ")).isEqualTo("crm");
        ApiException other = refused(() -> AUTHORIZER.savedQueryConnection(byQuery, "orders", "crm", "billing"));
        assertThat(other.code()).isEqualTo("connection_not_granted");
        Caller byConnection = key(List.of("crm", "billing"), List.of(), false);
        assertThat(AUTHORIZER.savedQueryConnection(byConnection, "orders", "crm", "billing")).isEqualTo("billing");
        ApiException notGranted = refused(() -> AUTHORIZER.savedQueryConnection(key(List.of("billing"), List.of(),
                false), "orders", "crm", null));
        assertThat(notGranted.code()).isEqualTo("query_not_granted");
        assertThat(AUTHORIZER.savedQueryConnection(ADMIN, "orders", "crm", "billing")).isEqualTo("billing");
    }

    @Test
    void adHocSqlNeedsAConnectionAndTheGrant() {
        assertThat(refused(() -> AUTHORIZER.adHocConnection(ADMIN, null)).code()).isEqualTo("connection_required");
        assertThat(refused(() -> AUTHORIZER.adHocConnection(ADMIN, "")).status()).isEqualTo(400);
        assertThat(refused(() -> AUTHORIZER.adHocConnection(key(List.of("crm"), List.of(), false), "crm")).code())
                .isEqualTo("adhoc_not_granted");
        assertThat(refused(() -> AUTHORIZER.adHocConnection(key(List.of("crm"), List.of(), true), "billing")).code())
                .isEqualTo("adhoc_not_granted");
        assertThat(AUTHORIZER.adHocConnection(key(List.of("crm"), List.of(), true), "crm")).isEqualTo("crm");
        assertThat(AUTHORIZER.adHocConnection(key(List.of("*"), List.of(), true), "any")).isEqualTo("any");
        assertThat(AUTHORIZER.adHocConnection(ADMIN, "crm")).isEqualTo("crm");
    }
}
