package io.queryapigate.scope;

/**
 * The workspace the code on this thread acts in, for the services that look up what a workspace owns (saved queries,
 * connections, keys, history, cache entries, collections, descriptions, the schema browser): a management request's,
 * settled once its caller is known ({@code workspaces.WorkspaceSettling}), or {@value #DEFAULT} for everything else (the
 * command line, configuration as code, start-up, background work). Every request resets it before it is routed, so
 * a request thread never carries the last request's.
 */
public final class Scope {
    /** The workspace that holds what was made before workspaces, and whatever is made without naming one. */
    public static final String DEFAULT = "default";

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private Scope() {}

    /** The workspace this thread acts in. */
    public static String current() {
        String workspace = CURRENT.get();
        return workspace == null ? DEFAULT : workspace;
    }

    /** Whether {@code owner} (a row's workspace) is the one this thread acts in. */
    public static boolean owns(String owner) {
        return current().equals(owner == null ? DEFAULT : owner);
    }

    /**
     * Acts in {@code workspace} on this thread from now on (null: the default). Only the request filters of the
     * {@code workspaces} package call it: once before routing, once the caller is known.
     */
    public static void set(String workspace) {
        CURRENT.set(workspace); // kept as an entry, even null: no allocation per request
    }
}
