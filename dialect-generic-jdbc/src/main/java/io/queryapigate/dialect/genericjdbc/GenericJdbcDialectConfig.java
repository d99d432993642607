package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The generic jdbc dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #DRIVER_CLASS}</td><td>required</td><td>the fully qualified class name of the {@code
 *       java.sql.Driver} to load from {@code plugins/}, such as {@code org.hsqldb.jdbc.JDBCDriver}</td></tr>
 *   <tr><td>{@value #FETCH_SIZE}</td><td>{@value #DEFAULT_FETCH_SIZE}</td><td>{@code Statement.setFetchSize}: the
 *       rows a driver may fetch per round trip (a hint; drivers may ignore it)</td></tr>
 * </table>
 *
 * <p>The Python original's {@code jar} has no equivalent: the driver jar goes into {@code plugins/}; {@code
 * jar} and {@code jdbc.jar} are refused with a message saying so. Its {@code jdbc_url} is the connection's {@code
 * url}.
 *
 * @param driverClass the driver's class name
 * @param fetchSize the fetch size hint
 */
public record GenericJdbcDialectConfig(String driverClass, int fetchSize) {

    /** The driver's class name; required. */
    public static final String DRIVER_CLASS = "jdbc.driver_class";
    /** The fetch size hint, 1 to {@value #MAX_FETCH_SIZE}. */
    public static final String FETCH_SIZE = "jdbc.fetch_size";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(DRIVER_CLASS, FETCH_SIZE);
    /** The fetch size unless configured. */
    public static final int DEFAULT_FETCH_SIZE = 1000;
    /** The largest accepted {@value #FETCH_SIZE}. */
    public static final int MAX_FETCH_SIZE = 100_000;

    private static final Set<String> JAR_KEYS = Set.of("jar", "jdbc.jar");
    // a Java binary name: dot-separated identifiers, nested classes with '$'
    private static final Pattern CLASS_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    /** Validates the fields. */
    public GenericJdbcDialectConfig {
        requireNonNull(driverClass, "driverClass is null");
        if (!CLASS_NAME.matcher(driverClass).matches()) {
            throw new IllegalArgumentException(DRIVER_CLASS + ": expected a Java class name such as"
                    + " org.hsqldb.jdbc.JDBCDriver, got '" + driverClass + "'");
        }
        if (fetchSize < 1 || fetchSize > MAX_FETCH_SIZE) {
            throw new IllegalArgumentException(FETCH_SIZE + ": expected 1 to " + MAX_FETCH_SIZE + ", got " + fetchSize);
        }
    }

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or missing or a value malformed
     */
    public static GenericJdbcDialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        for (String key : properties.keySet()) {
            if (JAR_KEYS.contains(key)) {
                throw new IllegalArgumentException(key + ": the jdbc dialect does not load jars from a path; put the"
                        + " driver's jar into the service's plugins/ directory (optionally name it with the"
                        + " connection's 'plugin:' key) and set " + DRIVER_CLASS);
            }
        }
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the jdbc dialect accepts " + String.join(", ", new TreeSet<>(KEYS))
                    + " (driver settings go into the url)");
        }
        String driverClass = properties.get(DRIVER_CLASS);
        if (driverClass == null || driverClass.isBlank()) {
            throw new IllegalArgumentException(DRIVER_CLASS + ": required: the class name of the JDBC driver whose jar"
                    + " is in plugins/, such as org.hsqldb.jdbc.JDBCDriver");
        }
        int fetchSize = DEFAULT_FETCH_SIZE;
        String fetch = properties.get(FETCH_SIZE);
        if (fetch != null) {
            try {
                fetchSize = Integer.parseInt(fetch.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(FETCH_SIZE + ": expected 1 to " + MAX_FETCH_SIZE + ", got '" + fetch
                        + "'", e);
            }
        }
        return new GenericJdbcDialectConfig(driverClass.strip(), fetchSize);
    }
}
