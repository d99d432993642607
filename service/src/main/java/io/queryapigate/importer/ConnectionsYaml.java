package io.queryapigate.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.importer.PythonStore.PyConnection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The original's connections as a {@code connections:} block of this gateway's YAML (config/ConnectionConfig), to
 * review and paste. Secrets never appear in it: a password is a {@code ${VAR}} reference, the original's own when
 * it had one, else a new variable to set ({@link #variables()}). Connection types without a dialect here are
 * written commented out.
 */
final class ConnectionsYaml {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*}");
    private static final Set<String> STANDARD = Set.of("db", "active", "host", "port", "user", "password",
            "database", "created_at", "updated_at", "example");

    /** One variable to set before starting: its name and what it holds. */
    record Variable(String name, String meaning) {}

    private final StringBuilder yaml = new StringBuilder();
    private final List<Variable> variables = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String> names = new LinkedHashMap<>();

    private ConnectionsYaml() {}

    /**
     * @param home the original's home folder (relative DuckDB paths are resolved against it), or null when unknown
     */
    static ConnectionsYaml of(List<PyConnection> connections, Path home, String source) {
        ConnectionsYaml y = new ConnectionsYaml();
        for (PyConnection c : connections) {
            y.names.put(c.name(), Names.valid(c.name()));
        }
        StringBuilder body = new StringBuilder();
        for (PyConnection c : connections) {
            body.append(y.block(c, y.names.get(c.name()), home));
        }
        y.yaml.append("# Connections of the Python original (").append(source).append("), for this gateway's")
                .append(" configuration:\n# review each, then add it under `connections:` (docs/config-reference.md).\n");
        if (!y.variables.isEmpty()) {
            y.yaml.append("# Set these environment variables before starting the gateway:\n");
            for (Variable v : y.variables) {
                y.yaml.append("#   ").append(v.name()).append(": ").append(v.meaning()).append('\n');
            }
        }
        y.yaml.append("connections:\n").append(body);
        return y;
    }

    String text() {
        return yaml.toString();
    }

    List<Variable> variables() {
        return variables;
    }

    /** What could not be carried over, per connection. */
    List<String> notes() {
        return notes;
    }

    /** The original's connection names, each with its name here. */
    Map<String, String> names() {
        return names;
    }

    private String block(PyConnection c, String name, Path home) {
        JsonNode d = c.details();
        StringBuilder b = new StringBuilder();
        if (!name.equals(c.name())) {
            b.append("  # '").append(c.name()).append("' in the original\n");
            notes.add("connection '" + c.name() + "' is named '" + name + "' here");
        }
        if (!c.active()) {
            b.append("  # inactive in the original (its queries answered 403 connection_inactive there)\n");
            notes.add("connection '" + c.name() + "' is inactive in the original: here it serves once configured");
        }
        String host = text(d, "host");
        String port = text(d, "port");
        String database = text(d, "database");
        String dialect;
        String url;
        Map<String, String> properties = new LinkedHashMap<>();
        switch (c.db()) {
            case "duckdb" -> {
                dialect = "duckdb";
                url = database == null ? ":memory:" : database;
                if (home != null && !url.equals(":memory:") && !Path.of(url).isAbsolute()) {
                    url = home.resolve(url).normalize().toString();
                } else if (home == null && !url.equals(":memory:") && !Path.of(url).isAbsolute()) {
                    notes.add("connection '" + c.name() + "': '" + url + "' was relative to the original's home"
                            + " folder: write its full path");
                }
                allowedPaths(c, d, properties);
            }
            case "h2" -> {
                dialect = "h2";
                // the original's URL: the database under the H2 server's home folder; it wrote through the guard alone
                url = "jdbc:h2:tcp://" + hostPort(host, port, "9092") + "/~/" + nz(database);
                properties.put("h2.read_only", "false");
                notes.add("connection '" + c.name() + "' (h2): h2.read_only \"false\" as in the original, where writes"
                        + " were refused by the SQL guard alone; connect with a user that has SELECT grants only, or set"
                        + " it \"true\" when none of its queries write (docs/dialects/h2.md)");
            }
            case "postgres" -> {
                dialect = "postgres";
                String ssl = d.hasNonNull("sslmode") ? "?sslmode=" + d.get("sslmode").asText() : "";
                url = "jdbc:postgresql://" + hostPort(host, port, "5432") + "/" + nz(database) + ssl;
            }
            case "mysql" -> {
                dialect = "mysql";
                url = "jdbc:mysql://" + hostPort(host, port, "3306") + "/" + nz(database);
            }
            case "trino" -> {
                dialect = "trino";
                boolean https = "https".equalsIgnoreCase(text(d, "http_scheme"));
                url = "jdbc:trino://" + hostPort(host, port, "8080") + (https ? "?SSL=true" : "");
                if (database != null) {
                    properties.put("trino.catalog", database);
                }
                properties.put("trino.schema", d.hasNonNull("schema") ? d.get("schema").asText() : "default");
            }
            case "clickhouse" -> {
                dialect = "clickhouse";
                // the original speaks ClickHouse's native protocol (9000, 9440 with TLS); this dialect its HTTP one
                boolean tls = "9440".equals(port) || d.path("secure").asBoolean(false);
                String httpPort = port == null || port.equals("9000") || port.equals("9440") ? (tls ? "8443" : "8123")
                        : port;
                url = (tls ? "https://" : "http://") + (host == null ? "localhost" : host) + ":" + httpPort;
                if (port != null && !port.equals("9000") && !port.equals("9440")) {
                    notes.add("connection '" + c.name() + "': port " + port + " was the native protocol's; check"
                            + " that it is ClickHouse's HTTP port");
                }
                if (database != null) {
                    properties.put("clickhouse.database", database);
                }
            }
            case "mongo" -> {
                dialect = "mongo";
                // the original's client authenticates against admin, as the dialect does by default
                url = "mongodb://" + hostPort(host, port, "27017") + "/" + nz(database);
                if (database == null) {
                    notes.add("connection '" + c.name() + "': it names no database; add it to the url's path"
                            + " (mongodb://host:port/database) or set mongo.database");
                }
            }
            default -> {
                notes.add("connection '" + c.name() + "' (" + c.db() + "): no dialect for it here; its queries are"
                        + " not imported");
                return b.append("  # ").append(name).append(": a '").append(c.db())
                        .append("' connection: no dialect for it in this gateway\n").toString();
            }
        }
        b.append("  ").append(name).append(":\n");
        b.append("    dialect: ").append(dialect).append('\n');
        b.append("    url: ").append(quote(url)).append('\n');
        String user = text(d, "user");
        if (user != null) {
            b.append("    user: ").append(quote(user)).append('\n');
        }
        String password = text(d, "password");
        if (password != null && !password.isEmpty()) {
            String reference = password;
            if (!REFERENCE.matcher(password).matches()) {
                String variable = Names.variable(name, "PASSWORD");
                variables.add(new Variable(variable, "the password of connection '" + name + "'"
                        + (password.startsWith("enc:") ? " (stored encrypted by the original)" : "")));
                reference = "${" + variable + "}";
            }
            b.append("    password: ").append(reference).append('\n');
        }
        if (!properties.isEmpty()) {
            b.append("    properties:\n");
            properties.forEach((k, v) -> b.append("      ").append(k).append(": ").append(quote(v)).append('\n'));
        }
        List<String> others = new ArrayList<>();
        for (Iterator<String> it = d.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!STANDARD.contains(field) && !field.equals("sslmode") && !field.equals("schema")
                    && !(field.equals("allowed_paths") && dialect.equals("duckdb"))
                    && !field.equals("http_scheme") && !field.equals("secure")) {
                others.add(field);
            }
        }
        if (!others.isEmpty()) {
            b.append("    # not carried over: ").append(String.join(", ", others)).append('\n');
            notes.add("connection '" + c.name() + "': driver options not carried over (" + String.join(", ", others)
                    + "); see docs/dialects/" + dialect + ".md for this dialect's properties");
        }
        return b.toString();
    }

    /**
     * The original's {@code allowed_paths} as {@code duckdb.allowed_paths}: its local entries (directories end in
     * {@code /} in both); remote ones (object storage, HTTP) and the storage options are named in the notes.
     */
    private void allowedPaths(PyConnection c, JsonNode d, Map<String, String> properties) {
        JsonNode paths = d.get("allowed_paths");
        if (paths == null || !paths.isArray()) {
            return;
        }
        List<String> local = new ArrayList<>();
        List<String> remote = new ArrayList<>();
        for (JsonNode path : paths) {
            (path.asText().contains("://") ? remote : local).add(path.asText());
        }
        if (!local.isEmpty()) {
            properties.put("duckdb.allowed_paths", String.join(", ", local));
        }
        if (!remote.isEmpty()) {
            notes.add("connection '" + c.name() + "': remote allowed_paths not carried over (" + String.join(", ", remote)
                    + "): the duckdb dialect reads local files only");
        }
    }

    private static String hostPort(String host, String port, String defaultPort) {
        return (host == null ? "localhost" : host) + ":" + (port == null ? defaultPort : port);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String text(JsonNode d, String field) {
        JsonNode v = d.get(field);
        return v == null || v.isNull() || v.asText().isEmpty() ? null : v.asText();
    }

    /** A YAML double-quoted scalar; {@code ${VAR}} in it is still replaced when the configuration is read. */
    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
