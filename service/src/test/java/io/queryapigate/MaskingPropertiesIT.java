package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Leaks;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A property of masking, on embedded DuckDB through the whole service: for random compositions of the constructs
 * that once leaked (scalar subqueries, whole-row references, alias column lists, LATERAL, UNNEST, VALUES,
 * COLUMNS(), lambdas, method calls, case and quoting variants, select-list aliases, casts, string functions,
 * literals with backslashes) over a masked column, every value served is the mask, never a raw value; a query the
 * masking cannot trace is refused, and its error shows no value either.
 */
class MaskingPropertiesIT {
    static final List<String> RAW = List.of("123-45-6789", "987-65-4321");
    static final String MASK = "MASKED";
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static Http http;
    private static String key;
    private static final AtomicInteger SERVED = new AtomicInteger();
    private static final AtomicInteger REFUSED = new AtomicInteger();

    @BeforeContainer
    static void start() throws Exception {
        Path init;
        try {
            init = Files.createTempFile("qag-mask-props-", ".sql");
            Files.writeString(init, "CREATE TABLE people (id INTEGER, name VARCHAR, ssn VARCHAR);\n"
                    + "INSERT INTO people VALUES (1, 'Ada', '" + RAW.get(0) + "'), (2, 'Bob', '" + RAW.get(1) + "');\n"
                    + "CREATE TABLE orders (id INTEGER, pid INTEGER, total INTEGER);\n"
                    + "INSERT INTO orders VALUES (10, 1, 5), (11, 2, 7);\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        app = new DropwizardTestSupport<>(GatewayApplication.class, TestingConfig.write(
                "  duck:\n    dialect: duckdb\n    url: props.duckdb\n    poolSize: 2\n    properties:\n"
                        + "      duckdb.init_script: " + init + "\n", "").toString());
        app.before();
        http = new Http("http://127.0.0.1:" + app.getLocalPort());
        key = http.key("masked", Map.of("connections", List.of("duck"), "adhoc_sql", true,
                "mask", List.of(Map.of("column", "people.ssn", "action", "fixed", "value", MASK))));
    }

    @AfterContainer
    static void stop() {
        // the property must have exercised both outcomes, or it proved nothing
        assertThat(SERVED.get()).as("compositions served").isGreaterThan(20);
        assertThat(REFUSED.get()).as("compositions refused").isGreaterThan(20);
        app.after();
    }

    /** An expression over the masked column, {@code depth} constructs deep. */
    static String expr(Random r, int depth, String alias) {
        if (depth == 0) {
            String[] leaves = {"ssn", alias + ".ssn", "\"SSN\"", alias.toUpperCase() + ".SSN", alias + ".\"ssn\"",
                "#3", alias + "['ssn']"};
            return leaves[r.nextInt(leaves.length)];
        }
        String e = expr(r, depth - 1, alias);
        return switch (r.nextInt(22)) {
            case 0 -> "upper(" + e + ")";
            case 1 -> "lower(" + e + ")";
            case 2 -> "concat(" + e + ", 'x')";
            case 3 -> "(" + e + " || '')";
            case 4 -> "CAST(" + e + " AS VARCHAR)";
            case 5 -> "coalesce(" + e + ", 'z')";
            case 6 -> "CASE WHEN " + e + " IS NULL THEN 'a' ELSE " + e + " END";
            case 7 -> "(SELECT " + e + ")";
            case 8 -> "substr(" + e + ", 1)";
            case 9 -> "[" + e + "][1]";
            case 10 -> "list_transform([1], x -> " + e + ")";
            case 11 -> "reverse(" + e + ")";
            case 12 -> "replace(" + e + ", '-', '')";
            case 13 -> "(SELECT max(v) FROM (SELECT " + e + " AS v))";
            case 14 -> "(SELECT " + e + " FROM orders o WHERE o.pid = " + alias + ".id)";
            case 15 -> "to_json(" + alias + ")";
            case 16 -> alias;
            case 17 -> "struct_pack(" + alias + ".*)";
            case 18 -> "COLUMNS('ss.*')";
            case 19 -> e + ".upper()";
            case 20 -> "concat(E'\\\\', " + e + ")";
            default -> "trim(" + e + ")";
        };
    }

    /** A FROM clause that reads the masked table as {@code alias}, with the extra columns it defines. */
    static String[] from(Random r, String alias) {
        return switch (r.nextInt(8)) {
            case 0 -> new String[] {"people " + alias, null};
            case 1 -> new String[] {"people AS " + alias, null};
            case 2 -> new String[] {"\"PEOPLE\" " + alias, null};
            case 3 -> new String[] {"people " + alias + " JOIN orders o ON o.pid = " + alias + ".id", null};
            case 4 -> new String[] {"people " + alias + ", LATERAL (SELECT " + alias + ".ssn AS v) l", "l.v"};
            case 5 -> new String[] {"people " + alias + ", unnest([" + alias + ".ssn]) AS u(v)", "u.v"};
            case 6 -> new String[] {"people AS " + alias + "(a, b, s)", "s"};
            default -> new String[] {"people " + alias + " CROSS JOIN (VALUES (1)) w(one)", null};
        };
    }

    static String query(long seed) {
        Random r = new Random(seed);
        String alias = r.nextBoolean() ? "p" : "people";
        String[] from = from(r, alias);
        List<String> items = new ArrayList<>();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            String item = from[1] != null && r.nextInt(4) == 0 ? from[1] : expr(r, r.nextInt(4), alias);
            items.add(item + " AS c" + i);
        }
        if (r.nextInt(5) == 0) {
            items.add("c0 || '' AS again");
        }
        String where = switch (r.nextInt(4)) {
            case 0 -> " WHERE " + alias + ".id > 0";
            case 1 -> " WHERE ssn LIKE '%'";
            default -> "";
        };
        return "SELECT " + String.join(", ", items) + " FROM " + from[0] + where;
    }

    @Property(tries = 400)
    void servedValuesAreNeverTheRawOnes(@ForAll long seed) {
        String sql = query(seed);
        Reply reply = http.sql(key, "duck", sql);
        Leaks.assertNone(sql, reply.body(), RAW);
        if (reply.status() == 200) {
            SERVED.incrementAndGet();
            JsonNode rows = reply.json();
            assertThat(rows.isArray() || rows.path("message").asText().equals("No results returned"))
                    .as("%s: %s", sql, rows).isTrue();
            for (JsonNode row : rows.isArray() ? rows : java.util.List.<JsonNode>of()) {
                for (JsonNode cell : row) {
                    assertThat(cell.isNull() || cell.asText().equals(MASK)).as("%s: %s", sql, row).isTrue();
                }
            }
        } else {
            REFUSED.incrementAndGet();
            assertThat(reply.status()).as(sql + " -> " + reply.body()).isIn(400, 403, 500);
        }
    }

    @Example
    void tracedCompositionsAreServedMasked() {
        Reply r = http.sql(key, "duck", "SELECT upper(p.ssn) AS a, (SELECT \"SSN\") AS b, [ssn][1] AS c, name "
                + "FROM people p ORDER BY id");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode row = r.json().get(0);
        assertThat(row.get("a").asText()).isEqualTo(MASK);
        assertThat(row.get("b").asText()).isEqualTo(MASK);
        assertThat(row.get("c").asText()).isEqualTo(MASK);
        assertThat(row.get("name").asText()).isEqualTo("Ada");
    }
}
