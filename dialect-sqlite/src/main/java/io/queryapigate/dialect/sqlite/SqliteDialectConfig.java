package io.queryapigate.dialect.sqlite;

import static java.util.Objects.requireNonNull;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQLite dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #BUSY_TIMEOUT}</td><td>{@code 5s}</td><td>how long a call waits for another connection's lock
 *       (SQLite's busy timeout) before it fails with a conflict; {@code 0} fails at once</td></tr>
 *   <tr><td>{@value #INIT_SCRIPT}</td><td>none</td><td>a SQL file run once, read-write, when the database file
 *       does not exist yet; relative paths resolve against the working directory</td></tr>
 * </table>
 *
 * @param busyTimeout SQLite's busy timeout for every connection
 * @param initScript the absolute path of the init script, if any
 */
public record SqliteDialectConfig(Duration busyTimeout, Optional<Path> initScript) {

    /** How long a call waits for a lock held by another connection. */
    public static final String BUSY_TIMEOUT = "sqlite.busy_timeout";
    /** SQL file that creates the database when its file does not exist. */
    public static final String INIT_SCRIPT = "sqlite.init_script";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(BUSY_TIMEOUT, INIT_SCRIPT);
    /** The default {@value #BUSY_TIMEOUT}. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);
    /** The longest {@value #BUSY_TIMEOUT}: SQLite takes milliseconds as a C int. */
    public static final Duration MAX_BUSY_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|min)?");

    /** Validates the fields. */
    public SqliteDialectConfig {
        requireNonNull(busyTimeout, "busyTimeout is null");
        requireNonNull(initScript, "initScript is null");
        if (busyTimeout.isNegative() || busyTimeout.compareTo(MAX_BUSY_TIMEOUT) > 0) {
            throw new IllegalArgumentException(BUSY_TIMEOUT + ": expected 0 to " + MAX_BUSY_TIMEOUT.toMillis()
                    + " ms, got " + busyTimeout.toMillis() + " ms");
        }
        initScript = initScript.map(path -> path.toAbsolutePath().normalize());
    }

    /**
     * The defaults: a 5 s busy timeout, no init script.
     *
     * @return the default configuration
     */
    public static SqliteDialectConfig defaults() {
        return new SqliteDialectConfig(DEFAULT_BUSY_TIMEOUT, Optional.empty());
    }

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or a value malformed
     */
    public static SqliteDialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the sqlite dialect accepts " + String.join(", ", new TreeSet<>(KEYS)));
        }
        Duration busyTimeout = DEFAULT_BUSY_TIMEOUT;
        if (properties.containsKey(BUSY_TIMEOUT)) {
            busyTimeout = duration(BUSY_TIMEOUT, properties.get(BUSY_TIMEOUT));
        }
        Optional<Path> initScript = Optional.empty();
        if (properties.containsKey(INIT_SCRIPT)) {
            String value = properties.get(INIT_SCRIPT);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(INIT_SCRIPT + ": expected a file path, got an empty value");
            }
            try {
                initScript = Optional.of(Path.of(value.strip()));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(INIT_SCRIPT + ": not a valid path: '" + value + "'", e);
            }
        }
        return new SqliteDialectConfig(busyTimeout, initScript);
    }

    /** A duration as the service's YAML writes them: {@code 500ms}, {@code 5s}, {@code 2m}; a bare number is seconds. */
    private static Duration duration(String key, String value) {
        Matcher m = DURATION.matcher(value == null ? "" : value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(key + ": expected a duration, got '" + value + "' (such as 500ms, 5s or 1m)");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration parsed = switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "m", "min" -> Duration.ofMinutes(Math.min(amount, MAX_BUSY_TIMEOUT.toMinutes() + 1));
            default -> Duration.ofSeconds(Math.min(amount, MAX_BUSY_TIMEOUT.toSeconds() + 1));
        };
        if (parsed.compareTo(MAX_BUSY_TIMEOUT) > 0) {
            throw new IllegalArgumentException(key + ": expected at most " + MAX_BUSY_TIMEOUT.toMillis() + " ms, got '"
                    + value + "'");
        }
        return parsed;
    }
}
