package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code clickhouse.*} properties of one connection, validated and frozen.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #DATABASE}</td><td>{@code default}</td><td>the database unqualified table names resolve to,
 *       sent as the {@code database} URL setting of every call</td></tr>
 *   <tr><td>{@value #COMPRESSION}</td><td>{@code none}</td><td>{@code none} or {@code gzip}: ask the server to
 *       gzip response bodies ({@code enable_http_compression=1}, {@code Accept-Encoding: gzip})</td></tr>
 *   <tr><td>{@value #MAX_CONCURRENT}</td><td>the connection's pool size</td><td>calls in flight at once; a call
 *       waits for a free slot up to its time limit</td></tr>
 *   <tr><td>{@value #CONNECT_TIMEOUT}</td><td>{@code 5s}</td><td>TCP (and TLS) connect timeout</td></tr>
 *   <tr><td>{@value #AUTH}</td><td>{@code headers}</td><td>{@code headers} ({@code X-ClickHouse-User} /
 *       {@code X-ClickHouse-Key}) or {@code basic} ({@code Authorization: Basic}, for proxies that expect it)</td></tr>
 * </table>
 *
 * <p>Durations are written {@code 500ms}, {@code 5s}, {@code 2m} or ISO-8601 ({@code PT5S}).
 *
 * @param database the default database
 * @param compression whether responses are gzipped
 * @param maxConcurrent calls in flight at once, or empty for the connection's pool size
 * @param connectTimeout the connect timeout
 * @param auth how credentials travel
 */
public record ClickHouseDialectConfig(
        String database, Compression compression, OptionalInt maxConcurrent, Duration connectTimeout, Auth auth) {

    /** The default database. */
    public static final String DATABASE = "clickhouse.database";
    /** Response compression: {@code none} or {@code gzip}. */
    public static final String COMPRESSION = "clickhouse.compression";
    /** Calls in flight at once. */
    public static final String MAX_CONCURRENT = "clickhouse.max_concurrent";
    /** TCP connect timeout. */
    public static final String CONNECT_TIMEOUT = "clickhouse.connect_timeout";
    /** How credentials are sent: {@code headers} or {@code basic}. */
    public static final String AUTH = "clickhouse.auth";
    /** Every key this dialect reads. */
    public static final Set<String> KEYS = Set.of(DATABASE, COMPRESSION, MAX_CONCURRENT, CONNECT_TIMEOUT, AUTH);

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m)");
    private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.$-]{0,254}");

    /** Response compression. */
    public enum Compression {
        /** Plain response bodies (the default: on loopback and LANs compression costs more CPU than it saves). */
        NONE,
        /** {@code Content-Encoding: gzip} response bodies. */
        GZIP
    }

    /** How the user and password travel. Never in the URL. */
    public enum Auth {
        /** {@code X-ClickHouse-User} and {@code X-ClickHouse-Key} headers. */
        HEADERS,
        /** {@code Authorization: Basic}. */
        BASIC
    }

    /** Validates the fields. */
    public ClickHouseDialectConfig {
        requireNonNull(database, "database is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(maxConcurrent, "maxConcurrent is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(auth, "auth is null");
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException(DATABASE + ": expected a database name of letters, digits, '_', '.',"
                    + " '$' or '-', got '" + database + "'");
        }
        if (maxConcurrent.isPresent() && (maxConcurrent.getAsInt() < 1 || maxConcurrent.getAsInt() > 10_000)) {
            throw new IllegalArgumentException(MAX_CONCURRENT + ": expected 1 to 10000, got " + maxConcurrent.getAsInt());
        }
        if (connectTimeout.compareTo(Duration.ofMillis(100)) < 0 || connectTimeout.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException(CONNECT_TIMEOUT + ": must be between 100ms and 5m, got " + connectTimeout);
        }
    }

    /**
     * The defaults: database {@code default}, no compression, the pool size as concurrency, 5 s connect timeout,
     * credentials in headers.
     *
     * @return the default configuration
     */
    public static ClickHouseDialectConfig defaults() {
        return from(Map.of());
    }

    /**
     * Reads and validates the properties.
     *
     * @param properties the connection's {@code properties} map, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming every unknown key, or the first malformed one
     */
    public static ClickHouseDialectConfig from(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                unknown.add(String.valueOf(key));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown clickhouse dialect propert"
                    + (unknown.size() == 1 ? "y" : "ies") + ": " + String.join(", ", unknown)
                    + " (known: " + String.join(", ", new TreeSet<>(KEYS)) + ")");
        }
        Map<String, String> p = new HashMap<>(properties);
        String database = p.getOrDefault(DATABASE, "default").strip();
        Compression compression = Compression.valueOf(
                choice(p, COMPRESSION, "none", List.of("none", "gzip")).toUpperCase(Locale.ROOT));
        Auth auth = Auth.valueOf(choice(p, AUTH, "headers", List.of("headers", "basic")).toUpperCase(Locale.ROOT));
        OptionalInt maxConcurrent = OptionalInt.empty();
        String mc = p.get(MAX_CONCURRENT);
        if (mc != null) {
            try {
                maxConcurrent = OptionalInt.of(Integer.parseInt(mc.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(MAX_CONCURRENT + ": expected a whole number from 1 to 10000, got '"
                        + mc + "'");
            }
        }
        Duration connectTimeout = duration(p, CONNECT_TIMEOUT, Duration.ofSeconds(5));
        return new ClickHouseDialectConfig(database, compression, maxConcurrent, connectTimeout, auth);
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

    private static Duration duration(Map<String, String> p, String key, Duration dflt) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        String s = raw.strip().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE_DURATION.matcher(s);
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    default -> Duration.ofMinutes(n);
                };
            }
            if (s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + ": expected a duration such as 500ms, 5s, 2m or PT5S, got '" + raw + "'");
    }
}
