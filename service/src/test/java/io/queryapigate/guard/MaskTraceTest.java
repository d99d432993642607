package io.queryapigate.guard;

import io.queryapigate.sql.SqlLexer;
import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Masked columns traced through the guard's own parse: each construct that once returned raw values (scalar
 * subqueries, whole-row references, alias column lists, LATERAL/UNNEST/VALUES, COLUMNS(), lambdas, method calls,
 * case and quoting variants, select-list aliases, lexical tricks) is either masked or refused. The rows themselves
 * are checked against real databases in {@code MaskingAttackIT} and {@code MaskingPropertiesIT}.
 *
 * <p>Each case: dialect, the mask ({@code people.ssn}, or {@code strict} for a strict one), the SQL, and the
 * expectation: the masked result columns ({@code 1} or {@code 0 2}, {@code -} for none) or a refusal code.
 */
class MaskTraceTest {
    private static final SqlGuard GUARD = new SqlGuard();

    private static GuardOptions options(String dialect, String mask) {
        SqlDialectFamily family = switch (dialect) {
            case "pg" -> SqlDialectFamily.POSTGRES;
            case "duckdb" -> SqlDialectFamily.DUCKDB;
            case "mysql" -> SqlDialectFamily.MYSQL;
            case "clickhouse" -> SqlDialectFamily.CLICKHOUSE;
            case "trino" -> SqlDialectFamily.TRINO;
            default -> throw new IllegalArgumentException(dialect);
        };
        GuardOptions o = GuardOptions.readOnly(family);
        o = switch (family) {
            case POSTGRES -> o.withDefaults("shopdb", "public");
            case DUCKDB -> o.withDefaults("memory", "main");
            case MYSQL -> o.withDefaults(null, "shop");
            case CLICKHOUSE -> o.withDefaults(null, "default");
            default -> o.withDefaults("hive", "web");
        };
        TableName people = TableName.parse("people", family, o.defaultCatalog(), o.defaultSchema());
        return o.withMasks(List.of(new GuardMask(people, "ssn", mask.equals("strict"))));
    }

    @ParameterizedTest(name = "[{index}] {0} {1}: {2} -> {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            pg         | mask   | SELECT name, ssn FROM people                                        | 1
            pg         | mask   | SELECT name, upper(ssn) AS s FROM people                            | 1
            pg         | mask   | SELECT p.name, p.ssn FROM people p                                  | 1
            pg         | mask   | SELECT "SSN" FROM people                                            | 0
            pg         | mask   | SELECT SSN FROM PEOPLE                                              | 0
            pg         | mask   | SELECT ssn FROM "PEOPLE"                                            | 0
            pg         | mask   | SELECT ssn FROM public.people                                       | 0
            pg         | mask   | SELECT people.ssn FROM public.people                                | 0
            pg         | mask   | SELECT public.people.ssn FROM public.people                         | 0
            pg         | mask   | SELECT id, name FROM people                                         | -
            pg         | mask   | SELECT o.total, p.name FROM orders o JOIN people p ON p.id = o.pid  | -
            pg         | mask   | SELECT (SELECT p.ssn) FROM people p                                 | 0
            pg         | mask   | SELECT (SELECT max(x.ssn) FROM orders x), name FROM people          | 0
            pg         | mask   | SELECT CASE WHEN ssn LIKE '1%' THEN 'a' ELSE 'b' END FROM people    | 0
            pg         | mask   | SELECT count(*) FILTER (WHERE ssn > '5'), name FROM people          | 0
            pg         | mask   | SELECT count(*), name FROM people                                   | -
            duckdb     | mask   | SELECT struct_pack(*) FROM people                                   | column_masked_unresolvable
            pg         | mask   | SELECT row_number() OVER (ORDER BY ssn) FROM people                 | 0
            pg         | mask   | SELECT ssn::int, name FROM people                                   | 0
            pg         | mask   | SELECT E'\\'' AS x, ssn FROM people                                 | 1
            pg         | mask   | SELECT 'a\\' AS x, ssn FROM people                                  | sql_not_parseable
            pg         | mask   | SELECT (SELECT ssn FROM people LIMIT 1) FROM orders                 | column_masked_unresolvable
            pg         | mask   | SELECT name FROM people WHERE id IN (SELECT id FROM people)         | column_masked_unresolvable
            pg         | mask   | SELECT p FROM people p                                              | column_masked_unresolvable
            pg         | mask   | SELECT people FROM people                                           | column_masked_unresolvable
            pg         | mask   | SELECT row_to_json(p) FROM people p                                 | column_masked_unresolvable
            pg         | mask   | SELECT to_jsonb(p) ->> 'ssn' FROM people p                          | column_masked_unresolvable
            pg         | mask   | SELECT p::text FROM people p                                        | column_masked_unresolvable
            pg         | mask   | SELECT CAST(p AS text) FROM people p                                | column_masked_unresolvable
            pg         | mask   | SELECT s FROM people AS p(a, b, s)                                  | column_masked_unresolvable
            pg         | mask   | SELECT x.v FROM people p, LATERAL (SELECT p.ssn AS v) x             | column_masked_unresolvable
            pg         | mask   | SELECT u FROM people p, unnest(ARRAY[p.ssn]) AS u                   | column_masked_unresolvable
            pg         | mask   | SELECT v.x FROM people p CROSS JOIN LATERAL (VALUES (p.ssn)) v(x)   | column_masked_unresolvable
            pg         | mask   | SELECT * FROM people                                                | column_masked_unresolvable
            pg         | mask   | SELECT people.* FROM people                                         | column_masked_unresolvable
            pg         | mask   | SELECT name, (p.*)::text FROM people p                              | column_masked_unresolvable
            pg         | mask   | WITH x AS (SELECT ssn FROM people) SELECT ssn FROM x                | column_masked_unresolvable
            pg         | mask   | SELECT ssn FROM people UNION ALL SELECT 'a'                         | column_masked_unresolvable
            pg         | mask   | SELECT name FROM (SELECT name, ssn FROM people) t                   | column_masked_unresolvable
            pg         | mask   | SELECT name FROM people WHERE ssn LIKE '1%'                         | -
            pg         | mask   | SELECT (p).ssn FROM people p                                        | X
            pg         | mask   | TABLE people                                                        | X
            pg         | mask   | SELECT regexp_split_to_table(ssn, '-') FROM people                  | 0
            pg         | mask   | SELECT jsonb_build_object('a', ssn) FROM people                     | 0
            pg         | mask   | SELECT name FROM people GROUP BY name HAVING max(ssn) > '5'         | -
            pg         | mask   | SELECT t.x FROM (SELECT ssn AS x FROM people) t                     | column_masked_unresolvable
            pg         | mask   | SELECT ssn COLLATE "C" FROM people                                  | 0
            duckdb     | mask   | FROM people SELECT ssn                                              | X
            duckdb     | mask   | SELECT #3 FROM people                                               | column_masked_unresolvable
            duckdb     | strict | SELECT name FROM people ORDER BY #3                                 | column_masked_in_predicate
            pg         | mask   | SELECT name FROM people ORDER BY ssn                                | -
            pg         | strict | SELECT name FROM people WHERE ssn LIKE '1%'                         | column_masked_in_predicate
            pg         | strict | SELECT name FROM people p JOIN orders o ON o.x = p.ssn              | column_masked_in_predicate
            pg         | strict | SELECT name FROM people GROUP BY ssn, name                          | column_masked_in_predicate
            pg         | strict | SELECT name FROM people ORDER BY ssn                                | column_masked_in_predicate
            pg         | strict | SELECT ssn AS s, name FROM people ORDER BY s                        | column_masked_in_predicate
            pg         | strict | SELECT ssn, name FROM people ORDER BY 1                             | column_masked_in_predicate
            pg         | strict | SELECT name FROM people p WHERE row_to_json(p)::text LIKE '%1%'     | column_masked_in_predicate
            pg         | strict | SELECT ssn, name FROM people ORDER BY 2                             | 0
            pg         | strict | SELECT name, ssn FROM people WHERE name = 'x'                       | 1
            pg         | mask   | SELECT name FROM people WHERE ts_rewrite('a'::tsquery, 'SELECT 1') IS NULL | read_only
            pg         | mask   | SELECT * FROM pg_stats                                              | table_not_allowed
            pg         | mask   | SELECT most_common_vals FROM pg_catalog.pg_stats                    | table_not_allowed
            pg         | mask   | SELECT column_name FROM information_schema.columns                  | table_not_allowed
            duckdb     | mask   | SELECT people FROM people                                           | column_masked_unresolvable
            duckdb     | mask   | SELECT ssn FROM "PEOPLE"                                            | 0
            duckdb     | mask   | ~SELECT ssn AS s, s || 'x' AS t, name FROM people~                  | 0 1
            duckdb     | mask   | SELECT p.ssn.upper() FROM people p                                  | function_not_allowed
            duckdb     | mask   | SELECT ssn.upper() FROM people                                      | function_not_allowed
            duckdb     | mask   | SELECT * EXCLUDE (id) FROM people                                   | column_masked_unresolvable
            duckdb     | mask   | SELECT list_transform([1], x -> ssn) FROM people                    | 0
            duckdb     | mask   | SELECT * FROM duckdb_columns()                                      | function_not_allowed
            clickhouse | mask   | SELECT arrayMap(z -> ssn, [1]) FROM people                          | column_masked_unresolvable
            clickhouse | mask   | SELECT arrayMap(ssn -> 1, [1]), name FROM people                    | 0
            clickhouse | mask   | SELECT arrayMap(z -> z, [ssn]), name FROM people                    | 0
            clickhouse | mask   | SELECT s FROM people ARRAY JOIN ssn AS s                            | column_masked_unresolvable
            clickhouse | mask   | SELECT ssn AS x, x FROM people                                      | 0 1
            clickhouse | mask   | SELECT x, ssn AS x2, x2 AS x FROM people                            | 0 1 2
            clickhouse | mask   | SELECT name FROM people /* /* */ UNION ALL SELECT ssn FROM people -- */ | sql_not_parseable
            clickhouse | mask   | SELECT name FROM system.parts                                       | table_not_allowed
            clickhouse | mask   | SELECT `ssn` FROM people                                            | 0
            mysql      | mask   | SELECT `SSN` FROM people                                            | 0
            mysql      | mask   | SELECT 'a\\'' AS x, ssn FROM people                                 | 1
            mysql      | mask   | SELECT min_value FROM mysql.column_stats                            | table_not_allowed
            mysql      | mask   | SELECT name FROM information_schema.COLUMNS                         | table_not_allowed
            trino      | mask   | SELECT ssn FROM "People"                                            | 0
            trino      | mask   | SELECT name FROM system.runtime.queries                             | table_not_allowed
            """)
    void traced(String dialect, String mask, String sql, String expected) {
        GuardOptions o = options(dialect, mask);
        if (expected.equals("X")) {
            try {
                GuardResult r = GUARD.check(sql, o);
                fail("expected %s to be refused, got masks %s", sql, r.masks());
            } catch (GuardException e) {
                System.out.println("refused " + sql + ": " + e.code());
            }
            return;
        }
        if (expected.matches("[-0-9 ]+")) {
            GuardResult r;
            try {
                r = GUARD.check(sql, o);
            } catch (GuardException e) {
                fail("expected %s to be admitted, got %s: %s", sql, e.code(), e.getMessage());
                return;
            }
            List<Integer> masked = new ArrayList<>();
            if (r.masks() != null) {
                for (int i = 0; i < r.masks().masksByColumn().size(); i++) {
                    if (!r.masks().masksByColumn().get(i).isEmpty()) {
                        masked.add(i);
                    }
                }
            }
            List<Integer> want = new ArrayList<>();
            if (!expected.equals("-")) {
                for (String w : expected.split(" ")) {
                    want.add(Integer.parseInt(w));
                }
            }
            assertThat(masked).as(sql).isEqualTo(want);
        } else {
            try {
                GuardResult r = GUARD.check(sql, o);
                fail("expected %s to be refused with %s, got masks %s", sql, expected, r.masks());
            } catch (GuardException e) {
                assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(expected);
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT p.name, p.ssn FROM people p          | name
            SELECT p.row_to_json FROM people p          | row_to_json
            SELECT people.to_jsonb FROM people          | to_jsonb
            """)
    void columnsNamedOnAMaskedTableAreLeftForTheDatabaseToConfirm(String sql, String column) {
        GuardResult r = GUARD.check(sql, options("pg", "mask"));
        assertThat(r.masks().toVerify()).containsExactly(
                new MaskPlan.ColumnRef(new TableName(null, "public", "people"), column));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT name, ssn FROM orders
            SELECT 1
            """)
    void aStatementThatReadsNoMaskedTableHasNoPlan(String sql) {
        assertThat(GUARD.check(sql, options("pg", "mask")).masks()).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT "a""b", ssn FROM people
            SELECT x."ssn" FROM people x
            """)
    void quotedNamesAreCountedAsTheLexerReadsThem(String sql) {
        GuardResult r = GUARD.check(sql, options("pg", "mask"));
        assertThat(r.masks().masksByColumn()).anyMatch(s -> !s.isEmpty());
        assertThat(MaskTrace.tokens(SqlLexer.scan(sql, io.queryapigate.dialect.spi.LexicalRules.POSTGRES, true)))
                .containsAnyElementsOf(Set.of("\"a\"\"b\"", "\"ssn\""));
    }
}
