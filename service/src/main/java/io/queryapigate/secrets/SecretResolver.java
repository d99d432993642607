package io.queryapigate.secrets;

import java.time.Instant;

/**
 * Turns a configured secret into its value when a connection's pool opens: a literal as it is, or the references
 * in it ({@code ${VAR}}, {@code ${file:/run/secrets/x}}, {@code ${vault:path#field}}, {@code ${aws-sm:name}})
 * resolved through their providers.
 */
public interface SecretResolver {

    /**
     * A resolved secret and until when it may be used.
     *
     * @param value the secret; never logged, never in a response or an exception message
     * @param refreshAt when the connection must resolve it again (a lease or the cache's bound); {@link Instant#MAX}
     *     for a literal or an environment variable
     */
    record Resolved(String value, Instant refreshAt) {
        /** Hides the value. */
        @Override
        public String toString() {
            return "Resolved[value=****, refreshAt=" + refreshAt + "]";
        }
    }

    /**
     * Resolves {@code text}'s references.
     *
     * @param connection the connection asking, for messages and allow-lists
     * @param text a literal, or text holding references
     * @return the value
     * @throws SecretUnavailableException when a provider cannot give it (unreachable, denied, not allowed by the
     *     allow-list, unknown reference); the message names the reference, never a value
     */
    Resolved resolve(String connection, String text);

    /** True when {@code text} holds at least one reference. */
    boolean isReference(String text);

    /**
     * Checks {@code text}'s references without fetching anything, when a connection is saved: each names a
     * configured provider and is inside that provider's allow-list.
     *
     * @throws SecretUnavailableException naming the first reference that is refused, and why
     */
    default void check(String connection, String text) {}
}
