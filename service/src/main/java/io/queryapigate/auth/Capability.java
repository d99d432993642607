package io.queryapigate.auth;

/**
 * What an administrator may do in the management API. Every {@code /api/v1} operation needs exactly one
 * ({@link Requires}); the names are the Python original's. {@link #SELF} is every administrator's, whatever the role.
 */
public enum Capability {
    QUERIES_READ("queries.read", "read saved queries, their versions, history and collections", false),
    QUERIES_WRITE("queries.write", "create, change, publish and delete saved queries; rename collections", false),
    CONNECTIONS_READ("connections.read", "read connections (passwords are always masked) and browse their schemas",
            false),
    CONNECTIONS_WRITE("connections.write", "create, change, delete and test connections", false),
    ACCESS_READ("access.read", "read API keys and roles", false),
    ACCESS_WRITE("access.write", "create, change and delete API keys and roles", false),
    CACHE_READ("cache.read", "read cached responses", false),
    CACHE_WRITE("cache.write", "clear cached responses", false),
    EXAMPLES_WRITE("examples.write", "load and remove the bundled example APIs", false),
    OBSERVE("observe", "read the audit log, run history, alerts, instances and MCP status", false),
    SETTINGS_READ("settings.read", "read the server's settings", true),
    SECRETS_ROTATE("secrets.rotate", "re-encrypt stored passwords under a new encryption key", true),
    ADMINS_READ("admins.read", "read administrators and their tokens", true),
    ADMINS_WRITE("admins.write", "create, change and delete administrators, and issue or revoke anyone's tokens",
            true),
    SELF("self", "see who you are, and manage your own admin tokens", false),
    WRITES_APPROVE("writes.approve", "approve or reject a write an AI agent asked to make over MCP", false),
    EXPORTS_READ("exports.read", "read destinations (secrets masked), exports and their runs", false),
    EXPORTS_WRITE("exports.write", "create, change and delete exports", false),
    EXPORTS_RUN("exports.run", "run an export", false),
    DESTINATIONS_WRITE("destinations.write", "create, change, test and delete destinations", false),
    CONFIG_APPLY("config.apply", "see what a configuration directory would change, and apply it", false),
    HISTORY_FORGET("history.forget", "delete a person's runs and usage counts, on request", true),
    WORKSPACES_READ("workspaces.read", "list every workspace and its members", true),
    WORKSPACES_WRITE("workspaces.write",
            "create and remove workspaces, and give administrators roles in any of them", true);

    private final String label;
    private final String description;
    private final boolean serverOnly;

    Capability(String label, String description, boolean serverOnly) {
        this.label = label;
        this.description = description;
        this.serverOnly = serverOnly;
    }

    /** The name in the API ({@code queries.read}). */
    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** Only a server-wide role gives it: a workspace membership's role never does. */
    public boolean serverOnly() {
        return serverOnly;
    }
}
