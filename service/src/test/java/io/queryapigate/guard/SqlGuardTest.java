package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The guard's API: what a result says, how refusals look, options, thread safety, limits. */
class SqlGuardTest {
    private static final SqlGuard GUARD = new SqlGuard();

    private static GuardException refusal(String sql, GuardOptions o) {
        try {
            GuardResult r = GUARD.check(sql, o);
            throw new AssertionError("expected a refusal, got " + r);
        } catch (GuardException e) {
            return e;
        }
    }

    @Test
    void aReadSaysWhatItReads() {
        GuardResult r = GUARD.check("WITH recent AS (SELECT * FROM orders WHERE ts > ?) "
                + "SELECT c.name, (SELECT count(*) FROM billing.invoice i WHERE i.cid = c.id) "
                + "FROM customer c JOIN recent r ON r.cid = c.id, generate_series(1, 3) g "
                + "WHERE c.id IN (SELECT cid FROM vip) AND upper(c.name) LIKE 'A%'",
                GuardOptions.readOnly(SqlDialectFamily.POSTGRES).withDefaults("shop", "public"));
        assertThat(r.kind()).isEqualTo(StatementKind.READ);
        assertThat(r.isRead()).isTrue();
        assertThat(r.parsed()).isTrue();
        assertThat(r.writeOps()).isEmpty();
        assertThat(r.tablesRead()).containsExactlyInAnyOrder(new TableName(null, "public", "orders"),
                new TableName(null, "billing", "invoice"), new TableName(null, "public", "customer"),
                new TableName(null, "public", "vip"));
        assertThat(r.tablesWritten()).isEmpty();
        assertThat(r.tableFunctions()).containsExactly("generate_series");
        assertThat(r.usesTableFunctions()).isTrue();
        assertThat(r.functions()).contains("count", "upper", "generate_series");
        assertThat(r.lockingRead()).isFalse();
        assertThat(r.tables()).hasSize(4);
    }

    @Test
    void aWriteSaysWhatItWritesAndReads() {
        GuardResult r = GUARD.check("WITH gone AS (DELETE FROM cart WHERE ts < now() RETURNING id) "
                + "INSERT INTO archive.cart_log SELECT id FROM gone",
                GuardOptions.writer(SqlDialectFamily.POSTGRES).withDefaults(null, "public"));
        assertThat(r.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(r.writeOps()).containsExactly("delete", "insert");
        assertThat(r.tablesWritten()).containsExactlyInAnyOrder(new TableName(null, "public", "cart"),
                new TableName(null, "archive", "cart_log"));
        assertThat(r.tablesRead()).isEmpty();
    }

    @Test
    void aWriterMayTakeLocksAndCallProcedures() {
        GuardOptions w = GuardOptions.writer(SqlDialectFamily.POSTGRES);
        assertThat(GUARD.check("SELECT * FROM t FOR UPDATE", w).lockingRead()).isTrue();
        GuardResult call = GUARD.check("CALL refresh_totals(1)", w);
        assertThat(call.kind()).isEqualTo(StatementKind.SESSION);
        assertThat(call.writeOps()).containsExactly("call");
    }

    @Test
    void anUnrestrictedWriterMayRunWhatTheParserCannotRead() {
        GuardResult r = GUARD.check("VACUUM (VERBOSE) t", GuardOptions.writer(SqlDialectFamily.POSTGRES));
        assertThat(r.parsed()).isFalse();
        assertThat(r.kind()).isEqualTo(StatementKind.DDL);
        assertThat(r.writeOps()).containsExactly("vacuum");
        assertThat(r.tables()).isEmpty();
    }

    @Test
    void refusalsCarryStatusCodeAndAReason() {
        GuardOptions ro = GuardOptions.readOnly(SqlDialectFamily.POSTGRES);
        GuardException multi = refusal("SELECT 1; SELECT 2", ro);
        assertThat(multi.status()).isEqualTo(400);
        assertThat(multi.code()).isEqualTo("multiple_statements");

        GuardException parse = refusal("SELECT * FROM WHERE x", ro);
        assertThat(parse.status()).isEqualTo(400);
        assertThat(parse.code()).isEqualTo("sql_not_parseable");
        assertThat(parse.getMessage()).contains("Encountered \"FROM\"").contains("line 1, column 10");

        // the parser's stand-ins for literals and quoted names do not show in messages
        assertThat(refusal("SELECT * FROM t WHERE j ?? 'key'", ro).getMessage())
                .contains("Encountered a string literal").doesNotContain("'   '");
        assertThat(refusal("SELECT * FROM t \"a.b\" \"c.d\" x", ro).getMessage())
                .contains("Encountered a quoted name").doesNotContain("~");

        GuardException parseLater = refusal("SELECT a,\n  b\nFROM WHERE", ro);
        assertThat(parseLater.getMessage()).contains("Encountered \"FROM\"").contains("line 3, column 1");

        GuardException write = refusal("DELETE FROM t", ro);
        assertThat(write.status()).isEqualTo(403);
        assertThat(write.code()).isEqualTo("read_only");
        assertThat(write.getMessage()).contains("DELETE");

        GuardException table = refusal("SELECT * FROM billing.customer",
                ro.withDefaults(null, "public").withAllowedTables(List.of("customer")));
        assertThat(table.status()).isEqualTo(403);
        assertThat(table.code()).isEqualTo("table_not_allowed");
        assertThat(table.getMessage()).contains("billing.customer");

        GuardException op = refusal("DELETE FROM t", GuardOptions.writer(SqlDialectFamily.POSTGRES)
                .withAllowedWriteOps(List.of("insert", "UPDATE")));
        assertThat(op.status()).isEqualTo(403);
        assertThat(op.code()).isEqualTo("write_op_not_allowed");
        assertThat(op.getMessage()).contains("DELETE").contains("insert, update");

        GuardException tooLong = refusal("SELECT '" + "x".repeat(SqlGuard.DEFAULT_MAX_LENGTH) + "'", ro);
        assertThat(tooLong.status()).isEqualTo(413);
        assertThat(tooLong.code()).isEqualTo("sql_too_long");

        assertThat(refusal("", ro).code()).isEqualTo("sql_not_parseable");
        assertThat(refusal(null, ro).code()).isEqualTo("sql_not_parseable");
        assertThat(refusal("SELECT 1\u0000", ro).code()).isEqualTo("sql_not_parseable");
    }

    @Test
    void optionsAreImmutableAndResolveGrantsOnce() {
        GuardOptions base = GuardOptions.readOnly(SqlDialectFamily.TRINO);
        GuardOptions withTables = base.withDefaults("hive", "web").withAllowedTables(List.of("clicks",
                "iceberg.sales.orders"));
        assertThat(base.allowedTables()).isNull();
        assertThat(base.restricted()).isFalse();
        assertThat(withTables.restricted()).isTrue();
        assertThat(withTables.resolvedAllowedTables()).containsExactly(new TableName("hive", "web", "clicks"),
                new TableName("iceberg", "sales", "orders"));
        assertThat(withTables.withAllowedTables(null).allowedTables()).isNull();
        assertThat(GuardOptions.writer(SqlDialectFamily.MYSQL).withAllowedWriteOps(Set.of(" Insert "))
                .allowedWriteOps()).containsExactly("insert");
        assertThatThrownBy(() -> base.withAllowedTables(List.of("a..b")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SqlDialectFamily.of("postgresql")).isEqualTo(SqlDialectFamily.POSTGRES);
        assertThat(SqlDialectFamily.of("MariaDB")).isEqualTo(SqlDialectFamily.MYSQL);
        assertThat(SqlDialectFamily.of("h2")).isEqualTo(SqlDialectFamily.GENERIC);
        assertThat(SqlDialectFamily.of(null)).isEqualTo(SqlDialectFamily.GENERIC);
    }

    @Test
    void pgjdbcSplitsAsTheGuardExpects() {
        assertThat(SqlGuard.pgjdbcStatements("SELECT 1")).isEqualTo(1);
        assertThat(SqlGuard.pgjdbcStatements("SELECT 1; -- only a comment")).isEqualTo(1);
        assertThat(SqlGuard.pgjdbcStatements("SELECT 1; SELECT 2")).isEqualTo(2);
        // pgjdbc's quirk: it closes "/*/" at once
        assertThat(SqlGuard.pgjdbcStatements("SELECT 1 /*/ ; SELECT 2 -- */")).isEqualTo(2);
    }

    @Test
    void isThreadSafe() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> jobs = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int n = i;
                jobs.add(() -> {
                    GuardOptions o = GuardOptions.readOnly(SqlDialectFamily.POSTGRES).withDefaults(null, "public")
                            .withAllowedTables(List.of("t" + n));
                    GuardResult r = GUARD.check("SELECT * FROM t" + n + " WHERE a = ?", o);
                    boolean ok = r.tablesRead().equals(Set.of(new TableName(null, "public", "t" + n)));
                    try {
                        GUARD.check("SELECT * FROM t" + (n + 1), o);
                        return false;
                    } catch (GuardException e) {
                        return ok && e.code().equals(GuardException.TABLE_NOT_ALLOWED);
                    }
                });
            }
            for (Future<Boolean> f : pool.invokeAll(jobs)) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aParseThatTakesTooLongIsRefused() {
        SqlGuard impatient = new SqlGuard(SqlGuard.DEFAULT_MAX_LENGTH, Duration.ofMillis(1));
        StringBuilder sb = new StringBuilder("SELECT 1");
        while (sb.length() < 60_000) {
            sb.append(" + 1");
        }
        GuardException e = refusalWith(impatient, sb.toString());
        assertThat(e.code()).isEqualTo(GuardException.SQL_NOT_PARSEABLE);
        assertThat(e.getMessage()).contains("longer than 1 ms");
    }

    private static GuardException refusalWith(SqlGuard guard, String sql) {
        try {
            guard.check(sql, GuardOptions.readOnly(SqlDialectFamily.POSTGRES));
            throw new AssertionError("expected a refusal");
        } catch (GuardException e) {
            return e;
        }
    }

    @Test
    void fileFunctionsMayBeAllowedWhereTheDatabaseConfinesThem() {
        GuardOptions duck = GuardOptions.readOnly(SqlDialectFamily.DUCKDB).withFileFunctions(true);
        GuardResult r = GUARD.check("SELECT * FROM read_parquet('/data/x.parquet') p", duck);
        assertThat(r.tableFunctions()).containsExactly("read_parquet");
        // never functions that change state, never under a table restriction
        assertThat(refusal("SELECT nextval('s')", duck).code()).isEqualTo(GuardException.READ_ONLY);
        assertThat(refusal("SELECT * FROM read_parquet('/data/x.parquet')",
                duck.withAllowedTables(List.of("t"))).code()).isEqualTo(GuardException.TABLE_NOT_ALLOWED);
    }
}
