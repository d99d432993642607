package io.queryapigate.admins;

import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Identity;
import io.queryapigate.store.AdministratorRow;
import java.util.List;
import java.util.Map;

/**
 * The caller a named administrator is, acting in one workspace: its server-wide role there, else the role its
 * membership of that workspace gives it, else none (it may then only see who it is and manage its own tokens). Every
 * role but auditor runs SQL on every connection, as the administrator key does; an auditor reads what happened.
 */
public final class AdminCallers {
    private static final Grants ALL = new Grants(List.of("*"), List.of("*"), true, true, null, null, null, null, null,
            null, null, null, null);
    private static final Grants NONE = Grants.reach(List.of(), List.of(), false);

    private AdminCallers() {}

    /**
     * @param credentialId the personal token's or console session's id, recorded with what the caller does
     */
    public static Caller of(AdministratorRow admin, Map<String, String> memberships, String workspace,
            long credentialId) {
        String role = admin.role() != null ? admin.role() : memberships.get(workspace);
        boolean data = AdminRole.of(role).map(AdminRole::dataAccess).orElse(false);
        Identity identity = new Identity(Identity.Kind.ADMINISTRATOR, role, admin.role() != null, workspace,
                memberships, admin.issuer(), admin.subject(), Map.of(), credentialId);
        return new Caller(Caller.administratorKeyId(admin.id()), admin.name(), data, data ? ALL : NONE, identity);
    }

    /**
     * The same administrator acting in {@code workspace} (named by the request's path): its server-wide role, else
     * its membership's role there, else none. The break-glass key stays the owner wherever it acts.
     */
    public static Caller in(Caller caller, String workspace) {
        Identity identity = caller.identity();
        if (identity.kind() != Identity.Kind.ADMINISTRATOR) {
            return new Caller(caller.keyId(), caller.name(), caller.admin(), caller.grants(), identity.in(workspace));
        }
        String role = identity.serverWide() ? identity.role() : identity.memberships().get(workspace);
        boolean data = AdminRole.of(role).map(AdminRole::dataAccess).orElse(false);
        Identity there = new Identity(identity.kind(), role, identity.serverWide(), workspace,
                identity.memberships(), identity.issuer(), identity.subject(), identity.claims(),
                identity.credentialId());
        return new Caller(caller.keyId(), caller.name(), data, data ? ALL : NONE, there);
    }
}
