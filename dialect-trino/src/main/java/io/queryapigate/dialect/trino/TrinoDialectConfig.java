package io.queryapigate.dialect.trino;

import static java.util.Objects.requireNonNull;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code trino.*} properties of one connection, validated and frozen.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code trino.catalog}</td><td>the URL's first path segment, else none</td><td>the session catalog:
 *       where two-part names ({@code schema.table}) resolve</td></tr>
 *   <tr><td>{@code trino.schema}</td><td>the URL's second path segment, else none</td><td>the session schema:
 *       where bare names resolve; needs a catalog</td></tr>
 *   <tr><td>{@code trino.ssl}</td><td>{@code false}</td><td>HTTPS to the coordinator; required with a
 *       password</td></tr>
 *   <tr><td>{@code trino.ssl_verification}</td><td>{@code full}</td><td>{@code full}, {@code ca} (no host name
 *       check) or {@code none}</td></tr>
 *   <tr><td>{@code trino.ssl_truststore_path}</td><td>none (the JVM's trust store)</td><td>trust store file</td></tr>
 *   <tr><td>{@code trino.ssl_truststore_password}</td><td>none</td><td>its password (secret, masked)</td></tr>
 *   <tr><td>{@code trino.ssl_truststore_type}</td><td>the JVM default</td><td>{@code JKS}, {@code PKCS12},
 *       ...</td></tr>
 *   <tr><td>{@code trino.source}</td><td>{@code queryapigate}</td><td>the query source Trino records (resource
 *       groups select on it; {@code system.runtime.queries.source})</td></tr>
 *   <tr><td>{@code trino.client_tags}</td><td>none</td><td>comma-separated client tags (resource group
 *       selectors)</td></tr>
 *   <tr><td>{@code trino.time_zone}</td><td>{@code UTC}</td><td>the session time zone sent with every query
 *       (what {@code current_timestamp} and {@code timestamp with time zone} casts use), independent of the
 *       gateway JVM's zone</td></tr>
 *   <tr><td>{@code trino.client_cancel_grace}</td><td>{@code 250ms}</td><td>how long after the time limit the
 *       gateway cancels a query that Trino's own limit (checked by the coordinator about once a second) has not
 *       stopped yet</td></tr>
 * </table>
 *
 * <p>Durations are written {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 0} or ISO-8601 ({@code PT5S}).
 *
 * @param catalog the configured session catalog, or empty (the URL may still name one)
 * @param schema the configured session schema, or empty
 * @param ssl whether to use HTTPS
 * @param sslVerification how the server certificate is checked
 * @param sslTrustStorePath the trust store, or empty
 * @param sslTrustStorePassword the trust store password, or empty
 * @param sslTrustStoreType the trust store type, or empty
 * @param source the query source
 * @param clientTags the client tags, in order, without duplicates
 * @param timeZone the session time zone
 * @param clientCancelGrace the delay after the time limit before the client cancels the query itself
 */
public record TrinoDialectConfig(
        Optional<String> catalog,
        Optional<String> schema,
        boolean ssl,
        SslVerification sslVerification,
        Optional<String> sslTrustStorePath,
        Optional<String> sslTrustStorePassword,
        Optional<String> sslTrustStoreType,
        String source,
        List<String> clientTags,
        ZoneId timeZone,
        Duration clientCancelGrace) {

    /** The property holding a secret; the service masks it. */
    public static final String TRUSTSTORE_PASSWORD_KEY = "trino.ssl_truststore_password";

    /** Every key this dialect reads. */
    public static final Set<String> KEYS = Set.of(
            "trino.catalog",
            "trino.schema",
            "trino.ssl",
            "trino.ssl_verification",
            "trino.ssl_truststore_path",
            TRUSTSTORE_PASSWORD_KEY,
            "trino.ssl_truststore_type",
            "trino.source",
            "trino.client_tags",
            "trino.time_zone",
            "trino.client_cancel_grace");

    /** Catalog and schema names: Trino folds them to lower case; no dots, quotes, blanks or control characters. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9_][a-z0-9_$@-]*");

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h)");

    /** Validates and freezes the fields. */
    public TrinoDialectConfig {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(sslVerification, "sslVerification is null");
        requireNonNull(sslTrustStorePath, "sslTrustStorePath is null");
        requireNonNull(sslTrustStorePassword, "sslTrustStorePassword is null");
        requireNonNull(sslTrustStoreType, "sslTrustStoreType is null");
        requireNonNull(source, "source is null");
        clientTags = List.copyOf(requireNonNull(clientTags, "clientTags is null"));
        requireNonNull(timeZone, "timeZone is null");
        requireNonNull(clientCancelGrace, "clientCancelGrace is null");
        if (schema.isPresent() && catalog.isEmpty()) {
            throw new IllegalArgumentException("trino.schema: a schema needs a catalog (trino.catalog)");
        }
    }

    /**
     * The defaults: no catalog or schema, plain HTTP, source {@code queryapigate}, UTC, 250 ms cancel grace.
     *
     * @return the default configuration
     */
    public static TrinoDialectConfig defaults() {
        return from(Map.of());
    }

    /**
     * Reads and validates the properties.
     *
     * @param properties the connection's {@code properties} map, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming every unknown key, or the first malformed one
     */
    public static TrinoDialectConfig from(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                unknown.add(String.valueOf(key));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown trino dialect propert" + (unknown.size() == 1 ? "y" : "ies")
                    + ": " + String.join(", ", unknown) + " (known: " + String.join(", ", new TreeSet<>(KEYS)) + ")");
        }
        Map<String, String> p = new HashMap<>(properties);
        Optional<String> catalog = name(p, "trino.catalog");
        Optional<String> schema = name(p, "trino.schema");
        if (schema.isPresent() && catalog.isEmpty()) {
            throw new IllegalArgumentException("trino.schema: a schema needs a catalog (trino.catalog)");
        }
        boolean ssl = bool(p, "trino.ssl", false);
        SslVerification verification = SslVerification.valueOf(
                choice(p, "trino.ssl_verification", "full", List.of("full", "ca", "none")).toUpperCase(Locale.ROOT));
        Optional<String> trustStore = text(p, "trino.ssl_truststore_path");
        Optional<String> trustStorePassword = Optional.ofNullable(p.get(TRUSTSTORE_PASSWORD_KEY));
        Optional<String> trustStoreType = text(p, "trino.ssl_truststore_type");
        if (!ssl) {
            for (String key : List.of("trino.ssl_verification", "trino.ssl_truststore_path", TRUSTSTORE_PASSWORD_KEY,
                    "trino.ssl_truststore_type")) {
                if (p.containsKey(key)) {
                    throw new IllegalArgumentException(key + ": only meaningful with trino.ssl=true");
                }
            }
        }
        if (trustStorePassword.isPresent() && trustStore.isEmpty()) {
            throw new IllegalArgumentException(TRUSTSTORE_PASSWORD_KEY + ": needs trino.ssl_truststore_path");
        }
        String source = text(p, "trino.source").orElse("queryapigate");
        if (source.length() > 200 || source.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw new IllegalArgumentException("trino.source: expected up to 200 printable ASCII characters, got '"
                    + source + "'");
        }
        List<String> tags = new ArrayList<>();
        String rawTags = p.get("trino.client_tags");
        if (rawTags != null && !rawTags.isBlank()) {
            for (String tag : rawTags.split(",", -1)) {
                String t = tag.strip();
                if (t.isEmpty() || t.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
                    throw new IllegalArgumentException("trino.client_tags: expected comma-separated printable ASCII"
                            + " tags, got '" + rawTags + "'");
                }
                if (!tags.contains(t)) {
                    tags.add(t);
                }
            }
        }
        ZoneId zone = zone(p, "trino.time_zone");
        Duration grace = duration(p, "trino.client_cancel_grace", Duration.ofMillis(250), Duration.ZERO,
                Duration.ofMinutes(1));
        return new TrinoDialectConfig(catalog, schema, ssl, verification, trustStore, trustStorePassword,
                trustStoreType, source, tags, zone, grace);
    }

    /** Masks the trust store password. */
    @Override
    public String toString() {
        return "TrinoDialectConfig[catalog=" + catalog.orElse("") + ", schema=" + schema.orElse("") + ", ssl=" + ssl
                + ", sslVerification=" + sslVerification + ", sslTrustStorePath=" + sslTrustStorePath.orElse("")
                + ", sslTrustStorePassword=" + (sslTrustStorePassword.isPresent() ? "****" : "")
                + ", sslTrustStoreType=" + sslTrustStoreType.orElse("") + ", source=" + source + ", clientTags="
                + clientTags + ", timeZone=" + timeZone + ", clientCancelGrace=" + clientCancelGrace + "]";
    }

    /**
     * A catalog or schema name as Trino stores it: lower case, checked.
     *
     * @param key the property (or URL part) the name came from, for the message
     * @param raw the name as written
     * @return the folded name
     * @throws IllegalArgumentException when the name cannot be a plain Trino catalog or schema name
     */
    static String checkName(String key, String raw) {
        String folded = raw.strip().toLowerCase(Locale.ROOT);
        if (!NAME.matcher(folded).matches()) {
            throw new IllegalArgumentException(key + ": expected a plain catalog or schema name (letters, digits,"
                    + " '_', '-'), got '" + raw + "'");
        }
        return folded;
    }

    private static Optional<String> name(Map<String, String> p, String key) {
        return text(p, key).map(v -> checkName(key, v));
    }

    private static Optional<String> text(Map<String, String> p, String key) {
        String raw = p.get(key);
        if (raw == null) {
            return Optional.empty();
        }
        if (raw.isBlank()) {
            throw new IllegalArgumentException(key + ": must not be blank");
        }
        return Optional.of(raw.strip());
    }

    private static boolean bool(Map<String, String> p, String key, boolean dflt) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": expected true or false, got '" + raw + "'");
        };
    }

    private static String choice(Map<String, String> p, String key, String dflt, List<String> allowed) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        String value = raw.strip().toLowerCase(Locale.ROOT);
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException(
                    key + ": expected one of " + String.join(", ", allowed) + ", got '" + raw + "'");
        }
        return value;
    }

    private static ZoneId zone(Map<String, String> p, String key) {
        String raw = p.get(key);
        if (raw == null) {
            return ZoneId.of("UTC");
        }
        try {
            return ZoneId.of(raw.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(key + ": expected a time zone such as UTC, Europe/Berlin or +02:00,"
                    + " got '" + raw + "'");
        }
    }

    static Duration duration(Map<String, String> p, String key, Duration dflt, Duration min, Duration max) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        Duration d = parseDuration(raw);
        if (d == null) {
            throw new IllegalArgumentException(
                    key + ": expected a duration such as 500ms, 5s, 2m, 1h or PT5S, got '" + raw + "'");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(key + ": must be between " + min.toMillis() + "ms and "
                    + max.toMillis() + "ms, got '" + raw + "'");
        }
        return d;
    }

    private static Duration parseDuration(String raw) {
        String s = raw.strip().toLowerCase(Locale.ROOT);
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = SIMPLE_DURATION.matcher(s);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        if (s.startsWith("p")) {
            try {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }

    /** How trino-jdbc checks the coordinator's certificate ({@code SSLVerification}). */
    public enum SslVerification {
        /** Chain and host name. */
        FULL,
        /** Chain only. */
        CA,
        /** Nothing: for tests only. */
        NONE
    }
}
