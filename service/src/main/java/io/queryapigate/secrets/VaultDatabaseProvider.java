package io.queryapigate.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ${vault-db:reporting#username}} and {@code ${vault-db:reporting#password}}: dynamic database credentials
 * from Vault's database secrets engine for a role in {@code secrets.vault.databaseRoles}. Both fields of one role
 * come from the same lease. The lease is renewed once two thirds of it have passed (when a pool asks again, which
 * {@link SecretReferences} makes it do before then); a lease that cannot be renewed is replaced by new credentials.
 * Credentials are never handed out within a margin of their lease's end (a tenth of it, 5 s to 5 min), so a
 * connection opened with them can be used and retired before Vault drops the user. Every lease is revoked on close.
 */
public final class VaultDatabaseProvider implements SecretProvider {
    private static final Logger LOG = LoggerFactory.getLogger(VaultDatabaseProvider.class);
    private static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_.-]+");

    private final VaultClient client;
    private final String mount;
    private final List<String> roles;
    private final Clock clock;
    private final Map<String, Lease> leases = new HashMap<>();

    /**
     * @param client null when {@code secrets.vault.address} is not set: every reference is refused
     * @param mount where the database engine is mounted ({@code database})
     * @param roles the roles references may ask for
     */
    public VaultDatabaseProvider(VaultClient client, String mount, List<String> roles, Clock clock) {
        this.client = client;
        this.mount = mount;
        this.roles = List.copyOf(roles);
        this.clock = clock;
    }

    @Override
    public String prefix() {
        return "vault-db";
    }

    @Override
    public String refusal(String reference) {
        if (client == null) {
            return "secrets.vault.address is not set";
        }
        int hash = reference.indexOf('#');
        String field = hash < 0 ? "" : reference.substring(hash + 1);
        if (!field.equals("username") && !field.equals("password")) {
            return "name the field after the role: ${vault-db:role#username} or ${vault-db:role#password}";
        }
        String role = reference.substring(0, hash);
        if (!ROLE.matcher(role).matches()) {
            return "'" + role + "' is not a role name";
        }
        if (!roles.contains(role)) {
            return roles.isEmpty() ? "secrets.vault.databaseRoles is empty: no database role may be asked for"
                    : "'" + role + "' is not a role secrets.vault.databaseRoles allows";
        }
        return null;
    }

    @Override
    public synchronized Secret fetch(String reference) {
        int hash = reference.indexOf('#');
        String role = reference.substring(0, hash);
        Instant now = clock.instant();
        Lease held = leases.get(role);
        Lease lease = held;
        if (lease != null && !now.isBefore(lease.renewAt)) {
            lease = renewed(lease, now);
        }
        if (lease == null || !now.isBefore(lease.usableUntil)) {
            try {
                lease = issue(role, now);
            } catch (SecretUnavailableException e) {
                if (held == null || !now.isBefore(held.usableUntil)) {
                    throw e;
                }
                LOG.warn("{}; the credentials of database role {} stay in use until {}", e.getMessage(), role,
                        held.usableUntil);
                lease = held;
            }
        }
        leases.put(role, lease);
        String value = reference.endsWith("#username") ? lease.username : lease.password;
        return new Secret(value, Duration.between(now, lease.usableUntil));
    }

    /** Not kept by {@link SecretReferences}: both fields of a role must come from the lease held here. */
    @Override
    public boolean cacheable() {
        return false;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }

    private Lease issue(String role, Instant now) {
        JsonNode answer = client.read(mount + "/creds/" + role);
        JsonNode data = answer.path("data");
        String leaseId = answer.path("lease_id").asText("");
        if (!data.path("username").isTextual() || !data.path("password").isTextual()) {
            throw new SecretUnavailableException("Vault's " + mount + "/creds/" + role + " gave no username and password");
        }
        client.track(leaseId);
        long seconds = answer.path("lease_duration").asLong(0);
        return Lease.of(role, data.path("username").asText(), data.path("password").asText(), leaseId,
                answer.path("renewable").asBoolean(false), Duration.ofSeconds(seconds), now);
    }

    /** The lease renewed, or null when it cannot be (then new credentials are issued). */
    private Lease renewed(Lease lease, Instant now) {
        if (!lease.renewable || lease.leaseId.isEmpty()) {
            return null;
        }
        try {
            Duration granted = client.renew(lease.leaseId, lease.duration);
            if (granted.compareTo(margin(lease.duration).multipliedBy(2)) < 0) {
                return null; // near its maximum TTL: better new credentials than ones about to be dropped
            }
            return Lease.of(lease.role, lease.username, lease.password, lease.leaseId, true, granted, now);
        } catch (SecretUnavailableException e) {
            LOG.warn("Renewing the Vault lease of database role {} failed ({}); asking for new credentials", lease.role,
                    e.getMessage());
            return null;
        }
    }

    /** How long before a lease's end its credentials stop being handed out: a tenth, between 5 s and 5 min. */
    static Duration margin(Duration lease) {
        long tenth = lease.toMillis() / 10;
        return Duration.ofMillis(Math.min(300_000, Math.max(5_000, tenth)));
    }

    private record Lease(String role, String username, String password, String leaseId, boolean renewable,
            Duration duration, Instant renewAt, Instant usableUntil) {
        static Lease of(String role, String username, String password, String leaseId, boolean renewable,
                Duration duration, Instant now) {
            Instant usable = now.plus(duration).minus(margin(duration));
            Instant renew = now.plus(duration.multipliedBy(2).dividedBy(3));
            return new Lease(role, username, password, leaseId, renewable, duration,
                    renew.isBefore(usable) ? renew : usable, usable.isBefore(now) ? now : usable);
        }

        @Override
        public String toString() {
            return "Lease[" + role + ", " + leaseId + "]";
        }
    }
}
