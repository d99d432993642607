package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PostgreSQL dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #POOL_IDLE_VALIDATION}</td><td>{@code 5s}</td><td>a pooled connection is checked with
 *       {@code Connection.isValid} (one round trip) only when it was idle at least this long; never per
 *       borrow</td></tr>
 *   <tr><td>{@value #FETCH_SIZE}</td><td>{@code 1000}</td><td>rows per {@code FETCH} of a streaming read</td></tr>
 *   <tr><td>{@value #PREFER_QUERY_MODE}</td><td>{@code extended}</td><td>pgjdbc's protocol: {@code extended}
 *       (parameters bound, one Parse per statement) or {@code simple} (parameters rendered as literals by
 *       pgjdbc)</td></tr>
 *   <tr><td>{@value #APPLICATION_NAME}</td><td>{@code queryapigate}</td><td>{@code application_name} shown in
 *       {@code pg_stat_activity}</td></tr>
 *   <tr><td>{@value #CONNECT_TIMEOUT}</td><td>{@code 10s}</td><td>the longest opening one connection may
 *       take</td></tr>
 *   <tr><td>{@value #TIMEOUT_MARGIN}</td><td>{@code 2s}</td><td>how long after the call's time limit the client
 *       cancels a statement the server has not stopped, and as long again before it drops the connection</td></tr>
 *   <tr><td>{@value #MAX_LIFETIME}</td><td>{@code 30m}</td><td>pooled connections are replaced after this
 *       long</td></tr>
 * </table>
 *
 * <p>Durations are written {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or in ISO-8601 ({@code PT5S}).
 *
 * @param poolIdleValidation validate a pooled connection only after it was idle this long
 * @param fetchSize rows per fetch when streaming
 * @param queryMode pgjdbc's query mode
 * @param applicationName the {@code application_name} of the pool's connections
 * @param connectTimeout how long opening a connection may take
 * @param timeoutMargin how long the client waits past the time limit before it cancels, and again before it aborts
 * @param maxLifetime the age at which a pooled connection is replaced
 */
public record PostgresDialectConfig(
        Duration poolIdleValidation,
        int fetchSize,
        QueryMode queryMode,
        String applicationName,
        Duration connectTimeout,
        Duration timeoutMargin,
        Duration maxLifetime) {

    /** Idle time after which a pooled connection is validated on borrow. */
    public static final String POOL_IDLE_VALIDATION = "postgres.pool_idle_validation";
    /** Rows per FETCH of a streaming read, 1 to {@value #MAX_FETCH_SIZE}. */
    public static final String FETCH_SIZE = "postgres.fetch_size";
    /** {@code simple} or {@code extended}. */
    public static final String PREFER_QUERY_MODE = "postgres.prefer_query_mode";
    /** The connections' {@code application_name}. */
    public static final String APPLICATION_NAME = "postgres.application_name";
    /** Timeout for opening one connection. */
    public static final String CONNECT_TIMEOUT = "postgres.connect_timeout";
    /** The client-side backstop's margin past the time limit. */
    public static final String TIMEOUT_MARGIN = "postgres.timeout_margin";
    /** The most a pooled connection lives. */
    public static final String MAX_LIFETIME = "postgres.max_lifetime";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(POOL_IDLE_VALIDATION, FETCH_SIZE, PREFER_QUERY_MODE, APPLICATION_NAME,
            CONNECT_TIMEOUT, TIMEOUT_MARGIN, MAX_LIFETIME);
    /** The largest accepted {@value #FETCH_SIZE}. */
    public static final int MAX_FETCH_SIZE = 1_000_000;

    /** The default {@value #POOL_IDLE_VALIDATION}. */
    public static final Duration DEFAULT_POOL_IDLE_VALIDATION = Duration.ofSeconds(5);
    /** The default {@value #FETCH_SIZE}. */
    public static final int DEFAULT_FETCH_SIZE = 1000;
    /** The default {@value #APPLICATION_NAME}. */
    public static final String DEFAULT_APPLICATION_NAME = "queryapigate";
    /** The default {@value #CONNECT_TIMEOUT}. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The default {@value #TIMEOUT_MARGIN}. */
    public static final Duration DEFAULT_TIMEOUT_MARGIN = Duration.ofSeconds(2);
    /** The default {@value #MAX_LIFETIME}. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofMinutes(30);

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h)");
    // pgjdbc reads the connection's application_name from the startup packet; keep it printable and short
    private static final Pattern APPLICATION_NAME_TEXT = Pattern.compile("[\\x20-\\x7E]{1,63}");

    /** Validates the fields. */
    public PostgresDialectConfig {
        requireNonNull(poolIdleValidation, "poolIdleValidation is null");
        requireNonNull(queryMode, "queryMode is null");
        requireNonNull(applicationName, "applicationName is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(timeoutMargin, "timeoutMargin is null");
        requireNonNull(maxLifetime, "maxLifetime is null");
        if (poolIdleValidation.isNegative()) {
            throw new IllegalArgumentException(POOL_IDLE_VALIDATION + ": must not be negative, got " + poolIdleValidation);
        }
        if (fetchSize < 1 || fetchSize > MAX_FETCH_SIZE) {
            throw new IllegalArgumentException(FETCH_SIZE + ": expected 1 to " + MAX_FETCH_SIZE + ", got " + fetchSize);
        }
        if (!APPLICATION_NAME_TEXT.matcher(applicationName).matches()) {
            throw new IllegalArgumentException(APPLICATION_NAME + ": expected 1 to 63 printable ASCII characters, got '"
                    + applicationName + "'");
        }
        if (connectTimeout.compareTo(Duration.ofSeconds(1)) < 0 || connectTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(CONNECT_TIMEOUT + ": expected 1s to 1h, got " + connectTimeout);
        }
        if (timeoutMargin.compareTo(Duration.ofMillis(100)) < 0 || timeoutMargin.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(TIMEOUT_MARGIN + ": expected 100ms to 10m, got " + timeoutMargin);
        }
        if (maxLifetime.compareTo(Duration.ofSeconds(30)) < 0) {
            // HikariCP's own lower bound
            throw new IllegalArgumentException(MAX_LIFETIME + ": expected at least 30s, got " + maxLifetime);
        }
    }

    /**
     * The defaults.
     *
     * @return the default configuration
     */
    public static PostgresDialectConfig defaults() {
        return new PostgresDialectConfig(DEFAULT_POOL_IDLE_VALIDATION, DEFAULT_FETCH_SIZE, QueryMode.EXTENDED,
                DEFAULT_APPLICATION_NAME, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT_MARGIN, DEFAULT_MAX_LIFETIME);
    }

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or a value malformed
     */
    public static PostgresDialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the postgres dialect accepts "
                    + String.join(", ", new TreeSet<>(KEYS)));
        }
        PostgresDialectConfig d = defaults();
        return new PostgresDialectConfig(
                duration(properties, POOL_IDLE_VALIDATION, d.poolIdleValidation()),
                integer(properties, FETCH_SIZE, d.fetchSize()),
                properties.containsKey(PREFER_QUERY_MODE)
                        ? QueryMode.parse(properties.get(PREFER_QUERY_MODE))
                        : d.queryMode(),
                properties.containsKey(APPLICATION_NAME)
                        ? required(APPLICATION_NAME, properties.get(APPLICATION_NAME), "a name")
                        : d.applicationName(),
                duration(properties, CONNECT_TIMEOUT, d.connectTimeout()),
                duration(properties, TIMEOUT_MARGIN, d.timeoutMargin()),
                duration(properties, MAX_LIFETIME, d.maxLifetime()));
    }

    /**
     * Parses a duration written {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S}).
     *
     * @param key the property, for the message
     * @param value the text
     * @return the duration
     * @throws IllegalArgumentException naming the key when the text is not a duration
     */
    static Duration parseDuration(String key, String value) {
        String text = required(key, value, "a duration such as 5s").toLowerCase(Locale.ROOT);
        Matcher m = SHORT_DURATION.matcher(text);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(text.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + ": expected a duration such as 500ms, 5s, 2m or PT5S, got '"
                    + value + "'", e);
        }
    }

    private static Duration duration(Map<String, String> properties, String key, Duration fallback) {
        return properties.containsKey(key) ? parseDuration(key, properties.get(key)) : fallback;
    }

    private static int integer(Map<String, String> properties, String key, int fallback) {
        if (!properties.containsKey(key)) {
            return fallback;
        }
        String value = required(key, properties.get(key), "a whole number");
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": expected a whole number, got '" + value + "'", e);
        }
    }

    private static String required(String key, String value, String expected) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(key + ": expected " + expected + ", got an empty value");
        }
        return value.strip();
    }

    /** pgjdbc's {@code preferQueryMode} as this dialect uses it. */
    public enum QueryMode {
        /**
         * One {@code Query} message per call with the parameters rendered as literals by pgjdbc; the server parses
         * the whole message at once.
         */
        SIMPLE,
        /**
         * Parse/Bind/Describe/Execute per statement and one {@code Sync} per call; parameters travel bound, and
         * the server refuses a second command inside one Parse.
         */
        EXTENDED;

        /**
         * The pgjdbc property value.
         *
         * @return {@code simple} or {@code extended}
         */
        public String pgjdbcValue() {
            return name().toLowerCase(Locale.ROOT);
        }

        static QueryMode parse(String value) {
            String text = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
            return switch (text) {
                case "simple" -> SIMPLE;
                case "extended" -> EXTENDED;
                default -> throw new IllegalArgumentException(PREFER_QUERY_MODE + ": expected simple or extended, got '"
                        + value + "'");
            };
        }
    }
}
