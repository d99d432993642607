package io.queryapigate.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The four roles hold the Python original's capability sets. */
class AdminRoleTest {
    @Test
    void ownerHoldsEverythingAndAMembershipNeverTheServerOnlyOnes() {
        for (Capability c : Capability.values()) {
            assertThat(AdminRole.OWNER.allows(c, true)).isTrue();
            assertThat(AdminRole.OWNER.allows(c, false)).isEqualTo(!c.serverOnly());
        }
    }

    @Test
    void adminManagesEverythingButPeopleSecretsAndConfiguration() {
        assertThat(AdminRole.ADMIN.allows(Capability.ACCESS_WRITE, true)).isTrue();
        assertThat(AdminRole.ADMIN.allows(Capability.WORKSPACES_READ, true)).isTrue();
        for (Capability c : new Capability[] {Capability.ADMINS_READ, Capability.ADMINS_WRITE,
                Capability.SECRETS_ROTATE, Capability.CONFIG_APPLY, Capability.HISTORY_FORGET,
                Capability.WORKSPACES_WRITE}) {
            assertThat(AdminRole.ADMIN.allows(c, true)).as(c.label()).isFalse();
        }
    }

    @Test
    void developerWritesQueriesAndAuditorOnlyReads() {
        assertThat(AdminRole.DEVELOPER.allows(Capability.QUERIES_WRITE, true)).isTrue();
        assertThat(AdminRole.DEVELOPER.allows(Capability.CONNECTIONS_WRITE, true)).isFalse();
        assertThat(AdminRole.DEVELOPER.allows(Capability.ACCESS_READ, true)).isFalse();
        assertThat(AdminRole.AUDITOR.allows(Capability.ACCESS_READ, true)).isTrue();
        assertThat(AdminRole.AUDITOR.allows(Capability.QUERIES_WRITE, true)).isFalse();
        assertThat(AdminRole.AUDITOR.dataAccess()).isFalse();
        assertThat(AdminRole.DEVELOPER.dataAccess()).isTrue();
    }

    @Test
    void publisherAndViewerAreOtherNames() {
        assertThat(AdminRole.of("publisher")).contains(AdminRole.DEVELOPER);
        assertThat(AdminRole.of("viewer")).contains(AdminRole.AUDITOR);
        assertThat(AdminRole.of("root")).isEmpty();
    }
}
