package com.example.qag.derby;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The bound and validated configuration of one Derby connection.
 *
 * <p>The connection's {@code url} names the database directory, as a path ({@code data/sales}) or a Derby URL
 * ({@code jdbc:derby:data/sales}); a relative path resolves against the service's home directory. Derby's URL
 * attributes ({@code ;create=true}, {@code ;shutdown=true}, ...) and its other storage back ends ({@code memory:},
 * {@code classpath:}, {@code jar:}) are refused: the dialect decides how the database is opened. The properties:
 *
 * <ul>
 *   <li>{@code derby.create} ({@code false}): create an empty database when the directory does not exist;
 *   <li>{@code derby.init_script} (none): a SQL file run once, when the database is created (it implies {@code
 *       derby.create}); statements end with a {@code ;} at the end of a line. A relative path resolves against the
 *       working directory, as DuckDB's {@code duckdb.init_script} does.
 * </ul>
 *
 * @param database the database directory, absolute
 * @param create whether a missing database is created
 * @param initScript the script run when it is created
 */
public record DerbyDialectConfig(Path database, boolean create, Optional<Path> initScript) {

    /** The prefix of this dialect's properties. */
    public static final String PREFIX = "derby.";
    /** Whether a missing database is created. */
    public static final String CREATE = PREFIX + "create";
    /** The script that fills a newly created database. */
    public static final String INIT_SCRIPT = PREFIX + "init_script";

    private static final Set<String> KEYS = Set.of(CREATE, INIT_SCRIPT);
    private static final String JDBC_PREFIX = "jdbc:derby:";

    /**
     * Binds a connection's URL and properties.
     *
     * @param url the connection's {@code url}
     * @param home the service's home directory, against which a relative path resolves
     * @param properties the connection's {@code properties}
     * @return the configuration
     * @throws IllegalArgumentException naming the key when a value is missing, unknown or malformed
     */
    public static DerbyDialectConfig bind(String url, Path home, Map<String, String> properties) {
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown property " + key + "; the derby dialect knows "
                        + String.join(", ", new TreeSet<>(KEYS)));
            }
        }
        Optional<Path> script = Optional.ofNullable(properties.get(INIT_SCRIPT)).map(String::strip).map(value -> {
            if (value.isEmpty()) {
                throw new IllegalArgumentException(INIT_SCRIPT + ": expected a file, got ''");
            }
            Path path = Path.of(value).toAbsolutePath().normalize();
            if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
                throw new IllegalArgumentException(INIT_SCRIPT + ": no readable file " + path);
            }
            return path;
        });
        boolean create = bool(CREATE, properties.getOrDefault(CREATE, "false")) || script.isPresent();
        return new DerbyDialectConfig(databasePath(url, home), create, script);
    }

    private static boolean bool(String key, String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": expected true or false, got '" + value + "'");
        };
    }

    private static Path databasePath(String url, Path home) {
        String path = url.strip();
        if (path.regionMatches(true, 0, JDBC_PREFIX, 0, JDBC_PREFIX.length())) {
            path = path.substring(JDBC_PREFIX.length());
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException("url: expected a Derby database directory, got '" + url + "'");
        }
        if (path.contains(";")) {
            throw new IllegalArgumentException("url: Derby attributes (';...') are not accepted, got '" + url
                    + "'; use the derby.* properties");
        }
        if (path.matches("(?i)(memory|classpath|jar|directory):.*")) {
            throw new IllegalArgumentException("url: only a database directory is accepted, got '" + url + "'");
        }
        return home.resolve(path).toAbsolutePath().normalize();
    }
}
