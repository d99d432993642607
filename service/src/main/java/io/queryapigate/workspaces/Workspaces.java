package io.queryapigate.workspaces;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Identity;
import io.queryapigate.errors.ApiException;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.MemberRow;
import io.queryapigate.store.Store;
import io.queryapigate.store.WorkspaceDao;
import io.queryapigate.store.WorkspaceRow;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Workspaces and their members, in the Python original's rules: {@value Scope#DEFAULT} is never removed, a workspace
 * is removed only once it owns nothing (removing one never removes a team's work), a member holds one of the four
 * roles there. Who sees what: an administrator with {@code workspaces.read} server-wide sees every workspace, any
 * other administrator the ones it is a member of; one it may not see answers 404 as one that does not exist. Who
 * changes members: an owner of the server, or that workspace's own owner.
 */
public final class Workspaces {
    /** A workspace's name: 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}");
    private static final int DESCRIPTION_MAX = 500;
    private static final Set<String> CREATE_FIELDS = Set.of("name", "description");
    private static final Set<String> UPDATE_FIELDS = Set.of("description");
    private static final Set<String> MEMBER_FIELDS = Set.of("role");

    private final Store store;
    private final WorkspaceDao dao;
    private final Clock clock;
    private final AuditLog audit;
    private final long namesTtlMillis;
    private volatile Set<String> names = Set.of();
    private volatile long namesReadAt;
    private volatile boolean namesChanged = true;

    /**
     * @param namesTtl how long the workspaces' names are kept for the path prefix (other instances' changes are seen
     *                 within it; this instance's at once)
     */
    public Workspaces(Store store, Clock clock, Duration namesTtl, AuditLog audit) {
        this.audit = audit;
        this.store = store;
        this.dao = store.jdbi().onDemand(WorkspaceDao.class);
        this.clock = clock;
        this.namesTtlMillis = namesTtl.toMillis();
    }

    /** Whether a workspace of this name exists (from memory, read again once per TTL). */
    public boolean exists(String name) {
        long now = clock.millis();
        if (namesChanged || namesTtlMillis <= 0 || now - namesReadAt >= namesTtlMillis) {
            namesChanged = false;
            names = Set.copyOf(dao.names());
            namesReadAt = now;
        }
        return names.contains(name);
    }

    public List<WorkspaceRow> list(Caller caller) {
        Identity identity = caller.identity();
        return dao.list().stream()
                .filter(w -> seesAll(identity) || identity.memberships().containsKey(w.name())).toList();
    }

    /** The workspace, if the caller may see it; 404 {@code workspace_not_found} otherwise. */
    public WorkspaceRow get(Caller caller, String name) {
        Identity identity = caller.identity();
        if (!seesAll(identity) && !identity.memberships().containsKey(name)) {
            throw notFound(name);
        }
        return dao.find(name).orElseThrow(() -> notFound(name));
    }

    public WorkspaceRow create(JsonNode body, String actor) {
        refuseUnknown(body, CREATE_FIELDS);
        JsonNode nameNode = body.get("name");
        String name = nameNode != null && nameNode.isTextual() ? nameNode.textValue() : null;
        if (name == null || !NAME.matcher(name).matches()) {
            throw new ApiException(400, "invalid_name", "A workspace's name is 1-100 letters, digits, '.', '_' or"
                    + " '-', starting with a letter or digit.", Map.of("name", "is not a valid workspace name"));
        }
        String description = description(body.get("description"));
        try {
            store.jdbi().useTransaction(h -> {
                WorkspaceDao tx = h.attach(WorkspaceDao.class);
                if (tx.find(name).isPresent()) {
                    throw alreadyExists(name);
                }
                tx.insert(name, description, clock.millis(), actor);
                audit.append("create_workspace", name, java.util.Collections.singletonMap("description",
                        description));
            });
        } catch (org.jdbi.v3.core.statement.UnableToExecuteStatementException e) {
            if (dao.find(name).isPresent()) {
                throw alreadyExists(name);
            }
            throw e;
        }
        namesChanged = true;
        return dao.find(name).orElseThrow();
    }

    /** Its description: the only thing about a workspace that changes (its name is what everything in it is under). */
    public WorkspaceRow update(String name, JsonNode body) {
        refuseUnknown(body, UPDATE_FIELDS);
        if (!body.has("description")) {
            throw new ApiException(400, "invalid_body", "Nothing to change: a workspace has only its description to"
                    + " change.", Map.of("description", "is required"));
        }
        String description = description(body.get("description"));
        return audit.inTransaction(() -> {
            WorkspaceRow before = dao.find(name).orElseThrow(() -> notFound(name));
            if (dao.describe(name, description) == 0) {
                throw notFound(name);
            }
            audit.append("update_workspace", name, AuditLog.diff(
                    java.util.Collections.singletonMap("description", before.description()),
                    java.util.Collections.singletonMap("description", description)));
            return dao.find(name).orElseThrow(() -> notFound(name));
        });
    }

    /** Removes an empty workspace and its memberships; never {@value Scope#DEFAULT}. */
    public void delete(String name) {
        if (Scope.DEFAULT.equals(name)) {
            throw new ApiException(409, "workspace_protected", "The default workspace can't be removed: it holds what"
                    + " is made without naming a workspace.");
        }
        store.jdbi().useTransaction(h -> {
            WorkspaceDao tx = h.attach(WorkspaceDao.class);
            if (tx.find(name).isEmpty()) {
                throw notFound(name);
            }
            Map<String, Long> owned = owned(tx.contents(name));
            if (!owned.isEmpty()) {
                StringBuilder listed = new StringBuilder();
                owned.forEach((what, count) -> listed.append(listed.isEmpty() ? "" : ", ").append(count).append(' ')
                        .append(count == 1 ? ONE.get(what) : what));
                throw new ApiException(409, "workspace_not_empty", "Workspace '" + name + "' still has " + listed
                        + ": delete or move them first.").with("contents", owned);
            }
            tx.deleteMembers(name);
            tx.delete(name);
            audit.append("delete_workspace", name, null);
        });
        namesChanged = true;
    }

    private static final Map<String, String> ONE = Map.of("connections", "connection", "queries", "query",
            "API keys", "API key", "roles", "role");

    private static Map<String, Long> owned(WorkspaceDao.Contents c) {
        Map<String, Long> owned = new LinkedHashMap<>();
        if (c.connections() > 0) {
            owned.put("connections", c.connections());
        }
        if (c.queries() > 0) {
            owned.put("queries", c.queries());
        }
        if (c.keys() > 0) {
            owned.put("API keys", c.keys());
        }
        if (c.roles() > 0) {
            owned.put("roles", c.roles());
        }
        return owned;
    }

    public List<MemberRow> members(Caller caller, String name) {
        get(caller, name);
        return dao.members(name);
    }

    /** Gives {@code admin} {@code role} in the workspace, or changes it. */
    public MemberRow setMember(Caller caller, String name, String admin, JsonNode body, String actor) {
        get(caller, name);
        requireMemberManager(caller, name);
        refuseUnknown(body, MEMBER_FIELDS);
        JsonNode roleNode = body.get("role");
        AdminRole role = AdminRole.of(roleNode != null && roleNode.isTextual() ? roleNode.textValue() : null)
                .orElseThrow(() -> new ApiException(400, "invalid_body", "role must be one of owner, admin,"
                        + " developer, auditor.", Map.of("role", "must be one of owner, admin, developer, auditor")));
        AdministratorRow row = administrator(admin);
        store.jdbi().useTransaction(h -> {
            WorkspaceDao tx = h.attach(WorkspaceDao.class);
            Optional<MemberRow> was = tx.member(name, row.id());
            if (was.isPresent()) {
                tx.changeMember(name, row.id(), role.label());
            } else {
                tx.addMember(name, row.id(), role.label(), clock.millis(), actor);
            }
            Map<String, Object> changes = new java.util.LinkedHashMap<>();
            changes.put("admin", admin);
            changes.put("role", Map.of("from", was.map(MemberRow::role).orElse("-"), "to", role.label()));
            audit.append("set_workspace_member", name, changes);
        });
        return dao.member(name, row.id()).orElseThrow();
    }

    /** Takes {@code admin} out of the workspace. */
    public void removeMember(Caller caller, String name, String admin) {
        get(caller, name);
        requireMemberManager(caller, name);
        AdministratorRow row = store.jdbi().onDemand(AdministratorDao.class).findByName(admin)
                .orElseThrow(() -> memberNotFound(name, admin));
        audit.inTransaction(() -> {
            Optional<MemberRow> was = dao.member(name, row.id());
            if (dao.removeMember(name, row.id()) == 0) {
                throw memberNotFound(name, admin);
            }
            audit.append("remove_workspace_member", name, Map.of("admin", admin, "role",
                    was.map(MemberRow::role).orElse("-")));
        });
    }

    private AdministratorRow administrator(String admin) {
        return store.jdbi().onDemand(AdministratorDao.class).findByName(admin).orElseThrow(() ->
                ApiException.notFound("admin_not_found", "No administrator named '" + admin + "'."));
    }

    private static boolean seesAll(Identity identity) {
        return AdminRole.of(identity.role()).map(r -> identity.serverWide()
                && r.allows(Capability.WORKSPACES_READ, true)).orElse(false);
    }

    private static void requireMemberManager(Caller caller, String name) {
        Identity identity = caller.identity();
        boolean serverOwner = identity.serverWide() && AdminRole.of(identity.role())
                .map(r -> r.allows(Capability.WORKSPACES_WRITE, true)).orElse(false);
        if (!serverOwner && !AdminRole.OWNER.label().equals(identity.memberships().get(name))) {
            throw ApiException.forbidden("role_forbidden", "Only an owner, of the server or of workspace '" + name
                    + "', may change who belongs to it.");
        }
    }

    private static String description(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual() || node.textValue().length() > DESCRIPTION_MAX) {
            throw new ApiException(400, "invalid_body", "description must be text of at most " + DESCRIPTION_MAX
                    + " characters, or null.", Map.of("description", "must be text of at most " + DESCRIPTION_MAX
                    + " characters, or null"));
        }
        return node.textValue();
    }

    private static void refuseUnknown(JsonNode body, Set<String> allowed) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("invalid_body", "The request body must be a JSON object.");
        }
        Map<String, String> unknown = new LinkedHashMap<>();
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                unknown.put(field, "is not a known field");
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiException(400, "unknown_field", "Unknown field(s): " + String.join(", ", unknown.keySet())
                    + ".", unknown);
        }
    }

    /**
     * Refuses (400 {@code unsupported_operation}) what only the default workspace has (the example APIs,
     * configuration as code) when the request acts in another.
     */
    public static void requireDefault(Caller caller, String what) {
        if (!Scope.DEFAULT.equals(caller.workspace())) {
            throw new ApiException(400, "unsupported_operation", what + " belong to the default workspace: call"
                    + " without a /w/{workspace}/ prefix, as an administrator of the default workspace.");
        }
    }

    /** The answer for a workspace that does not exist, or that the caller may not see or act in. */
    public static ApiException notFound(String name) {
        return ApiException.notFound("workspace_not_found", "No workspace named '" + name + "'.");
    }

    private static ApiException alreadyExists(String name) {
        return new ApiException(409, "workspace_exists", "A workspace named '" + name + "' already exists.");
    }

    private static ApiException memberNotFound(String name, String admin) {
        return ApiException.notFound("member_not_found", "'" + admin + "' isn't a member of workspace '" + name
                + "'.");
    }
}
