package io.queryapigate.secrets;

import java.time.Duration;

/**
 * One place secrets live, named by the prefix of its references: {@code ${file:/run/secrets/db}} is the {@code file}
 * provider's reference {@code /run/secrets/db}. {@link SecretReferences} holds a list of them, caches what they give
 * and fails closed; another provider is one class implementing this and one entry in that list
 * ({@code config/SecretsConfig}).
 */
public interface SecretProvider extends AutoCloseable {

    /**
     * A value and how long it may be kept.
     *
     * @param value the secret; never logged, never in a message
     * @param lease how long the provider lets it be used (a Vault lease), or null when it does not say: the cache's
     *     own bound ({@code secrets.cacheTtl}) applies, and the shorter of the two wins
     */
    record Secret(String value, Duration lease) {
        /** Hides the value. */
        @Override
        public String toString() {
            return "Secret[value=****, lease=" + lease + "]";
        }
    }

    /** The prefix of this provider's references, such as {@code file} or {@code aws-sm}: lowercase, no colon. */
    String prefix();

    /**
     * Why {@code reference} may not be read (outside the allow-list, malformed), or null when it may. Checked when a
     * reference is saved and again each time it is resolved, in case the allow-list shrank. Never contacts the
     * provider.
     */
    String refusal(String reference);

    /**
     * Fetches the value {@code reference} names; {@link #refusal} has let it through.
     *
     * @throws SecretUnavailableException the provider is unreachable, denied it, or it does not exist; the message
     *     says why and never holds a value
     */
    Secret fetch(String reference);

    /**
     * True (the default) when {@link SecretReferences} may keep what {@link #fetch} gives for its time; false when
     * the provider keeps values itself (or they cost nothing): each resolution then asks it.
     */
    default boolean cacheable() {
        return true;
    }

    /** Gives back what the provider holds (revokes its leases). */
    @Override
    default void close() {}
}
