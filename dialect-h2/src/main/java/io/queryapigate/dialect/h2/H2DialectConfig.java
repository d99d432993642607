package io.queryapigate.dialect.h2;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The H2 dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #READ_ONLY}</td><td>{@code true}</td><td>for a database file: open it read-only in H2
 *       itself ({@code ACCESS_MODE_DATA=r}), so that every call is refused writes by the engine; for a TCP server:
 *       refuse {@code WRITE} calls (the server's own grants are the engine's lock there)</td></tr>
 * </table>
 *
 * @param readOnly whether the database is opened read-only
 */
public record H2DialectConfig(boolean readOnly) {

    /** Open the database read-only: {@code true} (default) or {@code false}. */
    public static final String READ_ONLY = "h2.read_only";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(READ_ONLY);

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or a value malformed
     */
    public static H2DialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the h2 dialect accepts " + String.join(", ", new TreeSet<>(KEYS)));
        }
        boolean readOnly = true;
        if (properties.containsKey(READ_ONLY)) {
            String value = properties.get(READ_ONLY);
            readOnly = switch (value == null ? "" : value.strip().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(READ_ONLY + ": expected true or false, got '" + value + "'");
            };
        }
        return new H2DialectConfig(readOnly);
    }
}
