package io.queryapigate.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.importer.PythonImporter.OnConflict;
import io.queryapigate.importer.PythonImporter.Options;
import io.queryapigate.queries.Definitions;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.RunRow;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The importer's plan on stores of the original written here in its schema (db.py, schema 17): what cannot work here
 * stops the import or is left out with --skip-invalid, names only the original allows are renamed without taking a
 * valid name, other workspaces and store schemas are named, and times are read in the original's zone.
 */
class PythonImporterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN_KEY = "our-admin-key-0123456789";
    private static final String GOOD_SECRET = "sk_good-0123456789";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-01T00:00:00Z"), ZoneOffset.UTC);

    private Path dir;
    private Path original;
    private Store store;
    private ConnectionRegistry connections;

    @BeforeEach
    void setUp() throws Exception {
        dir = Files.createTempDirectory("qag-importer-test-");
        original = dir.resolve("queryapigate.db");
        createOriginalStore(original, 17);
        String url = "jdbc:sqlite:" + dir.resolve("ours.db");
        Store.migrate(url, null, null);
        store = Store.connect(url, null, null);
        ConnectionConfig demo = new ConnectionConfig();
        demo.setDialect("duckdb");
        demo.setUrl(":memory:");
        demo.setPoolSize(1);
        demo.setProperties(Map.of("duckdb.read_only", "false"));
        connections = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()),
                Map.of("demo", demo), java.time.Duration.ofSeconds(5), 1000, dir);
    }

    @AfterEach
    void tearDown() {
        connections.stop();
    }

    private String run(Options options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Definitions definitions = new Definitions(new Guarding(new SqlGuard(65_536, SqlGuard.DEFAULT_PARSE_TIMEOUT),
                false), connections, 65_536);
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new PythonImporter(store, definitions, JSON, CLOCK, KeyHasher.hashHex(ADMIN_KEY), false, 50,
                    TestingAudit.of(store))
                    .run(options, out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private Options options(boolean skipInvalid) {
        return new Options(original.toString(), "default", ZoneId.of("Europe/Berlin"), false, true, OnConflict.FAIL,
                skipInvalid, null);
    }

    @Test
    void aMongoQueryIsImportedAsAQueryDocument() throws Exception {
        connections.stop();
        ConnectionConfig docs = new ConnectionConfig();
        docs.setDialect("mongo");
        docs.setUrl("mongodb://127.0.0.1:9/docs"); // never contacted: saving a query document does not describe it
        docs.setPoolSize(1);
        connections = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()),
                Map.of("docs", docs), java.time.Duration.ofSeconds(5), 1000, dir);
        connection("docs", "mongo", "{\"host\": \"127.0.0.1\", \"database\": \"docs\"}");
        query("people", 1, "{\"query_type\": \"mongo\", \"mongo_collection\": \"people\", \"mongo_filter\":"
                + " {\"city\": \":city\", \"age\": {\"$gte\": 18}}, \"mongo_sort\": {\"age\": -1},"
                + " \"query_parameters\": {\"city\": \"str\"}, \"connection_name\": \"docs\"}");
        query("stolen", 1, "{\"query_type\": \"mongo\", \"mongo_collection\": \"people\", \"mongo_filter\":"
                + " {\"$where\": \"true\"}, \"connection_name\": \"docs\"}");

        String out = run(options(true));
        assertThat(out).contains("create       people: 1 version, publishes version 1, connection docs")
                .contains("blocked      stolen: version 1: '$where'");
        long id = store.queries().findByName("people").orElseThrow().id();
        QueryVersionRow v = store.queries().findVersion(id, 1).orElseThrow();
        assertThat(JSON.readTree(v.sqlText())).isEqualTo(JSON.readTree("{\"collection\": \"people\", \"filter\":"
                + " {\"city\": \":city\", \"age\": {\"$gte\": 18}}, \"sort\": {\"age\": -1}}"));
        assertThat(JSON.readTree(v.details())).isEqualTo(JSON.readTree("{\"query_type\": \"mongo\"}"));
        assertThat(JSON.readTree(v.parameters()).get("city").get("type").asText()).isEqualTo("str");
    }

    @Test
    void whatCannotWorkHereStopsTheImportOrIsLeftOutWithSkipInvalid() throws Exception {
        connection("demo", "duckdb", "{\"database\": \":memory:\"}");
        connection("docs", "mongo", "{\"host\": \"mongo\"}");
        query("ok", 1, "{\"sql_query\": \"SELECT 1 AS one WHERE :n > 0\", \"query_parameters\": {\"n\": \"int\"},"
                + " \"connection_name\": \"demo\", \"author\": \"ada\", \"description\": \"fine\"}");
        query("mongo", 1, "{\"query_type\": \"mongo\", \"mongo_collection\": \"c\", \"connection_name\": \"docs\"}");
        query("masked", 1, "{\"sql_query\": \"SELECT 1\", \"connection_name\": \"demo\","
                + " \"mask\": [{\"column\": \"t.c\", \"action\": \"null\"}]}");
        query("braces", 1, "{\"sql_query\": \"SELECT * FROM {table}\", \"connection_name\": \"demo\"}");
        query("elsewhere", 1, "{\"sql_query\": \"SELECT 1\", \"connection_name\": \"other\"}");
        query("drafty", 1, "{\"sql_query\": \"SELECT 1 AS one\", \"connection_name\": \"demo\", \"tags\": \"a, b\","
                + " \"column_descriptions\": {\"one\": \"the number one\"}, \"mcp\": false}");
        version("drafty", 2, "{\"sql_query\": \"SELECT 2 AS two\", \"connection_name\": \"other\"}");
        query("claims", 1, "{\"sql_query\": \"SELECT :me AS me\", \"connection_name\": \"demo\","
                + " \"query_parameters\": {\"me\": {\"from_claim\": \"sub\"}}}");
        query("nowhere", 1, "{\"sql_query\": \"SELECT 1\"}");
        query("writes", 1, "{\"sql_query\": \"DELETE FROM t\", \"connection_name\": \"demo\"}");
        key("good", GOOD_SECRET, "{\"connections\": [], \"queries\": [\"ok\", \"mongo\"]}", null);
        key("wild", "sk_wild-0123456789", "{\"connections\": [\"demo\"], \"mask\": [{\"column\": \"*.email\","
                + " \"action\": \"null\"}]}", null);
        key("admin-twin", ADMIN_KEY, "{\"connections\": []}", null);
        key("bad-expiry", "sk_expiry-0123456789", "{\"connections\": []}", "someday");
        run("ok", 1, "2026-05-01 10:00:00", "{\"status\": \"success\", \"rows\": 1, \"duration_ms\": 2.5,"
                + " \"request_id\": \"r1\", \"key_name\": \"good\"}");

        assertThatThrownBy(() -> run(options(false))).isInstanceOf(ImportException.class)
                .hasMessageContaining("Stopped: query 'braces', query 'claims', query 'elsewhere', query 'masked',"
                        + " query 'mongo', query 'nowhere', query 'writes', key 'admin-twin', key 'bad-expiry',"
                        + " key 'wild' cannot be imported")
                .hasMessageContaining("Nothing was written");
        assertThat(store.queries().list()).isEmpty();
        assertThat(store.keys().list()).isEmpty();

        String out = run(options(true));
        assertThat(out)
                .contains("blocked      braces: version 1: it substitutes {name} text placeholders")
                .contains("blocked      claims: version 1: parameter 'me' takes its value from the caller's sign-in")
                .contains("blocked      elsewhere: version 1: it is the published version, and No connection named"
                        + " 'other'. Add the connection (see the connections fragment) and import again.")
                .contains("create       drafty: 2 versions, publishes version 1, connection other")
                .contains("- version 2: No connection named 'other'. It cannot run here until that is fixed.")
                .contains("blocked      masked: version 1: it masks columns for every caller")
                .contains("blocked      mongo: version 1: it is the published version, and No connection named 'docs'.")
                .contains("blocked      nowhere: version 1: it names no connection")
                .contains("blocked      writes: version 1: ")
                .contains("blocked      admin-twin: its secret is this gateway's administrator key")
                .contains("blocked      bad-expiry: its expiry 'someday' is not a date")
                .contains("blocked      wild: its mask rule on '*.email' has a wildcard")
                .contains("! narrower: its grant on query 'mongo' is dropped (that query is not imported)")
                .contains("  docs:\n    dialect: mongo\n    url: \"mongodb://mongo:27017/\"\n")
                .contains("connection 'docs': it names no database")
                .contains("Imported 2 saved queries (3 versions), 1 API key and 1 run.");

        assertThat(store.queries().list()).extracting(r -> r.name()).containsExactly("drafty", "ok");
        long drafty = store.queries().findByName("drafty").orElseThrow().id();
        QueryVersionRow first = store.queries().findVersion(drafty, 1).orElseThrow();
        assertThat(JSON.readTree(first.tags())).isEqualTo(JSON.readTree("[\"a\", \"b\"]"));
        assertThat(JSON.readTree(first.details())).isEqualTo(JSON.readTree("{\"columns\": {\"one\": \"the number"
                + " one\"}, \"mcp\": false}"));
        assertThat(store.queries().findVersion(drafty, 2).orElseThrow().connectionName()).isEqualTo("other");
        // described on its connection as it is imported; unknown where the connection does not exist here
        assertThat(JSON.readTree(first.resultColumns())).isEqualTo(JSON.readTree("[{\"name\": \"one\","
                + " \"type_name\": \"INTEGER\", \"jdbc_type\": \"INTEGER\", \"nullable\": null}]"));
        assertThat(store.queries().findVersion(drafty, 2).orElseThrow().resultColumns()).isNull();
        long id = store.queries().findByName("ok").orElseThrow().id();
        QueryVersionRow v = store.queries().findVersion(id, 1).orElseThrow();
        assertThat(v.author()).isEqualTo("ada");
        assertThat(v.uuid()).isEqualTo("u-ok-1");
        assertThat(JSON.readTree(v.parameters())).isEqualTo(JSON.readTree("{\"n\": {\"type\": \"int\","
                + " \"required\": true}}"));
        // the original's times are wall-clock times in its zone: 2024-01-02 03:04:05 in Berlin is 02:04:05 UTC
        assertThat(v.createdAt()).isEqualTo(Instant.parse("2024-01-02T02:04:05Z").toEpochMilli());
        ApiKeyRow good = store.keys().findByName("good").orElseThrow();
        assertThat(good.keyHash()).isEqualTo(KeyHasher.hashHex(GOOD_SECRET));
        assertThat(JSON.readTree(good.grants()).get("queries")).isEqualTo(JSON.readTree("[\"ok\"]"));
        List<RunRow> runs = store.history().runsOf(id);
        assertThat(runs).singleElement().satisfies(r -> {
            assertThat(r.atMs()).isEqualTo(Instant.parse("2026-05-01T08:00:00Z").toEpochMilli());
            assertThat(r.keyId()).isEqualTo(good.id());
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.durationUs()).isEqualTo(2500);
            assertThat(r.requestId()).isEqualTo("r1");
        });

        assertThat(run(options(true))).contains("Nothing to import: everything is already here.");
        assertThat(store.history().runsOf(id)).hasSize(1);
    }

    @Test
    void secretsKeepWorkingIncludingAPreviousOneInItsGracePeriodAndRevokedKeysStayRevoked() throws Exception {
        connection("demo", "duckdb", "{\"database\": \":memory:\"}");
        String grants = "{\"connections\": [\"demo\"], \"quota\": {\"rows\": 10, \"per\": \"month\"},"
                + " \"max_rows\": 5}";
        key("rotated", "sk_new-0123456789", grants, "2030-01-31");
        key("ended", "sk_ended-0123456789", grants, null);
        key("revoked", "sk_revoked-0123456789", grants, null);
        insert("UPDATE api_keys SET previous_hash = ?, previous_expires_at = '2026-06-02 12:00:00' WHERE name"
                + " = 'rotated'", KeyHasher.hashHex("sk_old-0123456789"));
        insert("UPDATE api_keys SET previous_hash = ?, previous_expires_at = '2026-05-31 12:00:00' WHERE name"
                + " = 'ended'", KeyHasher.hashHex("sk_ended-old-0123456789"));
        insert("UPDATE api_keys SET active = 0 WHERE name = 'revoked'");

        assertThat(run(options(false))).contains("Imported 0 saved queries (0 versions), 3 API keys and 0 runs.")
                .contains("create       rotated: connections [demo] with ad-hoc SQL, quota 10 rows per month,"
                        + " max_rows 5, expires 2030-01-31, its previous secret works until 2026-06-02T10:00:00Z");
        ApiKeyRow rotated = store.keys().findByName("rotated").orElseThrow();
        assertThat(rotated.previousHash()).isEqualTo(KeyHasher.hashHex("sk_old-0123456789"));
        assertThat(rotated.previousExpiresAt()).isEqualTo(Instant.parse("2026-06-02T10:00:00Z").toEpochMilli());
        assertThat(store.keys().findByName("ended").orElseThrow().previousHash()).isNull();
        ApiKeyRow revoked = store.keys().findByName("revoked").orElseThrow();
        assertThat(revoked.active()).isFalse();
        assertThat(revoked.revokedAt()).isNotNull();
        assertThat(JSON.readTree(rotated.grants())).isEqualTo(JSON.readTree("{\"connections\": [\"demo\"],"
                + " \"queries\": [], \"adhoc_sql\": true, \"allow_writes\": false, \"mask\": [],"
                + " \"quota\": {\"rows\": 10, \"per\": \"month\"}, \"max_rows\": 5}"));

        ApiKeyAuthenticator auth = new ApiKeyAuthenticator(ADMIN_KEY, new MetadataCache(store,
                java.time.Duration.ZERO, 1, new MetricRegistry()), JSON, CLOCK);
        assertThat(auth.authenticate("sk_new-0123456789")).get().extracting(c -> c.name()).isEqualTo("rotated");
        assertThat(auth.authenticate("sk_old-0123456789")).get().extracting(c -> c.name()).isEqualTo("rotated");
        assertThat(auth.authenticate("sk_ended-0123456789")).isPresent();
        assertThat(auth.authenticate("sk_ended-old-0123456789")).isEmpty();
        assertThat(auth.authenticate("sk_revoked-0123456789")).isEmpty();

        assertThat(run(options(false))).contains("Nothing to import: everything is already here.");
    }

    @Test
    void namesOnlyTheOriginalAllowsAreRenamedWithoutTakingAValidName() throws Exception {
        connection("demo", "duckdb", "{\"database\": \":memory:\"}");
        query("films by rating", 1, "{\"sql_query\": \"SELECT 1 AS x\", \"connection_name\": \"demo\"}");
        query("Zoë", 1, "{\"sql_query\": \"SELECT 2 AS x\", \"connection_name\": \"demo\"}");
        query("Zo_", 1, "{\"sql_query\": \"SELECT 3 AS x\", \"connection_name\": \"demo\"}");
        key("admin", "sk_admin-named-0123456789", "{\"connections\": [], \"queries\": [\"films by rating\","
                + " \"Zoë\"]}", null);
        key("my key", "sk_my-key-0123456789", "{\"connections\": []}", null);

        String out = run(options(false));
        assertThat(out).contains("create       films by rating: ").contains("create       Zo_: ")
                .contains("create       Zo_-py ('Zoë'): ").contains("create       admin-py ('admin'): ")
                .contains("create       my key: ");
        assertThat(store.queries().findVersion(store.queries().findByName("Zo_").orElseThrow().id(), 1)
                .orElseThrow().sqlText()).isEqualTo("SELECT 3 AS x");
        assertThat(JSON.readTree(store.keys().findByName("admin-py").orElseThrow().grants()).get("queries"))
                .isEqualTo(JSON.readTree("[\"Zo_-py\", \"films by rating\"]"));
    }

    @Test
    void otherWorkspacesAreNamedAndImportedOneAtATime() throws Exception {
        connection("demo", "duckdb", "{\"database\": \":memory:\"}");
        query("mine", 1, "{\"sql_query\": \"SELECT 1 AS x\", \"connection_name\": \"demo\"}");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + original); Statement s = c.createStatement()) {
            s.execute("INSERT INTO saved_queries (workspace, name, published_version) VALUES ('team', 'theirs', 1)");
            s.execute("INSERT INTO saved_query_versions (workspace, query_name, version, uuid, created_at,"
                    + " last_modified_at, fields_json) VALUES ('team', 'theirs', 1, 'u', '2024-01-01 00:00:00',"
                    + " '2024-01-01 00:00:00', '{\"sql_query\": \"SELECT 2 AS x\", \"connection_name\": \"demo\"}')");
            s.execute("INSERT INTO connections (workspace, name, db, active, created_at, updated_at, details_json)"
                    + " VALUES ('team', 'demo', 'duckdb', 1, 'x', 'x', '{}')");
        }
        assertThat(run(options(false))).contains("create       mine: ").doesNotContain("theirs")
                .contains("Other workspaces, not imported (--workspace NAME imports one): team (2 connections,"
                        + " queries and keys)");
        String team = run(new Options(original.toString(), "team", ZoneId.of("UTC"), false, false, OnConflict.FAIL,
                false, null));
        assertThat(team).contains("create       theirs: ").contains("Other workspaces, not imported"
                + " (--workspace NAME imports one): default (2 connections, queries and keys)");
    }

    @Test
    void aStoreOfAnotherSchemaIsRefusedWithWhatToDo() throws Exception {
        Path older = dir.resolve("older.db");
        createOriginalStore(older, 16);
        assertThatThrownBy(() -> PythonStore.read(older.toString(), "default", ZoneId.of("UTC"), false))
                .isInstanceOf(ImportException.class).hasMessageContaining("start queryapigate 0.43 on it once");
        Path newer = dir.resolve("newer.db");
        createOriginalStore(newer, 18);
        assertThatThrownBy(() -> PythonStore.read(newer.toString(), "default", ZoneId.of("UTC"), false))
                .isInstanceOf(ImportException.class).hasMessageContaining("newer than 0.43");
        assertThatThrownBy(() -> PythonStore.read(dir.resolve("none").toString(), "default", ZoneId.of("UTC"), false))
                .isInstanceOf(ImportException.class).hasMessageContaining("No store of the Python original");
    }

    @Test
    void aPostgresUrlAsTheOriginalTakesItBecomesAJdbcUrl() {
        PythonStore.Location at = PythonStore.locate("postgresql://qag:p%40ss@db.example:5433/store?sslmode=require");
        assertThat(at.url()).isEqualTo("jdbc:postgresql://db.example:5433/store?sslmode=require");
        assertThat(at.user()).isEqualTo("qag");
        assertThat(at.password()).isEqualTo("p@ss");
        assertThat(at.description()).doesNotContain("p@ss");
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The original's store, in its own schema (the tables and columns the importer reads)

    private static void createOriginalStore(Path file, int schema) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            s.execute("INSERT INTO schema_version VALUES (" + schema + ")");
            s.execute("CREATE TABLE connections (workspace TEXT NOT NULL DEFAULT 'default', name TEXT NOT NULL,"
                    + " db TEXT NOT NULL, active INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT"
                    + " NOT NULL, details_json TEXT NOT NULL, PRIMARY KEY (workspace, name))");
            s.execute("CREATE TABLE saved_queries (workspace TEXT NOT NULL DEFAULT 'default', name TEXT NOT NULL,"
                    + " collection TEXT, example INTEGER NOT NULL DEFAULT 0, published_version INTEGER,"
                    + " PRIMARY KEY (workspace, name))");
            s.execute("CREATE TABLE saved_query_versions (workspace TEXT NOT NULL DEFAULT 'default', query_name TEXT"
                    + " NOT NULL, version INTEGER NOT NULL, uuid TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',"
                    + " created_at TEXT NOT NULL, last_modified_at TEXT NOT NULL, fields_json TEXT NOT NULL,"
                    + " PRIMARY KEY (workspace, query_name, version))");
            s.execute("CREATE TABLE execution_history (query_name TEXT, version INTEGER, executed_at TEXT NOT NULL,"
                    + " entry_json TEXT NOT NULL, status TEXT, key_name TEXT, workspace TEXT NOT NULL DEFAULT"
                    + " 'default')");
            s.execute("CREATE TABLE api_keys (workspace TEXT NOT NULL DEFAULT 'default', name TEXT NOT NULL, hash TEXT"
                    + " NOT NULL UNIQUE, active INTEGER NOT NULL DEFAULT 1, expires_at TEXT, created_at TEXT NOT NULL,"
                    + " details_json TEXT NOT NULL, previous_hash TEXT, previous_expires_at TEXT,"
                    + " PRIMARY KEY (workspace, name))");
        }
    }

    private void connection(String name, String db, String details) throws Exception {
        insert("INSERT INTO connections (name, db, active, created_at, updated_at, details_json)"
                + " VALUES (?, ?, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', ?)", name, db, details);
    }

    private void query(String name, int published, String fields) throws Exception {
        insert("INSERT INTO saved_queries (name, published_version) VALUES (?, ?)", name, published);
        version(name, 1, fields);
    }

    private void version(String name, int version, String fields) throws Exception {
        insert("INSERT INTO saved_query_versions (query_name, version, uuid, created_at, last_modified_at,"
                + " fields_json) VALUES (?, ?, ?, '2024-01-02 03:04:05', '2024-01-02 03:04:05', ?)", name, version,
                "u-" + name + "-" + version, fields);
    }

    private void key(String name, String secret, String details, String expiresAt) throws Exception {
        insert("INSERT INTO api_keys (name, hash, active, expires_at, created_at, details_json)"
                + " VALUES (?, ?, 1, ?, '2024-01-01 00:00:00', ?)", name, KeyHasher.hashHex(secret), expiresAt,
                details);
    }

    private void run(String query, int version, String at, String entry) throws Exception {
        insert("INSERT INTO execution_history (query_name, version, executed_at, entry_json) VALUES (?, ?, ?, ?)",
                query, version, at, entry);
    }

    private void insert(String sql, Object... values) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + original);
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                s.setObject(i + 1, values[i]);
            }
            s.executeUpdate();
        }
    }
}
