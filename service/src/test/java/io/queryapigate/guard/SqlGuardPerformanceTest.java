package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How long a check takes: a typical five-table join (printed, in microseconds per check), and pathological inputs
 * that must end with a verdict quickly rather than hang (bounded length, nesting, parse time).
 */
class SqlGuardPerformanceTest {
    private static final SqlGuard GUARD = new SqlGuard();

    static final String JOIN = "SELECT c.id, c.name, o.total, p.title, s.name AS shop, r.region_name "
            + "FROM customer c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.order_id = o.id "
            + "JOIN products p ON p.id = i.product_id JOIN shops s ON s.id = o.shop_id "
            + "LEFT JOIN regions r ON r.id = s.region_id WHERE c.created_at > ? AND o.status IN ('paid', 'shipped') "
            + "ORDER BY o.total DESC LIMIT 100";

    @Test
    void aTypicalFiveTableJoin() {
        Map<SqlDialectFamily, Double> medians = new LinkedHashMap<>();
        List<SqlDialectFamily> families = List.of(SqlDialectFamily.POSTGRES, SqlDialectFamily.MYSQL,
                SqlDialectFamily.DUCKDB);
        Map<SqlDialectFamily, GuardOptions> options = new LinkedHashMap<>();
        for (SqlDialectFamily d : families) {
            GuardOptions o = GuardOptions.readOnly(d).withDefaults(null, "shop").withAllowedTables(
                    List.of("customer", "orders", "order_items", "products", "shops", "regions"));
            assertThat(GUARD.check(JOIN, o).tablesRead()).hasSize(6);
            options.put(d, o);
        }
        for (int i = 0; i < 2000; i++) { // warm every path up before measuring any
            for (GuardOptions o : options.values()) {
                GUARD.check(JOIN, o);
            }
        }
        for (SqlDialectFamily d : families) {
            GuardOptions o = options.get(d);
            double[] rounds = new double[5];
            int perRound = 500;
            for (int k = 0; k < rounds.length; k++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < perRound; i++) {
                    GUARD.check(JOIN, o);
                }
                rounds[k] = (System.nanoTime() - t0) / 1000.0 / perRound;
            }
            Arrays.sort(rounds);
            medians.put(d, rounds[rounds.length / 2]);
        }
        StringBuilder sb = new StringBuilder("SqlGuard.check, five-table join, read-only with allowed tables:");
        medians.forEach((d, us) -> sb.append(String.format(Locale.ROOT, " %s %.0f us;", d, us)));
        System.out.println(sb);
        // generous: a loaded CI machine is slow, but a check must stay far below a database round trip's order
        medians.values().forEach(us -> assertThat(us).isLessThan(20_000.0));
    }

    @Test
    void pathologicalInputsEndQuickly() {
        List<String> inputs = new ArrayList<>();
        inputs.add("SELECT " + "(".repeat(100) + "1" + ")".repeat(100));
        inputs.add("SELECT " + "(".repeat(5000) + "1" + ")".repeat(5000));
        inputs.add("SELECT " + "(1+".repeat(60) + "1" + ")".repeat(60));
        inputs.add("SELECT * FROM " + "(SELECT * FROM ".repeat(45) + "t" + ") x".repeat(45));
        inputs.add("SELECT " + "abs(".repeat(90) + "1" + ")".repeat(90));
        inputs.add("SELECT " + "CASE WHEN a THEN ".repeat(40) + "1" + " END".repeat(40) + " FROM t");
        inputs.add("SELECT " + "ARRAY[".repeat(90) + "1" + "]".repeat(90));
        inputs.add("SELECT " + "-".repeat(5000) + "1");
        inputs.add("SELECT 1 WHERE " + "NOT ".repeat(10000) + "true");
        inputs.add("SELECT 1" + "::int".repeat(8000));
        inputs.add(repeatTo("SELECT 1", "+1"));
        inputs.add(repeatTo("SELECT * FROM t WHERE a IN (1", ",1") + ")");
        inputs.add(repeatTo("SELECT 1 FROM t0", " JOIN t1 ON t1.a = t0.a"));
        inputs.add(repeatTo("SELECT 1", " UNION SELECT 1"));
        inputs.add(repeatTo("SELECT a FROM t WHERE ", "a = 1 OR (b = 2 AND c = 3) OR ") + "1 = 1");
        inputs.add(repeatTo("WITH a0 AS (SELECT 1)", ", a AS (SELECT * FROM a0)") + " SELECT 1");
        inputs.add("SELECT '" + "x".repeat(65_000) + "'");
        inputs.add("SELECT 1 /*" + "/*".repeat(30_000) + "*/".repeat(2_000));
        inputs.add("SELECT " + "'a' || ".repeat(9000) + "'b'");
        inputs.add(";".repeat(60_000));
        inputs.add("SELECT \"" + "\"\"".repeat(30_000) + "\"");
        for (String sql : inputs) {
            long t0 = System.nanoTime();
            String verdict;
            try {
                verdict = GUARD.check(sql, GuardOptions.readOnly(SqlDialectFamily.POSTGRES)).kind().name();
            } catch (GuardException e) {
                verdict = e.code();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf(Locale.ROOT, "%6d chars -> %-20s in %5d ms: %s%n", sql.length(), verdict, ms,
                    sql.substring(0, Math.min(50, sql.length())));
            // two parse passes of at most the time limit each, plus lexing and the walk
            assertThat(ms).as(sql.substring(0, Math.min(80, sql.length()))).isLessThan(10_000);
        }
    }

    private static String repeatTo(String head, String unit) {
        StringBuilder sb = new StringBuilder(head);
        while (sb.length() + unit.length() < 64_000) {
            sb.append(unit);
        }
        return sb.toString();
    }
}
