package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.util.JarLocation;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.cli.ConfigCommand;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code queryapigate config export|diff|apply}, against the store of a running server (SQLite)
 * and of fresh stores (SQLite and PostgreSQL): the GitOps loop (export, edit, diff, apply, the calls see it) and the
 * round trip (export, apply on an empty store, export again: the same files).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConfigGitOpsIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_config");
    /** Where the connections' {@code ${file:...}} password references point, for the server and the command. */
    private static final Path SECRETS = secretsDirectory();
    private static final String SECRETS_YAML = "secrets:\n  fileDirectories: [\"" + SECRETS + "\"]\n";
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), SECRETS_YAML);
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    /** One configuration (and demo database) per store the command line works on. */
    private static final Map<String, Path> CLI_CONFIGS = new java.util.concurrent.ConcurrentHashMap<>();

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Path secretsDirectory() {
        try {
            return Files.createTempDirectory("qag-gitops-secrets-").toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A DuckDB connection in memory, its password a file reference, whose table {@code t} holds {@code v = value}. */
    private static String connection(String name, String value) throws IOException {
        Path secret = SECRETS.resolve(name + "-password");
        Files.writeString(secret, "pw-" + name + "\n");
        Path script = Files.createTempFile("qag-gitops-conn-", ".sql");
        Files.writeString(script, "CREATE TABLE t AS SELECT '" + value + "' AS v;\n");
        return "name: " + name + "\ndialect: duckdb\nurl: ':memory:'\npassword: '${file:" + secret + "}'\n"
                + "pool_size: 2\nproperties:\n  duckdb.init_script: " + script + "\n  duckdb.read_only: 'false'\n";
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private record Run(int exit, String output) {}

    /**
     * The command line against a store, with its own demo connection (queries are checked on it), run in this JVM as
     * {@code java -jar queryapigate.jar config ...} runs it (a process per call cost 20 s each on a busy machine).
     */
    private static Run cli(String storeYaml, String... args) throws Exception {
        Path config = CLI_CONFIGS.computeIfAbsent(storeYaml, store -> TestingConfig.write(
                TestingConfig.demoConnection(), store + SECRETS_YAML));
        List<String> command = new ArrayList<>(List.of("config"));
        command.addAll(List.of(args));
        command.add(config.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        Bootstrap<GatewayConfiguration> bootstrap = new Bootstrap<>(new GatewayApplication());
        bootstrap.addCommand(new ConfigCommand(print));
        Optional<Throwable> failed = new Cli(new JarLocation(GatewayApplication.class), bootstrap, print, print)
                .run(command.toArray(String[]::new));
        return new Run(failed.isPresent() ? 1 : 0, out.toString(StandardCharsets.UTF_8));
    }

    private static String serverStore() {
        return "store:\n  url: jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db") + "\n";
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), Files.readString(f));
            }
        }
        return out;
    }

    @Test
    void exportEditDiffApplyAndTheCallsSeeIt() throws Exception {
        http().saveQuery(ADMIN, "film", "SELECT film_id, title\nFROM film\nWHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1)), true, "One film", Map.of());
        String secret = http().key("partner", Map.of("queries", List.of("film")));
        assertThat(http().sql(secret, "demo", "SELECT 1").status()).as("no ad-hoc SQL yet").isEqualTo(403);

        Path dir = Files.createTempDirectory("qag-gitops-");
        Run export = cli(serverStore(), "export", dir.toString());
        assertThat(export.exit()).as(export.output()).isZero();
        Path film = dir.resolve("queries/film.yaml");
        Path partner = dir.resolve("api_keys/partner.yaml");
        assertThat(Files.readString(partner)).contains("secret_sha256: " + KeyHasher.hashHex(secret))
                .doesNotContain(secret);

        Files.writeString(film, Files.readString(film).replace("SELECT film_id, title",
                "SELECT film_id, title, rental_rate"));
        Files.writeString(partner, Files.readString(partner).replace("connections: []", "connections:\n- demo")
                + "adhoc_sql: true\n");

        Run diff = cli(serverStore(), "diff", dir.toString());
        assertThat(diff.exit()).as(diff.output()).isZero();
        assertThat(diff.output()).contains("""
                ~ queries[film]  queries/film.yaml
                    (a new version, published)
                    sql:
                      @@ -1,3 +1,3 @@
                      -SELECT film_id, title
                      +SELECT film_id, title, rental_rate
                       FROM film
                       WHERE film_id = :film_id
                ~ api_keys[partner]  api_keys/partner.yaml
                    connections: [] -> ["demo"]
                    adhoc_sql: (none) -> true
                """).contains("0 to create, 2 to change, 0 to delete, 0 unchanged.");

        Map<String, String> edited = new TreeMap<>();
        files(dir).forEach((path, text) -> edited.put(path.replace('\\', '/'), text));
        JsonNode plan = http().post("/api/v1/config/diff", ADMIN, Http.json(Map.of("files", edited))).json();
        assertThat(plan.get("changes")).hasSize(2);
        List<String> changed = new ArrayList<>();
        plan.get("changes").forEach(c -> c.get("fields").fieldNames().forEachRemaining(f ->
                changed.add(c.get("name").asText() + "." + f)));
        assertThat(changed).containsExactly("film.sql", "partner.connections", "partner.adhoc_sql");

        Run apply = cli(serverStore(), "apply", dir.toString());
        assertThat(apply.exit()).as(apply.output()).isZero();
        assertThat(apply.output()).contains("Applied: the store matches");

        Reply call = http().get("/q/film?film_id=1", secret);
        assertThat(call.status()).as(call.body()).isEqualTo(200);
        assertThat(call.json().get(0).has("rental_rate")).as("the new SQL").isTrue();
        assertThat(http().sql(secret, "demo", "SELECT 1 AS one").status()).as("the new grants").isEqualTo(200);
        JsonNode detail = http().get("/api/v1/queries/film", ADMIN).json();
        assertThat(detail.get("versions")).as("a new version, never an edited one").hasSize(2);
        assertThat(detail.get("published_version").asInt()).isEqualTo(2);
        assertThat(detail.get("versions").get(0).get("sql").asText()).isEqualTo(
                "SELECT film_id, title\nFROM film\nWHERE film_id = :film_id");

        Run again = cli(serverStore(), "diff", dir.toString());
        assertThat(again.output()).as(again.output()).contains("No changes: the server matches the directory.");

        // a connection and a query on it in one apply: the server puts it into service when it sees the store move
        Files.createDirectories(dir.resolve("connections"));
        Files.writeString(dir.resolve("connections/gitops-sales.yaml"), connection("gitops-sales", "from git"));
        Files.writeString(dir.resolve("queries/gitops-sales-v.yaml"),
                "name: gitops-sales-v\nconnection_name: gitops-sales\nsql: SELECT v FROM t\n");
        Run added = cli(serverStore(), "apply", dir.toString());
        assertThat(added.exit()).as(added.output()).isZero();
        assertThat(added.output()).contains("+ connections[gitops-sales]  connections/gitops-sales.yaml")
                .contains("+ queries[gitops-sales-v]");
        Reply sales = http().get("/q/gitops-sales-v", ADMIN);
        for (long deadline = System.nanoTime() + 10_000_000_000L; sales.status() != 200
                && System.nanoTime() < deadline; sales = http().get("/q/gitops-sales-v", ADMIN)) {
            Thread.sleep(100);
        }
        assertThat(sales.status()).as(sales.body()).isEqualTo(200);
        assertThat(sales.json().get(0).get("v").asText()).isEqualTo("from git");
        assertThat(http().get("/api/v1/connections/gitops-sales", ADMIN).json().get("managed_by").asText())
                .isEqualTo("file:connections/gitops-sales.yaml");
    }

    @Test
    void exportApplyOnAnEmptyStoreAndExportAgainGiveTheSameFiles() throws Exception {
        http().saveQuery(ADMIN, "rich query", "SELECT film_id, title FROM film WHERE rating = :rating"
                + " AND length >= :min_length", Map.of("rating", Map.of("type", "str", "enum", List.of("G", "PG")),
                "min_length", Map.of("type", "int", "default", 60, "min", 1)), true, "Films by rating",
                Map.of("tags", List.of("films", "ratings"), "collection", "catalog", "cache_ttl", 30,
                        "columns", Map.of("title", "The film's title"), "mcp", false));
        http().saveQuery(ADMIN, "draft only", "SELECT 1 AS one", Map.of(), false, null, Map.of());
        http().key("rich key", Map.ofEntries(Map.entry("connections", "*"),
                Map.entry("queries", List.of("rich query")), Map.entry("adhoc_sql", true),
                Map.entry("allowed_tables", List.of("film")),
                Map.entry("allowed_ips", List.of("10.0.0.0/8", "127.0.0.1")),
                Map.entry("mask", List.of(Map.of("column", "film.title", "action", "last", "keep", 3))),
                Map.entry("rate_limit", "100/minute"), Map.entry("quota", Map.of("calls", 1000, "per", "day")),
                Map.entry("max_rows", 500), Map.entry("max_concurrent", 4), Map.entry("query_timeout", 2.5),
                Map.entry("expires_at", "2099-12-31")));
        http().key("revoked key", Map.of("queries", List.of("rich query")));
        Map<String, Object> sales = new java.util.LinkedHashMap<>(new com.fasterxml.jackson.databind.ObjectMapper()
                .readValue(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(connection("rt-sales",
                        "round trip")).toString(), Map.class));
        sales.put("description", "Sales, by reference");
        Reply created = http().post("/api/v1/connections", ADMIN, Http.json(sales));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Reply onSales = http().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "rt sales",
                "sql", "SELECT v FROM t", "connection_name", "rt-sales", "publish", true)));
        assertThat(onSales.status()).as(onSales.body()).isEqualTo(201);
        assertThat(http().patch("/api/v1/api-keys/revoked%20key", ADMIN, "{\"active\": false}").status())
                .isEqualTo(200);

        assertThat(http().patch("/api/v1/connections/demo/descriptions", ADMIN, "{\"items\": ["
                + "{\"table\": \"film\", \"description\": \"Every film\"},"
                + "{\"table\": \"film\", \"column\": \"rating\", \"description\": \"MPAA rating\"},"
                + "{\"table\": null, \"description\": \"The demo's notes\"}]}").status()).isEqualTo(200);

        Path first = Files.createTempDirectory("qag-export-");
        Run export = cli(serverStore(), "export", first.toString());
        assertThat(export.exit()).as(export.output()).isZero();
        assertThat(export.output()).contains("Left out saved query draft only: it has no published version");
        Map<String, String> exported = files(first);
        assertThat(exported).containsKeys("queries/rich query.yaml", "api_keys/rich key.yaml",
                "api_keys/revoked key.yaml", "descriptions/demo.yaml").doesNotContainKey("queries/draft only.yaml");
        assertThat(exported.get("api_keys/revoked key.yaml")).contains("active: false");
        assertThat(exported.get("connections/rt-sales.yaml")).as("a reference, as written")
                .contains("password: \"${file:" + SECRETS.resolve("rt-sales-password") + "}\"")
                .contains("description: \"Sales, by reference\"").contains("pool_size: 2");

        String postgres = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
                + PG.password() + "\n";
        Path sqliteHome = Files.createTempDirectory("qag-empty-store-");
        String sqlite = "store:\n  url: jdbc:sqlite:" + sqliteHome.resolve("store.db") + "\n";
        for (String store : List.of(postgres, sqlite)) {
            Run apply = cli(store, "apply", first.toString());
            assertThat(apply.exit()).as(apply.output()).isZero();
            Path second = Files.createTempDirectory("qag-export-again-");
            Run again = cli(store, "export", second.toString());
            assertThat(again.exit()).as(again.output()).isZero();
            assertThat(files(second)).as(store).isEqualTo(exported);
        }
    }
}
