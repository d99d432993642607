package io.queryapigate.dialect.mongo;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MongoDB dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #DATABASE}</td><td>the URL's path</td><td>the database the queries' collections are in; one of
 *       the two is required</td></tr>
 *   <tr><td>{@value #SERVER_SELECTION_TIMEOUT}</td><td>{@code 10s}</td><td>how long a call waits for a server to
 *       talk to (the driver's {@code serverSelectionTimeoutMS})</td></tr>
 *   <tr><td>{@value #BATCH_SIZE}</td><td>{@code 1000}</td><td>documents the server sends per batch of a
 *       cursor</td></tr>
 * </table>
 *
 * @param database the database named by the properties, if any (else the URL's)
 * @param serverSelectionTimeout the server selection timeout
 * @param batchSize the cursor batch size
 */
public record MongoDialectConfig(Optional<String> database, Duration serverSelectionTimeout, int batchSize) {
    /** The database, when the URL names none or another. */
    public static final String DATABASE = "mongo.database";
    /** How long to wait for a server, such as {@code 10s} or {@code 500ms}. */
    public static final String SERVER_SELECTION_TIMEOUT = "mongo.server_selection_timeout";
    /** Documents per cursor batch, 1 to 100000. */
    public static final String BATCH_SIZE = "mongo.batch_size";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(DATABASE, SERVER_SELECTION_TIMEOUT, BATCH_SIZE);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m)");

    /** Validates the fields. */
    public MongoDialectConfig {
        requireNonNull(database, "database is null");
        requireNonNull(serverSelectionTimeout, "serverSelectionTimeout is null");
    }

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or a value malformed
     */
    public static MongoDialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the mongo dialect accepts " + String.join(", ",
                    new TreeSet<>(KEYS)));
        }
        Optional<String> database = Optional.ofNullable(properties.get(DATABASE)).map(String::strip);
        if (database.isPresent() && !validDatabase(database.get())) {
            throw new IllegalArgumentException(DATABASE + ": expected a database name (no '/', '\\', '.', '\"', '$',"
                    + " space), got '" + database.get() + "'");
        }
        Duration selection = Duration.ofSeconds(10);
        String value = properties.get(SERVER_SELECTION_TIMEOUT);
        if (value != null) {
            Matcher m = DURATION.matcher(value.strip());
            if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
                throw new IllegalArgumentException(SERVER_SELECTION_TIMEOUT + ": expected a duration such as 10s or"
                        + " 500ms, got '" + value + "'");
            }
            long n = Long.parseLong(m.group(1));
            selection = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMinutes(n);
            };
        }
        int batchSize = 1000;
        value = properties.get(BATCH_SIZE);
        if (value != null) {
            try {
                batchSize = Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                batchSize = -1;
            }
            if (batchSize < 1 || batchSize > 100_000) {
                throw new IllegalArgumentException(BATCH_SIZE + ": expected 1 to 100000, got '" + value + "'");
            }
        }
        return new MongoDialectConfig(database, selection, batchSize);
    }

    /** Whether {@code name} is a name MongoDB accepts for a database. */
    static boolean validDatabase(String name) {
        return !name.isEmpty() && name.length() < 64 && name.chars().noneMatch(c -> "/\\. \"$\0".indexOf(c) >= 0);
    }
}
