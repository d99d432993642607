package io.queryapigate.secrets;

import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the references in a configured secret: {@code ${VAR}} from the environment. A literal without references
 * is its own value.
 */
public final class SecretReferences implements SecretResolver {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]+)}");

    private final Map<String, String> environment;

    public SecretReferences(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Resolved resolve(String connection, String text) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = environment.get(name);
            if (value == null) {
                throw new SecretUnavailableException("connection '" + connection + "': the environment variable "
                        + name + " is not set");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return new Resolved(out.toString(), Instant.MAX);
    }

    @Override
    public boolean isReference(String text) {
        return text != null && REFERENCE.matcher(text).find();
    }
}
