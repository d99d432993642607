package io.queryapigate.admins;

import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.Credentials;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ETags;
import io.queryapigate.keys.KeyFields;
import io.queryapigate.store.AdminTokenDao;
import io.queryapigate.store.AdminTokenRow;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.UniqueViolation;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Named administrators and their personal admin tokens, as the Python original has them ({@code admins.py}): one
 * role of four or none (roles in workspaces only), an email, {@code active}; tokens {@code qagadm_...} shown once,
 * kept as SHA-256, several per administrator, each revocable, with an optional last day. Deactivating an
 * administrator stops its tokens and ends its console sessions at once; deleting it removes them and its
 * memberships. Without {@code auth.adminKey} (the break-glass owner) no change may leave the store without an active
 * owner: 409 {@code last_owner}, checked in the change's transaction.
 */
public final class Administrators {
    /** Names the audit trail and the gateway use for themselves, besides those keys may not take. */
    private static final String RESERVED_NAME = "-";
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final Pattern TOKEN_ID = Pattern.compile("tok_([1-9][0-9]{0,17})");
    private static final int TOKEN_PREFIX_LENGTH = Credentials.ADMIN_TOKEN_PREFIX.length() + 6;

    private final Jdbi jdbi;
    private final AdministratorDao admins;
    private final AdminTokenDao tokens;
    private final boolean breakGlassKey;
    private final Clock clock;
    private final AuditLog audit;

    /**
     * @param breakGlassKey whether {@code auth.adminKey} is set: then the store may be left without an owner, since
     *                      the key still is one
     */
    public Administrators(Jdbi jdbi, boolean breakGlassKey, Clock clock, AuditLog audit) {
        this.audit = audit;
        this.jdbi = jdbi;
        this.admins = jdbi.onDemand(AdministratorDao.class);
        this.tokens = jdbi.onDemand(AdminTokenDao.class);
        this.breakGlassKey = breakGlassKey;
        this.clock = clock;
    }

    /** What a change sets; a null field is left as it is. */
    public record Change(Optional<String> role, Optional<String> email, Boolean active) {}

    /** A token and its secret, shown this once. */
    public record Issued(AdminTokenRow token, String secret) {}

    public List<AdministratorRow> list() {
        return admins.list();
    }

    /** The administrator, or 404 {@code admin_not_found}. */
    public AdministratorRow find(String name) {
        return admins.findByName(name).orElseThrow(() -> notFound(name));
    }

    /** Its role in each workspace it is a member of. */
    public Map<String, String> memberships(AdministratorRow admin) {
        return admins.memberships(admin.id());
    }

    public int tokenCount(AdministratorRow admin) {
        return tokens.count(admin.id());
    }

    /**
     * Stops startup when nobody could administer the server: no {@code auth.adminKey} and no active owner in the
     * store.
     */
    public void requireAnOwner() {
        if (!breakGlassKey && !admins.activeOwnerExists()) {
            throw new IllegalStateException("auth.adminKey is not set and the store has no active owner, so nobody"
                    + " could administer this server. Create one with `java -jar queryapigate.jar admins create NAME"
                    + " --role owner CONFIG` (it prints the owner's first admin token), or set auth.adminKey.");
        }
    }

    /**
     * A new administrator; 409 {@code admin_exists}, or {@code name_taken} when an API key has the name.
     *
     * @param role a role's name or null (roles in workspaces only); {@code publisher} and {@code viewer} are stored
     *             as {@code developer} and {@code auditor}
     */
    public AdministratorRow create(String name, String role, String email, String createdBy) {
        name(name);
        String stored = role(role);
        String mail = email(email);
        try {
            jdbi.useTransaction(h -> {
                AdministratorDao dao = h.attach(AdministratorDao.class);
                if (dao.findByName(name).isPresent()) {
                    throw exists(name);
                }
                if (dao.keyNamed(name)) {
                    throw new ApiException(409, "name_taken", "'" + name + "' is an API key's name - choose another");
                }
                dao.insert(name, stored, mail, clock.millis(), createdBy);
                Map<String, Object> changes = new java.util.TreeMap<>();
                changes.put("role", stored);
                changes.put("email", mail);
                audit.append("create_admin", name, changes);
            });
        } catch (UnableToExecuteStatementException e) {
            if (UniqueViolation.in(e)) { // created meanwhile: the unique index refused the second
                throw exists(name);
            }
            throw e;
        }
        return find(name);
    }

    /**
     * Changes the role, email or {@code active} (false stops every token and console session of theirs at once).
     * {@code ifMatch} (an {@link #etag}, or null) must name the administrator as read: 412 otherwise.
     */
    public AdministratorRow update(String name, String ifMatch, Change change) {
        String role = change.role() == null ? null : role(change.role().orElse(null));
        String email = change.email() == null ? null : email(change.email().orElse(null));
        jdbi.useTransaction(h -> {
            AdministratorDao dao = h.attach(AdministratorDao.class);
            dao.lockActiveOwners();
            AdministratorRow row = dao.findByName(name).orElseThrow(() -> notFound(name));
            checkMatch(row, ifMatch);
            String nextRole = change.role() == null ? row.role() : role;
            if (!java.util.Objects.equals(nextRole, row.role()) && row.subject() != null) {
                throw new ApiException(409, "sso_managed", name + " signs in through SSO: their role comes from their"
                        + " groups at the identity provider - change it there");
            }
            boolean active = change.active() == null ? row.active() : change.active();
            String nextEmail = change.email() == null ? row.email() : email;
            dao.update(row.id(), nextRole, nextEmail, active);
            if (!active) {
                dao.deleteSessions(row.id());
            }
            refuseOwnerless(dao);
            Map<String, Object> before = new java.util.TreeMap<>();
            before.put("role", row.role());
            before.put("email", row.email());
            before.put("active", row.active());
            Map<String, Object> after = new java.util.TreeMap<>();
            after.put("role", nextRole);
            after.put("email", nextEmail);
            after.put("active", active);
            Map<String, Object> changes = AuditLog.diff(before, after);
            if (!changes.isEmpty()) {
                audit.append("update_admin", name, changes);
            }
        });
        return find(name);
    }

    /** Removes the administrator, every token it holds, its memberships and its console sessions. */
    public void delete(String name, String ifMatch) {
        jdbi.useTransaction(h -> {
            AdministratorDao dao = h.attach(AdministratorDao.class);
            dao.lockActiveOwners();
            AdministratorRow row = dao.findByName(name).orElseThrow(() -> notFound(name));
            checkMatch(row, ifMatch);
            h.attach(AdminTokenDao.class).deleteAll(row.id());
            dao.deleteMemberships(row.id());
            dao.deleteSessions(row.id());
            dao.delete(row.id());
            refuseOwnerless(dao);
            Map<String, Object> changes = new java.util.TreeMap<>();
            changes.put("role", row.role());
            changes.put("email", row.email());
            audit.append("delete_admin", name, changes);
        });
    }

    public List<AdminTokenRow> tokens(String name) {
        return tokens.list(find(name).id());
    }

    /** A new token for the administrator; its secret is never stored or shown again. */
    public Issued issue(String name, String label, String expiresAt) {
        if (label != null && label.codePointCount(0, label.length()) > 100) {
            throw field("label", "must be text of at most 100 characters");
        }
        String expiry;
        try {
            expiry = KeyFields.expiresAt(expiresAt);
        } catch (IllegalArgumentException e) {
            throw field("expires_at", e.getMessage());
        }
        AdministratorRow admin = find(name);
        String secret = KeyHasher.newSecret(Credentials.ADMIN_TOKEN_PREFIX);
        return audit.inTransaction(() -> {
            long id = tokens.insert(new AdminTokenRow(0, admin.id(), KeyHasher.hashHex(secret),
                    secret.substring(0, TOKEN_PREFIX_LENGTH), label, expiry, clock.millis(), null));
            Map<String, Object> changes = new java.util.TreeMap<>();
            changes.put("token", "tok_" + id);
            changes.put("label", label);
            changes.put("expires_at", expiry);
            audit.append("issue_admin_token", name, changes);
            return new Issued(tokens.findById(id).orElseThrow(), secret);
        });
    }

    /** Revokes one of the administrator's tokens: it fails on its next request, on every instance. */
    public void revoke(String name, String tokenId) {
        var m = TOKEN_ID.matcher(tokenId);
        Optional<AdministratorRow> admin = admins.findByName(name);
        audit.inTransaction(() -> {
            if (!m.matches() || admin.isEmpty()
                    || tokens.delete(admin.get().id(), Long.parseLong(m.group(1))) != 1) {
                throw ApiException.notFound("token_not_found", "Administrator '" + name + "' has no token '"
                        + tokenId + "'");
            }
            audit.append("revoke_admin_token", name, Map.of("token", tokenId));
        });
    }

    /** A token's id in the API: {@code tok_} and its number. */
    public static String tokenId(AdminTokenRow token) {
        return "tok_" + token.id();
    }

    /** Whether the token's last day (UTC) has passed. */
    public static boolean expired(AdminTokenRow token, Clock clock) {
        return token.expiresAt() != null
                && LocalDate.now(clock.withZone(ZoneOffset.UTC)).isAfter(LocalDate.parse(token.expiresAt()));
    }

    /** The administrator's version for {@code ETag}/{@code If-Match}: what a change can change. */
    public static String etag(AdministratorRow row) {
        return ETags.of(row.name(), row.role(), row.email(), row.active());
    }

    private void refuseOwnerless(AdministratorDao dao) {
        if (!breakGlassKey && !dao.activeOwnerExists()) {
            throw new ApiException(409, "last_owner", "This would leave no active owner, and auth.adminKey is not set"
                    + " - nobody could manage administrators any more. Make someone else an owner first.");
        }
    }

    private static void checkMatch(AdministratorRow row, String ifMatch) {
        if (!ETags.matches(ifMatch, etag(row))) {
            throw new ApiException(412, "precondition_failed", "This administrator changed since you loaded it -"
                    + " reload it and try again");
        }
    }

    private static void name(String name) {
        try {
            KeyFields.name(name);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "invalid_name", "An administrator's name " + e.getMessage() + ".",
                    Map.of("name", e.getMessage()));
        }
        if (name.strip().equals(RESERVED_NAME)) {
            throw new ApiException(400, "invalid_name", "'-' is reserved - choose another name",
                    Map.of("name", "'-' is reserved"));
        }
    }

    private static String role(String role) {
        if (role == null) {
            return null;
        }
        return AdminRole.of(role).map(AdminRole::label).orElseThrow(() -> field("role", "must be one of owner,"
                + " admin, developer, auditor, or null (only roles in workspaces)"));
    }

    private static String email(String email) {
        if (email != null && (email.codePointCount(0, email.length()) > 254 || !EMAIL.matcher(email).matches())) {
            throw field("email", "must be an email address, or null");
        }
        return email;
    }

    private static ApiException field(String field, String problem) {
        return new ApiException(400, "invalid_body", field + " " + problem, Map.of(field, problem));
    }

    private static ApiException notFound(String name) {
        return ApiException.notFound("admin_not_found", "No administrator named '" + name + "'");
    }

    private static ApiException exists(String name) {
        return new ApiException(409, "admin_exists", "An administrator named '" + name + "' already exists");
    }
}
