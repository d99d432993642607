package io.queryapigate.secrets;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ${VAR}} (also {@code ${env:VAR}}): an environment variable, read when a pool opens. The server's own
 * settings and the credentials it may run with ({@code QUERYAPIGATE_*}, {@code AWS_*}, {@code VAULT_*}, ...) are
 * never a connection's to read: an administrator could put one in a password sent to a host of theirs.
 */
public final class EnvironmentProvider implements SecretProvider {
    /** The prefix {@code ${VAR}} stands for. */
    public static final String PREFIX = "env";
    private static final List<String> NEVER = List.of("QUERYAPIGATE_", "OTEL_", "AWS_", "AZURE_", "ARM_", "GOOGLE_",
            "GCP_", "VAULT_", "BAO_", "KUBERNETES_");

    private final Map<String, String> environment;

    public EnvironmentProvider(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String prefix() {
        return PREFIX;
    }

    @Override
    public String refusal(String name) {
        if (!name.matches("\\w+")) {
            return "'" + name + "' is not an environment variable's name";
        }
        String upper = name.toUpperCase(Locale.ROOT);
        for (String p : NEVER) {
            if (upper.startsWith(p)) {
                return "variables starting with " + p + " belong to the server itself";
            }
        }
        return null;
    }

    /** Reading the environment costs nothing, and it does not change while the server runs. */
    @Override
    public boolean cacheable() {
        return false;
    }

    @Override
    public Secret fetch(String name) {
        String value = environment.get(name);
        if (value == null) {
            throw new SecretUnavailableException("the environment variable " + name + " is not set");
        }
        return new Secret(value, null);
    }
}
