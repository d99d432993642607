package io.queryapigate.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The Python original's store ({@code queryapigate} 0.38 to 0.43, store schema 17), read with plain JDBC: its SQLite
 * file {@code queryapigate.db} in {@code QUERYAPIGATE_HOME}, or its PostgreSQL store ({@code
 * QUERYAPIGATE_DATABASE_URL}). Only one workspace is read; everything is read once, read-only, in one go.
 */
public final class PythonStore {
    /** The store schema this reader knows (db.py's {@code SCHEMA_VERSION} in 0.38 to 0.43). */
    public static final int SCHEMA = 17;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A connection: its database type ({@code db}), whether it is active, and its other fields ({@code details}). */
    public record PyConnection(String name, String db, boolean active, JsonNode details) {}

    /** One version of a saved query: {@code fields} is the stored {@code fields_json} (sql_query, parameters...). */
    public record PyVersion(int version, String uuid, Long createdAt, JsonNode fields) {}

    /** A saved query with its versions, oldest first; {@code published} is null when nothing is published. */
    public record PyQuery(String name, String collection, Integer published, List<PyVersion> versions) {}

    /** An API key: its secret's SHA-256 and its grants ({@code details}: connections, queries, quota, ...). */
    public record PyKey(String name, String hash, boolean active, String expiresAt, Long createdAt, JsonNode details,
            String previousHash, String previousExpiresAt) {}

    /** One run of a saved-query version from {@code execution_history}; {@code entry} is its entry_json. */
    public record PyRun(long rowId, String query, int version, Long at, JsonNode entry) {}

    /** What was read: the workspace's objects, and how many objects the other workspaces hold (left behind). */
    public record Contents(String description, Path home, int schema, List<PyConnection> connections,
            List<PyQuery> queries, List<PyKey> keys, List<PyRun> runs, Map<String, Integer> otherWorkspaces) {}

    private PythonStore() {}

    /** Where to read from: a JDBC URL and its credentials, the home folder when known (for relative file paths). */
    record Location(String url, String user, String password, Path home, String description) {}

    /**
     * Reads the original's store.
     *
     * @param from its home folder, its {@code queryapigate.db}, or its PostgreSQL URL ({@code postgresql://...} as
     *     {@code QUERYAPIGATE_DATABASE_URL} has it, or {@code jdbc:postgresql:...})
     * @param zone the zone the original wrote its wall-clock times in (its server's)
     * @param withRuns whether to read the run history
     * @throws ImportException when the store cannot be found or read, or has a schema this reader does not know
     */
    public static Contents read(String from, String workspace, ZoneId zone, boolean withRuns) {
        Location at = locate(from);
        try (Connection c = open(at)) {
            int schema = schemaVersion(c, at);
            List<PyConnection> connections = connections(c, workspace);
            List<PyQuery> queries = queries(c, workspace, zone);
            List<PyKey> keys = keys(c, workspace, zone);
            List<PyRun> runs = withRuns ? runs(c, workspace, zone) : List.of();
            return new Contents(at.description(), at.home(), schema, connections, queries, keys, runs,
                    otherWorkspaces(c, workspace));
        } catch (SQLException e) {
            throw new ImportException("Could not read the Python original's store at " + at.description() + ": "
                    + e.getMessage(), e);
        }
    }

    static Location locate(String from) {
        if (from.startsWith("postgresql://") || from.startsWith("postgres://")) {
            return postgres(from);
        }
        if (from.startsWith("jdbc:postgresql:")) {
            return new Location(from, null, null, null, from.replaceAll("password=[^&]*", "password=***"));
        }
        Path path = Path.of(from.startsWith("jdbc:sqlite:") ? from.substring("jdbc:sqlite:".length()) : from)
                .toAbsolutePath().normalize();
        Path file = Files.isDirectory(path) ? path.resolve("queryapigate.db") : path;
        if (!Files.isRegularFile(file)) {
            throw new ImportException("No store of the Python original at " + file + " (--from takes its home"
                    + " folder, its queryapigate.db or its PostgreSQL URL).");
        }
        return new Location("jdbc:sqlite:" + file, null, null, file.getParent(), file.toString());
    }

    /** A libpq URL ({@code postgresql://user:password@host:port/db?sslmode=...}) as a pgjdbc one. */
    private static Location postgres(String from) {
        URI uri = URI.create(from);
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
            password = parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : null;
        }
        String host = uri.getHost() == null ? "localhost" : uri.getHost();
        String url = "jdbc:postgresql://" + host + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new Location(url, user, password, null, url);
    }

    private static Connection open(Location at) throws SQLException {
        Properties props = new Properties();
        if (at.url().startsWith("jdbc:sqlite:")) {
            props.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
            return DriverManager.getConnection(at.url(), props);
        }
        if (at.user() != null) {
            props.setProperty("user", at.user());
        }
        if (at.password() != null) {
            props.setProperty("password", at.password());
        }
        props.setProperty("readOnly", "true");
        return DriverManager.getConnection(at.url(), props);
    }

    private static int schemaVersion(Connection c, Location at) throws SQLException {
        int version;
        try (PreparedStatement s = c.prepareStatement("SELECT MAX(version) FROM schema_version");
                ResultSet r = s.executeQuery()) {
            version = r.next() ? r.getInt(1) : 0;
        } catch (SQLException e) {
            throw new ImportException(at.description() + " is not a store of the Python original (no schema_version"
                    + " table).", e);
        }
        if (version > SCHEMA) {
            throw new ImportException(at.description() + " has store schema " + version + ", written by a release"
                    + " newer than 0.43; this importer reads schema " + SCHEMA + " (0.38 to 0.43).");
        }
        if (version < SCHEMA) {
            throw new ImportException(at.description() + " has store schema " + version + " (an older release);"
                    + " start queryapigate 0.43 on it once, which upgrades it to schema " + SCHEMA + ", then import.");
        }
        return version;
    }

    private static List<PyConnection> connections(Connection c, String workspace) throws SQLException {
        List<PyConnection> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT name, db, active, details_json FROM connections"
                + " WHERE workspace = ? ORDER BY name")) {
            s.setString(1, workspace);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new PyConnection(r.getString(1), r.getString(2), r.getInt(3) != 0, json(r.getString(4))));
                }
            }
        }
        return out;
    }

    private static List<PyQuery> queries(Connection c, String workspace, ZoneId zone) throws SQLException {
        Map<String, List<PyVersion>> versions = new TreeMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT query_name, version, uuid, created_at, fields_json"
                + " FROM saved_query_versions WHERE workspace = ? ORDER BY query_name, version")) {
            s.setString(1, workspace);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    versions.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
                            .add(new PyVersion(r.getInt(2), r.getString(3), time(r.getString(4), zone),
                                    json(r.getString(5))));
                }
            }
        }
        List<PyQuery> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT name, collection, published_version FROM saved_queries"
                + " WHERE workspace = ? ORDER BY name")) {
            s.setString(1, workspace);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    int number = r.getInt(3);
                    Integer published = r.wasNull() ? null : number;
                    out.add(new PyQuery(r.getString(1), r.getString(2), published,
                            List.copyOf(versions.getOrDefault(r.getString(1), List.of()))));
                }
            }
        }
        return out;
    }

    private static List<PyKey> keys(Connection c, String workspace, ZoneId zone) throws SQLException {
        List<PyKey> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT name, hash, active, expires_at, created_at,"
                + " details_json, previous_hash, previous_expires_at FROM api_keys WHERE workspace = ? ORDER BY name")) {
            s.setString(1, workspace);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new PyKey(r.getString(1), r.getString(2), r.getInt(3) != 0, r.getString(4),
                            time(r.getString(5), zone), json(r.getString(6)), r.getString(7), r.getString(8)));
                }
            }
        }
        return out;
    }

    private static List<PyRun> runs(Connection c, String workspace, ZoneId zone) throws SQLException {
        List<PyRun> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT rowid, query_name, version, executed_at, entry_json"
                + " FROM execution_history WHERE workspace = ? AND query_name IS NOT NULL AND version IS NOT NULL"
                + " ORDER BY executed_at, rowid")) {
            s.setString(1, workspace);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new PyRun(r.getLong(1), r.getString(2), r.getInt(3), time(r.getString(4), zone),
                            json(r.getString(5))));
                }
            }
        }
        return out;
    }

    /** Per other workspace, how many connections, queries and keys it holds: those are not imported. */
    private static Map<String, Integer> otherWorkspaces(Connection c, String workspace) throws SQLException {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String table : List.of("connections", "saved_queries", "api_keys")) {
            try (PreparedStatement s = c.prepareStatement("SELECT workspace, COUNT(*) FROM " + table
                    + " WHERE workspace <> ? GROUP BY workspace ORDER BY workspace")) {
                s.setString(1, workspace);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.merge(r.getString(1), r.getInt(2), Integer::sum);
                    }
                }
            }
        }
        return out;
    }

    /** A wall-clock time as the original writes it ({@code 2024-01-31 12:00:00}, its server's zone), or null. */
    static Long time(String text, ZoneId zone) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return LocalDateTime.parse(text.strip(), TIME).atZone(zone).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static JsonNode json(String text) {
        if (text == null) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JsonNodeFactory.instance.objectNode();
        }
    }
}
