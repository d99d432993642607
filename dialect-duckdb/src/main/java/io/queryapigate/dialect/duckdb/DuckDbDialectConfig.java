package io.queryapigate.dialect.duckdb;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The DuckDB dialect's {@code properties}, bound and validated once. Immutable.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #READ_ONLY}</td><td>{@code true}</td><td>open the database read-only in DuckDB itself, so
 *       that every call is refused writes by the engine</td></tr>
 *   <tr><td>{@value #INIT_SCRIPT}</td><td>none</td><td>a SQL file run once, read-write, when the database file
 *       does not exist yet; relative paths resolve against the working directory</td></tr>
 *   <tr><td>{@value #THREADS}</td><td>DuckDB's (the number of cores)</td><td>DuckDB's {@code threads}
 *       setting</td></tr>
 *   <tr><td>{@value #MEMORY_LIMIT}</td><td>DuckDB's (80% of RAM)</td><td>DuckDB's {@code memory_limit}, such as
 *       {@code 2GB} or {@code 512MiB}</td></tr>
 *   <tr><td>{@value #ALLOWED_PATHS}</td><td>none</td><td>comma-separated absolute local paths that SQL may read
 *       files from: a directory (written with a trailing {@code /}, or existing as a directory) and everything
 *       beneath it, or one file; DuckDB's {@code allowed_directories} and {@code allowed_paths}</td></tr>
 * </table>
 *
 * @param readOnly whether the database is opened read-only
 * @param initScript the absolute path of the init script, if any
 * @param threads DuckDB's thread count, if set
 * @param memoryLimit DuckDB's memory limit, if set
 * @param allowedDirectories directories SQL may read files beneath, each ending in {@code /}
 * @param allowedFiles single files SQL may read
 */
public record DuckDbDialectConfig(
        boolean readOnly, Optional<Path> initScript, OptionalInt threads, Optional<String> memoryLimit,
        List<String> allowedDirectories, List<String> allowedFiles) {

    /** Open the database read-only: {@code true} (default) or {@code false}. */
    public static final String READ_ONLY = "duckdb.read_only";
    /** SQL file that creates the database when its file does not exist. */
    public static final String INIT_SCRIPT = "duckdb.init_script";
    /** DuckDB worker threads, 1 to {@value #MAX_THREADS}. */
    public static final String THREADS = "duckdb.threads";
    /** DuckDB memory limit. */
    public static final String MEMORY_LIMIT = "duckdb.memory_limit";
    /** Local directories and files SQL may read, comma-separated. */
    public static final String ALLOWED_PATHS = "duckdb.allowed_paths";
    /** Every key this dialect accepts. */
    public static final Set<String> KEYS = Set.of(READ_ONLY, INIT_SCRIPT, THREADS, MEMORY_LIMIT, ALLOWED_PATHS);
    /** The largest accepted {@value #THREADS}. */
    public static final int MAX_THREADS = 1024;

    private static final Pattern SIZE =
            Pattern.compile("\\d+(\\.\\d+)?\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", Pattern.CASE_INSENSITIVE);

    /** Validates the fields. */
    public DuckDbDialectConfig {
        requireNonNull(initScript, "initScript is null");
        requireNonNull(threads, "threads is null");
        requireNonNull(memoryLimit, "memoryLimit is null");
        if (threads.isPresent() && (threads.getAsInt() < 1 || threads.getAsInt() > MAX_THREADS)) {
            throw new IllegalArgumentException(THREADS + ": expected 1 to " + MAX_THREADS + ", got " + threads.getAsInt());
        }
        if (memoryLimit.isPresent() && !SIZE.matcher(memoryLimit.get()).matches()) {
            throw new IllegalArgumentException(MEMORY_LIMIT + ": expected a size such as 512MB or 4GiB, got '"
                    + memoryLimit.get() + "'");
        }
        initScript = initScript.map(path -> path.toAbsolutePath().normalize());
        allowedDirectories = List.copyOf(allowedDirectories);
        allowedFiles = List.copyOf(allowedFiles);
    }

    /**
     * The configuration without file access: read-only or not, as given.
     *
     * @param readOnly whether the database is opened read-only
     * @param initScript the init script, if any
     * @param threads DuckDB's thread count, if set
     * @param memoryLimit DuckDB's memory limit, if set
     */
    public DuckDbDialectConfig(boolean readOnly, Optional<Path> initScript, OptionalInt threads, Optional<String> memoryLimit) {
        this(readOnly, initScript, threads, memoryLimit, List.of(), List.of());
    }

    /**
     * Whether SQL may read any file at all.
     *
     * @return true when {@value #ALLOWED_PATHS} names at least one path
     */
    public boolean readsFiles() {
        return !allowedDirectories.isEmpty() || !allowedFiles.isEmpty();
    }

    /**
     * The defaults: read-only, no init script, DuckDB's own threads and memory limit.
     *
     * @return the default configuration
     */
    public static DuckDbDialectConfig defaults() {
        return new DuckDbDialectConfig(true, Optional.empty(), OptionalInt.empty(), Optional.empty());
    }

    /**
     * Binds the connection's {@code properties} map.
     *
     * @param properties the map from YAML, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming the key, when a key is unknown or a value malformed
     */
    public static DuckDbDialectConfig fromProperties(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; the duckdb dialect accepts " + String.join(", ", new TreeSet<>(KEYS)));
        }
        boolean readOnly = true;
        if (properties.containsKey(READ_ONLY)) {
            readOnly = parseBoolean(READ_ONLY, properties.get(READ_ONLY));
        }
        Optional<Path> initScript = Optional.empty();
        if (properties.containsKey(INIT_SCRIPT)) {
            String value = required(INIT_SCRIPT, properties.get(INIT_SCRIPT), "a file path");
            try {
                initScript = Optional.of(Path.of(value));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(INIT_SCRIPT + ": not a valid path: '" + value + "'", e);
            }
        }
        OptionalInt threads = OptionalInt.empty();
        if (properties.containsKey(THREADS)) {
            String value = required(THREADS, properties.get(THREADS), "1 to " + MAX_THREADS);
            try {
                threads = OptionalInt.of(Integer.parseInt(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(THREADS + ": expected 1 to " + MAX_THREADS + ", got '" + value + "'", e);
            }
        }
        Optional<String> memoryLimit = Optional.empty();
        if (properties.containsKey(MEMORY_LIMIT)) {
            memoryLimit = Optional.of(required(MEMORY_LIMIT, properties.get(MEMORY_LIMIT), "a size such as 512MB or 4GiB"));
        }
        List<String> directories = new ArrayList<>();
        List<String> files = new ArrayList<>();
        if (properties.containsKey(ALLOWED_PATHS)) {
            String value = required(ALLOWED_PATHS, properties.get(ALLOWED_PATHS), "comma-separated absolute paths");
            for (String entry : value.split(",")) {
                String path = entry.strip();
                if (path.isEmpty()) {
                    continue;
                }
                String normalised = allowedPath(path);
                if (normalised.endsWith("/") || Files.isDirectory(Path.of(normalised))) {
                    directories.add(normalised.endsWith("/") ? normalised : normalised + "/");
                } else {
                    files.add(normalised);
                }
            }
        }
        return new DuckDbDialectConfig(readOnly, initScript, threads, memoryLimit, directories, files);
    }

    /**
     * One {@value #ALLOWED_PATHS} entry, checked: absolute, local, no {@code ..}, no wildcard, and none of the
     * characters DuckDB's list syntax would read as structure. DuckDB compares a path as the SQL writes it, after
     * folding {@code .} and {@code ..}, so a relative entry could never match.
     */
    private static String allowedPath(String path) {
        if (path.contains("://")) {
            throw new IllegalArgumentException(ALLOWED_PATHS + ": '" + path + "' is a URL; only local paths are"
                    + " supported (remote files need DuckDB's httpfs extension, which the dialect does not load)");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                throw new IllegalArgumentException(ALLOWED_PATHS + ": '" + path + "' must not contain '..'");
            }
        }
        for (char refused : new char[] {'*', '?', '[', ']', '{', '}', '\'', '"', '\\'}) {
            if (path.indexOf(refused) >= 0) {
                throw new IllegalArgumentException(ALLOWED_PATHS + ": '" + path + "' must not contain '" + refused
                        + "' (no wildcards or quotes)");
            }
        }
        Path parsed;
        try {
            parsed = Path.of(path);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(ALLOWED_PATHS + ": not a valid path: '" + path + "'", e);
        }
        if (!parsed.isAbsolute()) {
            throw new IllegalArgumentException(ALLOWED_PATHS + ": '" + path + "' must be an absolute path: DuckDB"
                    + " checks a path as the SQL writes it, so a relative one would never match");
        }
        if (parsed.getParent() == null) {
            throw new IllegalArgumentException(ALLOWED_PATHS + ": '" + path + "' would allow every file");
        }
        String normalised = parsed.normalize().toString();
        return path.endsWith("/") ? normalised + "/" : normalised;
    }

    private static boolean parseBoolean(String key, String value) {
        String text = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": expected true or false, got '" + value + "'");
        };
    }

    private static String required(String key, String value, String expected) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(key + ": expected " + expected + ", got an empty value");
        }
        return value.strip();
    }
}
