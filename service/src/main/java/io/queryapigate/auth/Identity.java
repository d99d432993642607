package io.queryapigate.auth;

import java.util.Map;

/**
 * Who stands behind a {@link Caller}, beyond the grants it runs SQL with.
 *
 * @param kind        how the caller proved who it is
 * @param role        an administrator's role in the workspace it acts in ({@link AdminRole}'s name), or, for a key
 *                    made from a role and a signed-in user, the API-key role's name; null for none
 * @param serverWide  an administrator's role is server-wide (not from a workspace membership)
 * @param workspace   the workspace this request acts in
 * @param memberships an administrator's roles by workspace (empty for others)
 * @param issuer      a signed-in user's or SSO administrator's token issuer, else null
 * @param subject     a signed-in user's or SSO administrator's subject, else null
 * @param claims      values for {@code from_claim} parameters: a signed-in user's verified claims, or an API key's
 *                    fixed {@code claims}; empty when none
 * @param credentialId the personal admin token's or console session's store id, else 0
 */
public record Identity(Kind kind, String role, boolean serverWide, String workspace, Map<String, String> memberships,
        String issuer, String subject, Map<String, Object> claims, long credentialId) {
    public static final String DEFAULT_WORKSPACE = "default";

    /** How the caller authenticated. */
    public enum Kind {
        /** A scoped API key from the store. */
        KEY,
        /** The administrator key of the YAML: the break-glass owner. */
        BREAK_GLASS,
        /** A named administrator, with a personal admin token or a console session. */
        ADMINISTRATOR,
        /** A signed-in user, with a verified JWT. */
        USER
    }

    public Identity {
        memberships = memberships == null ? Map.of() : Map.copyOf(memberships);
        claims = claims == null ? Map.of() : Map.copyOf(claims);
        workspace = workspace == null ? DEFAULT_WORKSPACE : workspace;
    }

    /** A scoped key of the default workspace, made from no role and carrying no claims. */
    public static Identity key() {
        return new Identity(Kind.KEY, null, false, DEFAULT_WORKSPACE, Map.of(), null, null, Map.of(), 0);
    }

    /** The YAML administrator key, acting in {@code workspace}. */
    public static Identity breakGlass(String workspace) {
        return new Identity(Kind.BREAK_GLASS, AdminRole.OWNER.label(), true, workspace, Map.of(), null, null, Map.of(),
                0);
    }

    /** This identity acting in another workspace (an administrator naming one in the path). */
    public Identity in(String otherWorkspace) {
        return new Identity(kind, role, serverWide, otherWorkspace, memberships, issuer, subject, claims, credentialId);
    }

    /** An administrator of something: the break-glass key, or a named administrator (with a role or a membership). */
    public boolean administrator() {
        return kind == Kind.BREAK_GLASS || kind == Kind.ADMINISTRATOR;
    }
}
