package io.queryapigate.testing;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.GatewayApplication;
import io.queryapigate.GatewayConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a complete service YAML into a fresh temporary home: random ports, SQLite store, DuckDB demo database. */
public final class TestingConfig {
    public static final String ADMIN_KEY = "test-admin-key-0123456789";

    private TestingConfig() {}

    /** The repository root (for config/demo/demo-duckdb.sql). */
    public static Path repo() {
        String fromProperty = System.getProperty("qag.repo");
        Path p = fromProperty != null ? Path.of(fromProperty) : Path.of("").toAbsolutePath().getParent();
        if (!Files.exists(p.resolve("config/demo/demo-duckdb.sql"))) {
            p = Path.of("").toAbsolutePath();
        }
        return p.toAbsolutePath().normalize();
    }

    /** A home directory with a config file; {@code extraYaml} is appended verbatim (top-level keys). */
    public static Path write(String connectionsYaml, String extraYaml) {
        return write(connectionsYaml, extraYaml, "0s");
    }

    /** As {@link #write(String, String)}, with the metadata cache's TTL ({@code 0s} = off). */
    public static Path write(String connectionsYaml, String extraYaml, String metadataTtl) {
        try {
            Path home = Files.createTempDirectory("qag-test-");
            String yaml = "home: " + home + "\n"
                    + "auth:\n  adminKey: " + ADMIN_KEY + "\n"
                    + "events:\n  flushInterval: 50ms\n"
                    + "metadataCache:\n  ttl: " + metadataTtl + "\n"
                    + "connections:\n" + connectionsYaml
                    + extraYaml
                    + "server:\n"
                    + "  applicationConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: 0\n"
                    + "  adminConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: 0\n"
                    + "  requestLog:\n    appenders: []\n"
                    + "logging:\n  level: WARN\n  appenders:\n    - type: console\n      threshold: WARN\n";
            Path config = home.resolve("config.yml");
            Files.writeString(config, yaml);
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code config} with more keys in its {@code events} block ({@code eventsYaml}: lines indented by two spaces).
     */
    public static Path withEvents(Path config, String eventsYaml) {
        try {
            String yaml = Files.readString(config);
            String events = "events:\n  flushInterval: 50ms\n";
            if (!yaml.contains(events)) {
                throw new AssertionError("the test configuration has no events block");
            }
            Files.writeString(config, yaml.replace(events, events + eventsYaml));
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The demo DuckDB connection, as the quickstart declares it. */
    public static String demoConnection() {
        return "  demo:\n    dialect: duckdb\n    url: demo.duckdb\n    poolSize: 4\n    properties:\n"
                + "      duckdb.read_only: \"true\"\n"
                + "      duckdb.init_script: " + repo().resolve("config/demo/demo-duckdb.sql") + "\n";
    }

    public static String filmSeed() {
        return "seedQueries:\n"
                + "  - name: film\n    connection: demo\n"
                + "    sql: SELECT film_id, title, rental_rate FROM film WHERE film_id = :film_id\n"
                + "    parameters:\n      film_id: {type: int, min: 1}\n";
    }

    /** Starts the gateway on {@code config} and stops it: for a test that expects startup to fail. */
    public static void startAndStop(Path config) throws Exception {
        DropwizardTestSupport<GatewayConfiguration> support =
                new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        try {
            support.before();
        } finally {
            support.after();
        }
    }

    /**
     * The body of a connection to a DuckDB database in memory whose table {@code t} holds one row, {@code v = value}
     * (for {@code POST /api/v1/connections}).
     */
    public static java.util.Map<String, Object> duckdbConnection(String name, String value) throws IOException {
        Path script = Files.createTempFile("qag-conn-", ".sql");
        Files.writeString(script, "CREATE TABLE t AS SELECT '" + value + "' AS v;\n");
        java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("name", name);
        body.put("dialect", "duckdb");
        body.put("url", ":memory:");
        body.put("pool_size", 2);
        body.put("properties", java.util.Map.of("duckdb.init_script", script.toString(), "duckdb.read_only", "false"));
        return body;
    }
}
