package io.queryapigate.workspaces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.admins.AdminCallers;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.CapabilityFeature;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Identity;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.AdministratorRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An administrator's caller made again for the workspace a request names ({@link AdminCallers#in}): its server-wide
 * role wherever it acts, else its membership's role there (never the server-only capabilities), else none.
 */
class AdministratorInWorkspaceTest {
    private static final Map<String, String> MEMBERSHIPS = Map.of("team-a", "owner", "team-b", "auditor");

    private static Caller administrator(String serverRole) {
        AdministratorRow row = new AdministratorRow(7, "carol", serverRole, true, null, null, null, 0, null, null);
        return AdminCallers.of(row, MEMBERSHIPS, Identity.DEFAULT_WORKSPACE, 3);
    }

    private static String refusal(Caller caller, Capability capability) {
        try {
            CapabilityFeature.check(caller, capability);
            return "allowed";
        } catch (ApiException e) {
            return e.code();
        }
    }

    @Test
    void aMembershipGivesItsRoleInThatWorkspaceOnly() {
        Caller atDefault = administrator(null);
        assertThat(refusal(atDefault, Capability.QUERIES_READ)).isEqualTo("workspace_required");

        Caller inA = AdminCallers.in(atDefault, "team-a");
        assertThat(inA.workspace()).isEqualTo("team-a");
        assertThat(inA.identity().role()).isEqualTo("owner");
        assertThat(inA.admin()).as("runs SQL on team-a's connections").isTrue();
        assertThat(inA.keyId()).isEqualTo(atDefault.keyId());
        assertThat(inA.identity().credentialId()).isEqualTo(3);
        assertThat(refusal(inA, Capability.CONNECTIONS_WRITE)).isEqualTo("allowed");
        assertThat(refusal(inA, Capability.WORKSPACES_WRITE)).as("server-only").isEqualTo("role_forbidden");
        assertThat(refusal(inA, Capability.ADMINS_READ)).isEqualTo("role_forbidden");

        Caller inB = AdminCallers.in(inA, "team-b");
        assertThat(inB.identity().role()).isEqualTo("auditor");
        assertThat(inB.admin()).as("an auditor reads what happened, runs nothing").isFalse();
        assertThat(inB.grants().connections()).isEmpty();
        assertThat(refusal(inB, Capability.QUERIES_READ)).isEqualTo("allowed");
        assertThat(refusal(inB, Capability.QUERIES_WRITE)).isEqualTo("role_forbidden");

        Caller inC = AdminCallers.in(inB, "team-c");
        assertThat(inC.identity().role()).isNull();
        assertThat(inC.admin()).isFalse();
        assertThat(refusal(inC, Capability.QUERIES_READ)).isEqualTo("workspace_required");
        assertThat(refusal(inC, Capability.SELF)).isEqualTo("allowed");
    }

    @Test
    void aServerWideRoleHoldsEverywhere() {
        Caller admin = AdminCallers.in(administrator("admin"), "team-b");
        assertThat(admin.identity().role()).as("not the auditor membership").isEqualTo("admin");
        assertThat(admin.identity().serverWide()).isTrue();
        assertThat(refusal(admin, Capability.SETTINGS_READ)).isEqualTo("allowed");
        assertThat(refusal(admin, Capability.WORKSPACES_WRITE)).isEqualTo("role_forbidden");
    }

    @Test
    void theBreakGlassKeyStaysTheOwner() {
        Caller key = new Caller(Caller.ADMIN_KEY_ID, "admin", true, new Grants(List.of("*"), List.of("*"), true,
                true, null, null, null, null, null, null, null, null, null));
        Caller inA = AdminCallers.in(key, "team-a");
        assertThat(inA.workspace()).isEqualTo("team-a");
        assertThat(inA.identity().kind()).isEqualTo(Identity.Kind.BREAK_GLASS);
        assertThat(inA.admin()).isTrue();
        assertThat(refusal(inA, Capability.WORKSPACES_WRITE)).isEqualTo("allowed");
    }

    @Test
    void aKeyIsNeverAnAdministratorWhereverItActs() {
        Caller key = new Caller(5, "app", false, Grants.reach(List.of("*"), List.of("*"), false),
                Identity.key().in("team-a"));
        assertThat(key.workspace()).isEqualTo("team-a");
        assertThatThrownBy(() -> CapabilityFeature.check(key, Capability.SELF)).isInstanceOf(ApiException.class)
                .extracting(e -> ((ApiException) e).code()).isEqualTo("admin_only");
    }
}
