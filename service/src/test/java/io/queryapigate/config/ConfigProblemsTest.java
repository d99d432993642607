package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile configuration files beyond wrong types ({@link ConfigKeysTest}): unknown keys (with the nearest known one),
 * missing required keys, bad URLs of every kind, bad durations and sizes, unknown dialects, connections named twice,
 * and a file with many problems, all reported at once. Each case marks the line its problem must be reported on
 * with {@code # <}; the outcomes are printed as a table.
 */
class ConfigProblemsTest {
    private static final String CONNECTION = "connections:\n  demo:\n    dialect: duckdb\n    url: demo.duckdb\n";
    private static final String SSO = "sso:\n  clientId: console\n  clientSecret: secret-0123456789\n"
            + "  roles: {admins: owner}\n";

    private static final TestingConfigFactory factory = new TestingConfigFactory();
    private static final String home = TestingConfigFactory.home();

    @BeforeAll
    static void aGoodFileHasNoProblems() {
        assertThat(factory.problems(home + CONNECTION)).isEmpty();
    }

    record Case(String name, String yaml, String key, String message) {}

    static List<Case> cases() {
        return List.of(
                new Case("unknown top-level key", CONNECTION + "limitz: {}  # <\n", "limitz",
                        "unknown key (did you mean limits?)"),
                new Case("misspelt key", CONNECTION + "limits:\n  queryTimeOut: 5s  # <\n", "limits.queryTimeOut",
                        "did you mean queryTimeout?"),
                new Case("misspelt connection key", CONNECTION + "    poolsize: 4  # <\n",
                        "connections.demo.poolsize", "did you mean poolSize?"),
                new Case("unknown key, nothing near", "cache:\n  colourScheme: blue  # <\n",
                        "cache.colourScheme", "unknown key (known here: "),
                new Case("missing url", "connections:\n  shop:  # <\n    dialect: postgres\n", "connections.shop.url",
                        "is missing"),
                new Case("missing dialect", "connections:\n  shop:  # <\n    url: jdbc:postgresql://db/shop\n",
                        "connections.shop.dialect", "is missing"),
                new Case("unknown dialect", "connections:\n  shop:\n    dialect: nosuchdb  # <\n    url: x\n",
                        "connections.shop.dialect", "no dialect named 'nosuchdb' is installed"),
                new Case("dialect name not lowercase", "connections:\n  shop:\n    dialect: Postgres  # <\n"
                        + "    url: jdbc:postgresql://db/shop\n", "connections.shop.dialect", "lowercase"),
                url("postgres url without jdbc:", "postgres", "postgresql://db/shop",
                        "must start with jdbc:postgresql:"),
                url("postgres url with a bad port", "postgres", "jdbc:postgresql://db:5432x/shop", "is not a number"),
                url("trino url without host", "trino", "jdbc:trino:///hive", "names no host"),
                url("mysql url of another scheme", "mysql", "jdbc:mariadb://db/shop", "must start with jdbc:mysql://"),
                url("trino url with a bad port", "trino", "jdbc:trino://trino:port/hive", "is not a number"),
                url("clickhouse url of another scheme", "clickhouse", "ftp://ch:8123", "must start with http://"),
                url("mongo url of another scheme", "mongo", "mongo://db/docs", "must start with mongodb://"),
                url("url with a control character", "postgres", "\"jdbc:postgresql://db/shop\\tx\"",
                        "control character"),
                new Case("pool size out of range", CONNECTION + "    poolSize: 0  # <\n", "connections.demo.poolSize",
                        "must be greater than or equal to 1"),
                new Case("connection named twice", CONNECTION + "  demo:  # <\n    dialect: sqlite\n    url: x.db\n",
                        "connections.demo", "is written twice in this block"),
                new Case("redis url of another scheme", "redis:\n  url: http://cache:6379  # <\n", "redis.url",
                        "expected redis://host:port"),
                new Case("redis url with a bad database", "redis:\n  url: redis://cache:6379/zero  # <\n",
                        "redis.url", "database number"),
                new Case("redis url that is no URL", "redis:\n  url: \"redis://ca che:6379\"  # <\n", "redis.url",
                        "is not a URL"),
                new Case("store url of another database", "store:\n  url: jdbc:mysql://db/qag  # <\n", "store.url",
                        "only jdbc:sqlite: and jdbc:postgresql:"),
                new Case("sso issuer that is no URL", SSO + "  issuer: \"not a url\"  # <\n", "sso.issuer",
                        "is not a URL"),
                new Case("sso issuer over http", SSO + "  issuer: http://idp.example.com/realms/x  # <\n", "sso.issuer",
                        "https://"),
                new Case("jwt keys over http", "jwt:\n  issuers:\n    - issuer: http://idp.example.com  # <\n"
                        + "      audiences: [gateway]\n", "jwt.issuers[0].issuer", "must be an https:// URL"),
                new Case("bad duration", "limits:\n  queryTimeout: 5 parsecs  # <\n", "limits.queryTimeout",
                        "expected a duration"),
                new Case("bad size", "limits:\n  maxSqlLength: lots  # <\n", "limits.maxSqlLength",
                        "expected a size"),
                new Case("bad rate", "limits:\n  perAddress: fast  # <\n", "limits.perAddress", ""),
                new Case("unknown connector type", "server:\n  applicationConnectors:\n    - type: htp  # <\n",
                        "server.applicationConnectors[0].type", "unknown type 'htp'"),
                new Case("a list where a block goes", "limits: [1, 2]  # <\n", "limits", "got a list"),
                new Case("not YAML", "limits:\n  queryTimeout: [5s  # <\n", "", "not valid YAML"),
                new Case("seed query parameters not a block", CONNECTION + "seedQueries:\n  - name: one\n"
                        + "    connection: demo\n    sql: SELECT 1\n    parameters: id  # <\n",
                        "seedQueries[0].parameters", "expected a block"));
    }

    /** A connection {@code shop} of {@code dialect} whose {@code url} must be refused saying {@code message}. */
    private static Case url(String name, String dialect, String url, String message) {
        return new Case(name, "connections:\n  shop:\n    dialect: " + dialect + "\n    url: " + url + "  # <\n",
                "connections.shop.url", message);
    }

    private static int markedLine(String yaml) {
        List<String> lines = yaml.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).endsWith("# <")) {
                return i + 1;
            }
        }
        throw new AssertionError("no line marked in " + yaml);
    }

    @Test
    void eachProblemIsReportedOnceNamingItsKeyAndLine() {
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder("\n| case | reported |\n|---|---|\n");
        for (Case c : cases()) {
            String yaml = home + c.yaml();
            List<ConfigProblem> found = factory.problems(yaml);
            table.append("| ").append(c.name()).append(" | ").append(found.stream().map(p -> p.describe("config.yml"))
                    .collect(Collectors.joining("<br>"))).append(" |\n");
            int line = markedLine(yaml);
            boolean ok = found.size() == 1 && found.get(0).key().equals(c.key()) && found.get(0).line() == line
                    && found.get(0).message().contains(c.message());
            if (!ok) {
                failures.add(c.name() + ": expected " + c.key() + " on line " + line + " (" + c.message() + "), got "
                        + found);
            }
        }
        System.out.println(table);
        System.out.println("hostile configuration cases: " + cases().size() + ", reported as expected: "
                + (cases().size() - failures.size()));
        assertThat(failures).as(String.join("\n", failures)).isEmpty();
    }

    @Test
    void theShippedConfigurationFilesHaveNoProblems() throws Exception {
        Path repo = TestingConfig.repo();
        List<Path> files;
        try (var listing = Files.list(repo.resolve("config"))) {
            files = listing.filter(f -> f.toString().endsWith(".yml")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        EnvironmentVariableSubstitutor variables = new EnvironmentVariableSubstitutor(false);
        for (Path file : files) {
            assertThat(factory.problems(variables.replace(Files.readString(file)))).as(file.toString()).isEmpty();
        }
    }

    @Test
    void aFileWithManyProblemsHasThemAllReportedInLineOrder() {
        String yaml = home
                + "connections:\n"
                + "  shop:\n"
                + "    dialect: nosuchdb\n"
                + "    url: x\n"
                + "    poolSize: eight\n"
                + "  sales:\n"
                + "    dialect: postgres\n"
                + "    url: postgres://db/sales\n"
                + "limits:\n"
                + "  queryTimeOut: 5s\n"
                + "  maxRows: many\n"
                + "  maxSqlLength: lots\n"
                + "redis:\n"
                + "  url: http://cache\n"
                + "store:\n"
                + "  url: jdbc:h2:mem:x\n"
                + "cache:\n"
                + "  enabled: sometimes\n";
        List<ConfigProblem> found = factory.problems(yaml);
        assertThat(found).extracting(p -> p.line() + " " + p.key()).containsExactly(
                "4 connections.shop.dialect",
                "6 connections.shop.poolSize",
                "9 connections.sales.url",
                "11 limits.queryTimeOut",
                "12 limits.maxRows",
                "13 limits.maxSqlLength",
                "15 redis.url",
                "17 store.url",
                "19 cache.enabled");
        String message = new ConfigProblemsException("config.yml", found).getMessage();
        assertThat(message).startsWith("config.yml has 9 problems:")
                .contains("config.yml:6: connections.shop.poolSize: 'eight': expected a whole number")
                .contains("config.yml:11: limits.queryTimeOut: unknown key (did you mean queryTimeout?)");
    }
}
