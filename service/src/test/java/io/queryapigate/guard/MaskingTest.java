package io.queryapigate.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.auth.MaskRule;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.errors.ApiException;
import io.queryapigate.sql.SqlDialectFamily;
import java.sql.JDBCType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Masking's own part, after the guard traced the statement: the strictest rule per result column, the values each
 * action serves, and a result whose shape differs from the statement's items refused.
 */
class MaskingTest {
    private static final SqlGuard GUARD = new SqlGuard();
    private static final Masking MASKING = new Masking("unit-test-masking-key");
    private static final List<MaskRule> RULES = List.of(
            new MaskRule("people.ssn", "last", null, 4),
            new MaskRule("people.ssn", "fixed", "***", null),
            new MaskRule("people.email", "hash", null, null),
            new MaskRule("people.phone", "null", null, null));

    private static GuardResult traced(String sql) {
        GuardOptions o = GuardOptions.readOnly(SqlDialectFamily.DUCKDB).withDefaults("memory", "main");
        List<GuardMask> masks = new ArrayList<>();
        for (MaskRule r : RULES) {
            int dot = r.column().lastIndexOf('.');
            masks.add(new GuardMask(TableName.parse(r.column().substring(0, dot), SqlDialectFamily.DUCKDB,
                    "memory", "main"), r.column().substring(dot + 1), false));
        }
        return GUARD.check(sql, o.withMasks(masks));
    }

    /** The plan for a statement whose columns are all named on the masked table's real columns. */
    private static Masking.Plan plan(String sql) {
        GuardResult r = traced(sql);
        assertThat(r.masks().toVerify()).as("no database is asked in this test").isEmpty();
        return MASKING.plan(r, RULES, null);
    }

    private static List<List<Object>> run(Masking.Plan plan, List<String> columns, Object[]... rows) {
        List<List<Object>> out = new ArrayList<>();
        RowSink sink = MASKING.apply(plan, new RowSink() {
            @Override
            public void columns(List<ColumnInfo> c) {
            }

            @Override
            public boolean row(Object[] values) {
                out.add(Arrays.asList(values.clone()));
                return true;
            }
        });
        sink.columns(columns.stream().map(n -> new ColumnInfo(n, "VARCHAR", JDBCType.VARCHAR)).toList());
        for (Object[] row : rows) {
            sink.row(row);
        }
        return out;
    }

    @Test
    void theStrictestRuleOfAColumnWins() {
        Masking.Plan p = plan("SELECT ssn, email, phone, name FROM people");
        assertThat(p.actions().get(0).kind()).isEqualTo("fixed");
        assertThat(p.actions().get(1).kind()).isEqualTo("hash");
        assertThat(p.actions().get(2).kind()).isEqualTo("null");
        assertThat(p.actions()).doesNotContainKey(3);
        assertThat(p.columns()).isEqualTo(4);
    }

    @Test
    void eachActionServesItsValue() {
        Masking.Plan p = plan("SELECT ssn, email, phone, name FROM people");
        List<List<Object>> rows = run(p, List.of("ssn", "email", "phone", "name"),
                new Object[] {"123-45-6789", "ada@example.com", "555-0100", "Ada"},
                new Object[] {null, "ada@example.com", null, "Ada"});
        assertThat(rows.get(0).get(0)).isEqualTo("***");
        assertThat((String) rows.get(0).get(1)).hasSize(64).doesNotContain("ada").isEqualTo(rows.get(1).get(1));
        assertThat(rows.get(0).get(2)).isNull();
        assertThat(rows.get(0).get(3)).isEqualTo("Ada");
        assertThat(rows.get(1).get(0)).as("null stays null").isNull();
    }

    @Test
    void lastKeepsTheEnd() {
        Masking masking = new Masking("k");
        assertThat(masking.mask(new Masking.Action("last", null, 4), "123-45-6789")).isEqualTo("*******6789");
        assertThat(masking.mask(new Masking.Action("last", null, 40), "ab")).isEqualTo("ab");
        assertThat(new Masking(null).mask(new Masking.Action("hash", null, 0), "x")).as("no key, no hash").isNull();
    }

    @Test
    void aResultWithMoreColumnsThanItemsIsRefused() {
        Masking.Plan p = plan("SELECT ssn FROM people");
        ApiException e = catchThrowableOfType(ApiException.class, () -> run(p, List.of("a", "b")));
        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo("column_masked_unresolvable");
    }

    @Test
    void aStatementThatReadsNoMaskedTableHasNoPlan() {
        assertThat(MASKING.plan(traced("SELECT total FROM orders"), RULES, null)).isEqualTo(Masking.Plan.NONE);
        assertThat(Masking.Plan.NONE.isEmpty()).isTrue();
    }
}
