package io.queryapigate.auth;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The four administrator roles, each a fixed set of {@link Capability capabilities} (the Python original's
 * {@code adminroles.ROLES}). A role from a workspace membership holds the same set without the
 * {@link Capability#serverOnly() server-only} capabilities. {@code publisher} and {@code viewer} are accepted as other
 * names for {@link #DEVELOPER} and {@link #AUDITOR}.
 */
public enum AdminRole {
    OWNER(EnumSet.allOf(Capability.class)),
    ADMIN(without(EnumSet.allOf(Capability.class), Capability.ADMINS_READ, Capability.ADMINS_WRITE,
            Capability.SECRETS_ROTATE, Capability.CONFIG_APPLY, Capability.HISTORY_FORGET,
            Capability.WORKSPACES_WRITE)),
    DEVELOPER(EnumSet.of(Capability.QUERIES_READ, Capability.CONNECTIONS_READ, Capability.OBSERVE, Capability.SELF,
            Capability.QUERIES_WRITE, Capability.EXPORTS_READ, Capability.EXPORTS_RUN)),
    AUDITOR(EnumSet.of(Capability.QUERIES_READ, Capability.CONNECTIONS_READ, Capability.OBSERVE, Capability.SELF,
            Capability.ACCESS_READ, Capability.SETTINGS_READ, Capability.EXPORTS_READ, Capability.WORKSPACES_READ));

    private final Set<Capability> capabilities;

    AdminRole(Set<Capability> capabilities) {
        this.capabilities = Set.copyOf(capabilities);
    }

    /** The name in the API and the store. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this role, server-wide or from a membership, holds {@code capability}. */
    public boolean allows(Capability capability, boolean serverWide) {
        return capabilities.contains(capability) && (serverWide || !capability.serverOnly());
    }

    /** Whether an administrator with this role may run SQL (saved or ad hoc) on every connection of its workspace. */
    public boolean dataAccess() {
        return this != AUDITOR;
    }

    /** The role with this name (or one of its other names), if any. */
    public static Optional<AdminRole> of(String name) {
        if (name == null) {
            return Optional.empty();
        }
        return switch (name) {
            case "owner" -> Optional.of(OWNER);
            case "admin" -> Optional.of(ADMIN);
            case "developer", "publisher" -> Optional.of(DEVELOPER);
            case "auditor", "viewer" -> Optional.of(AUDITOR);
            default -> Optional.empty();
        };
    }

    private static Set<Capability> without(EnumSet<Capability> all, Capability... removed) {
        for (Capability c : removed) {
            all.remove(c);
        }
        return all;
    }
}
