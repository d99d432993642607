package io.queryapigate.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code ${vault:secret/data/sales#password}}: a field of a secret in Vault, the path as Vault's HTTP API names it
 * (for KV version 2 with {@code data/} after the mount), then {@code #} and the field. With {@code kvVersion} 2
 * the field is read from the secret's {@code data.data}, with 1 from {@code data}. Only paths under a prefix in
 * {@code secrets.vault.allowedPaths} are read. A secret that comes with a lease is kept for that lease at most,
 * and the lease is revoked when the server stops.
 */
public final class VaultProvider implements SecretProvider {
    static final Pattern PATH = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");

    private final VaultClient client;
    private final List<String> allowedPaths;
    private final int kvVersion;

    /**
     * @param client null when {@code secrets.vault.address} is not set: every reference is refused
     * @param allowedPaths path prefixes references may read
     * @param kvVersion 1 or 2
     */
    public VaultProvider(VaultClient client, List<String> allowedPaths, int kvVersion) {
        if (kvVersion != 1 && kvVersion != 2) {
            throw new IllegalArgumentException("secrets.vault.kvVersion must be 1 or 2");
        }
        this.client = client;
        this.allowedPaths = prefixes(allowedPaths);
        this.kvVersion = kvVersion;
    }

    @Override
    public String prefix() {
        return "vault";
    }

    @Override
    public String refusal(String reference) {
        if (client == null) {
            return "secrets.vault.address is not set";
        }
        int hash = reference.indexOf('#');
        if (hash < 0 || hash == reference.length() - 1) {
            return "name the field after the path: ${vault:secret/data/sales#password}";
        }
        return pathRefusal(reference.substring(0, hash), allowedPaths, "secrets.vault.allowedPaths");
    }

    @Override
    public Secret fetch(String reference) {
        int hash = reference.indexOf('#');
        String path = reference.substring(0, hash);
        String field = reference.substring(hash + 1);
        JsonNode answer = client.read(path);
        JsonNode data = answer.path("data");
        if (kvVersion == 2 && data.path("data").isObject()) {
            data = data.path("data");
        }
        JsonNode value = data.path(field);
        if (value.isMissingNode() || value.isNull() || value.isContainerNode()) {
            throw new SecretUnavailableException("the secret at " + path + " has no text field '" + field + "'");
        }
        String leaseId = answer.path("lease_id").asText("");
        long leaseSeconds = answer.path("lease_duration").asLong(0);
        if (!leaseId.isEmpty()) {
            client.track(leaseId);
        }
        return new Secret(value.asText(), leaseId.isEmpty() || leaseSeconds <= 0 ? null
                : Duration.ofSeconds(leaseSeconds));
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }

    /** Why {@code path} may not be read under {@code allowed} (prefixes ending in /), or null. */
    static String pathRefusal(String path, List<String> allowed, String key) {
        if (!PATH.matcher(path).matches() || List.of(path.split("/")).contains("..")) {
            return "'" + path + "' is not a Vault path";
        }
        if (allowed.isEmpty()) {
            return key + " is empty: no Vault path may be read";
        }
        for (String prefix : allowed) {
            if ((path + "/").startsWith(prefix)) {
                return null;
            }
        }
        return "'" + path + "' is not under a path " + key + " allows";
    }

    /** Allow-list entries as prefixes of whole segments: {@code secret/data/app} allows {@code secret/data/app/x}. */
    static List<String> prefixes(List<String> entries) {
        return entries.stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(s -> s.startsWith("/") ? s.substring(1) : s)
                .map(s -> s.endsWith("/") ? s : s + "/").toList();
    }
}
