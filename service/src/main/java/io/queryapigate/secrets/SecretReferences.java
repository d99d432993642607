package io.queryapigate.secrets;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the references in a configured secret through their providers: {@code ${VAR}} from the environment,
 * {@code ${prefix:what}} from the provider with that prefix. A literal without references is its own value.
 *
 * <p>A fetched value is kept for the shorter of its provider's lease and {@code secrets.cacheTtl}, and its
 * {@link Resolved#refreshAt} falls at {@value #REFRESH_PERCENT}% of that time, so a pool asks again before it runs
 * out. A provider that fails then is forgiven while the value it gave is still within its time; past that, the
 * reference fails with {@link SecretUnavailableException}, never with a stale value.
 */
public final class SecretReferences implements SecretResolver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SecretReferences.class);
    /** {@code ${VAR}}, or {@code ${provider:what}}: the provider lowercase, what follows it anything but braces. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(?:([a-z][a-z0-9-]*):([^{}$]+)|(\\w+))}");
    static final int REFRESH_PERCENT = 80;
    /** After a failed fetch a held value is asked for again no sooner than this. */
    static final Duration RETRY = Duration.ofSeconds(10);

    private final Map<String, SecretProvider> providers;
    private final Duration cacheTtl;
    private final Clock clock;
    private final Map<String, Held> kept = new ConcurrentHashMap<>();

    /** Only {@code ${VAR}}, from {@code environment}. */
    public SecretReferences(Map<String, String> environment) {
        this(List.of(new EnvironmentProvider(environment)), Duration.ofMinutes(5), Clock.systemUTC());
    }

    /**
     * @param providers one per prefix; {@code ${VAR}} goes to the one with prefix {@value EnvironmentProvider#PREFIX}
     * @param cacheTtl the longest a fetched value is kept
     */
    public SecretReferences(List<SecretProvider> providers, Duration cacheTtl, Clock clock) {
        Map<String, SecretProvider> byPrefix = new LinkedHashMap<>();
        for (SecretProvider p : providers) {
            if (byPrefix.put(p.prefix(), p) != null) {
                throw new IllegalArgumentException("two secret providers have the prefix " + p.prefix());
            }
        }
        if (cacheTtl.isNegative() || cacheTtl.isZero()) {
            throw new IllegalArgumentException("secrets.cacheTtl must be positive");
        }
        this.providers = byPrefix;
        this.cacheTtl = cacheTtl;
        this.clock = clock;
    }

    @Override
    public Resolved resolve(String connection, String text) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        Instant refreshAt = Instant.MAX;
        while (m.find()) {
            Reference ref = Reference.of(m);
            SecretProvider provider = provider(connection, ref);
            Held value = provider.cacheable() ? cached(connection, provider, ref) : uncached(connection, provider, ref);
            if (value.refreshAt.isBefore(refreshAt)) {
                refreshAt = value.refreshAt;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value.value));
        }
        m.appendTail(out);
        return new Resolved(out.toString(), refreshAt);
    }

    @Override
    public boolean isReference(String text) {
        return text != null && REFERENCE.matcher(text).find();
    }

    @Override
    public void check(String connection, String text) {
        if (text == null) {
            return;
        }
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            provider(connection, Reference.of(m));
        }
    }

    /** The prefixes references may use, in the order providers were listed. */
    public List<String> prefixes() {
        return List.copyOf(providers.keySet());
    }

    /** Closes every provider (Vault's leases are revoked). */
    @Override
    public void close() {
        kept.clear();
        for (SecretProvider p : providers.values()) {
            try {
                p.close();
            } catch (RuntimeException e) {
                LOG.warn("Closing the secret provider {} failed: {}", p.prefix(), e.toString());
            }
        }
    }

    /** The provider of {@code ref}, after its allow-list let it through. */
    private SecretProvider provider(String connection, Reference ref) {
        SecretProvider provider = providers.get(ref.prefix);
        if (provider == null) {
            throw new SecretUnavailableException(owner(connection) + ref + ": there is no secret provider '"
                    + ref.prefix + "' (configured: " + String.join(", ", providers.keySet()) + ")");
        }
        String refusal = provider.refusal(ref.what);
        if (refusal != null) {
            throw new SecretUnavailableException(owner(connection) + ref + " is refused: " + refusal);
        }
        return provider;
    }

    private Held uncached(String connection, SecretProvider provider, Reference ref) {
        SecretProvider.Secret secret = fetch(connection, provider, ref);
        if (secret.lease() == null) {
            return new Held(secret.value(), Instant.MAX, Instant.MAX);
        }
        return held(secret, clock.instant());
    }

    /** A value kept for the shorter of its lease and the cache's bound, asked for again at 80% of that. */
    private Held held(SecretProvider.Secret secret, Instant now) {
        Duration keep = secret.lease() == null || secret.lease().compareTo(cacheTtl) > 0 ? cacheTtl : secret.lease();
        if (keep.isNegative()) {
            keep = Duration.ZERO;
        }
        return new Held(secret.value(), now.plus(keep.multipliedBy(REFRESH_PERCENT).dividedBy(100)), now.plus(keep));
    }

    private Held cached(String connection, SecretProvider provider, Reference ref) {
        Instant now = clock.instant();
        Held before = kept.get(ref.key());
        if (before != null && now.isBefore(before.refreshAt)) {
            return before;
        }
        SecretProvider.Secret secret;
        try {
            secret = fetch(connection, provider, ref);
        } catch (SecretUnavailableException e) {
            if (before != null && now.isBefore(before.expiresAt)) {
                LOG.warn("{}; using the value it gave before, good until {}", e.getMessage(), before.expiresAt);
                Instant retry = now.plus(RETRY);
                Held again = new Held(before.value, retry.isBefore(before.expiresAt) ? retry : before.expiresAt,
                        before.expiresAt);
                kept.put(ref.key(), again);
                return again;
            }
            kept.remove(ref.key());
            throw e;
        }
        Held fresh = held(secret, now);
        kept.put(ref.key(), fresh);
        return fresh;
    }

    private static SecretProvider.Secret fetch(String connection, SecretProvider provider, Reference ref) {
        try {
            SecretProvider.Secret secret = provider.fetch(ref.what);
            if (secret == null || secret.value() == null) {
                throw new SecretUnavailableException("no value");
            }
            return secret;
        } catch (SecretUnavailableException e) {
            throw new SecretUnavailableException(owner(connection) + ref + " could not be resolved: "
                    + e.getMessage());
        } catch (RuntimeException e) { // a provider's own failure: its class only, its message may echo a value
            LOG.debug("secret provider {} failed with {}", ref.prefix, e.getClass().getName());
            throw new SecretUnavailableException(owner(connection) + ref + " could not be resolved: "
                    + e.getClass().getSimpleName());
        }
    }

    private static String owner(String connection) {
        return connection == null ? "" : "connection '" + connection + "': ";
    }

    /** One reference: {@code ${VAR}} is the environment provider's {@code VAR}. */
    private record Reference(String prefix, String what, boolean bare) {
        static Reference of(Matcher m) {
            return m.group(3) != null ? new Reference(EnvironmentProvider.PREFIX, m.group(3), true)
                    : new Reference(m.group(1), m.group(2), false);
        }

        String key() {
            return prefix + ":" + what;
        }

        @Override
        public String toString() {
            return bare ? "${" + what + "}" : "${" + prefix + ":" + what + "}";
        }
    }

    /** A value, when to ask again, and until when it may still be served if asking fails. */
    private record Held(String value, Instant refreshAt, Instant expiresAt) {
        @Override
        public String toString() {
            return "Held[****, " + refreshAt + "]";
        }
    }
}
