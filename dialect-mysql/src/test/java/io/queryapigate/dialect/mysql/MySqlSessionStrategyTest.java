package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden plans: exactly what each call sends, per flavour and mode. */
class MySqlSessionStrategyTest {
    private static final ServerInfo MARIADB = ServerInfo.parse("10.11.19-MariaDB-0+deb12u1", "Debian 12");
    private static final ServerInfo MARIADB_11 = ServerInfo.parse("11.4.2-MariaDB", "mariadb.org binary distribution");
    private static final ServerInfo MYSQL = ServerInfo.parse("8.4.3", "MySQL Community Server - GPL");
    private static final ServerInfo MYSQL_57 = ServerInfo.parse("5.7.12-log", "MySQL Community Server (GPL)");
    private static final String SQL = "SELECT id, name FROM customer WHERE id = ?";
    private static final Duration LIMIT = Duration.ofMillis(300);

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), LIMIT, 100);
    }

    private static Map<String, String> pins() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("time_zone", "SYSTEM");
        m.put("sql_mode", "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION");
        m.put("sql_select_limit", "18446744073709551615");
        m.put("div_precision_increment", "4");
        m.put("group_concat_max_len", "1048576");
        m.put("lc_time_names", "en_US");
        m.put("max_join_size", "18446744073709551615");
        return m;
    }

    @Test
    void mariadbReadPinsTheLimitAndTheReadOnlyDefaultInOneStatement() {
        SessionPlan plan = new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO).plan(read(SQL));
        assertThat(plan.before()).isEmpty();
        assertThat(plan.statement()).isEqualTo("SET STATEMENT max_statement_time=0.300, tx_read_only=1,"
                + " last_insert_id=0, insert_id=0 FOR " + SQL);
        assertThat(plan.after()).containsExactly("ROLLBACK AND CHAIN");
        assertThat(plan.roundTrips()).isEqualTo(2);
        assertThat(plan.settings()).isEmpty();
        assertThat(plan.description()).contains("MariaDB 10.11.19", "chained read-only transaction", "SET STATEMENT");
    }

    @Test
    void mariadbReadWithTheSessionSettingsReadAtOpen() {
        SessionPlan plan = new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO, pins()).plan(read(SQL));
        assertThat(plan.statement()).isEqualTo("SET STATEMENT max_statement_time=0.300, tx_read_only=1,"
                + " time_zone='SYSTEM', sql_mode='STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION',"
                + " sql_select_limit=18446744073709551615, div_precision_increment=4, group_concat_max_len=1048576,"
                + " lc_time_names='en_US', max_join_size=18446744073709551615, last_insert_id=0, insert_id=0 FOR " + SQL);
        assertThat(plan.roundTrips()).isEqualTo(2);
    }

    @Test
    void valuesThatWouldNeedEscapingAreNotPinned() {
        Map<String, String> odd = Map.of("time_zone", "it's", "lc_time_names", "a\\b", "sql_select_limit", "10");
        SessionPlan plan = new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO, odd).plan(read(SQL));
        assertThat(plan.statement()).isEqualTo(
                "SET STATEMENT max_statement_time=0.300, tx_read_only=1, sql_select_limit=10, last_insert_id=0,"
                        + " insert_id=0 FOR " + SQL);
    }

    @Test
    void mariadb11UsesTransactionReadOnly() {
        SessionPlan plan = new MySqlSessionStrategy(MARIADB_11, TimeLimitMode.AUTO).plan(read(SQL));
        assertThat(plan.statement()).startsWith("SET STATEMENT max_statement_time=0.300, transaction_read_only=1, ");
    }

    @Test
    void mariadbWriteCommitsAndChains() {
        SessionPlan plan = new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO)
                .plan(read("INSERT INTO t VALUES (?)").withMode(AccessMode.WRITE).withTimeout(Duration.ofSeconds(2)));
        assertThat(plan.before()).isEmpty();
        assertThat(plan.statement()).isEqualTo(
                "SET STATEMENT max_statement_time=2.000, last_insert_id=0, insert_id=0 FOR INSERT INTO t VALUES (?)");
        assertThat(plan.after()).containsExactly("COMMIT AND CHAIN");
        assertThat(plan.roundTrips()).isEqualTo(2);
    }

    @Test
    void mariadbSessionModeSetsBothOnEveryCall() {
        SessionPlan plan = new MySqlSessionStrategy(MARIADB, TimeLimitMode.SESSION).plan(read(SQL));
        assertThat(plan.before()).containsExactly("SET SESSION max_statement_time = 0.300, SESSION tx_read_only = 1,"
                + " SESSION last_insert_id = 0, SESSION insert_id = 0");
        assertThat(plan.statement()).isEqualTo(SQL);
        assertThat(plan.after()).containsExactly("ROLLBACK AND CHAIN");
        assertThat(plan.roundTrips()).isEqualTo(3);
    }

    @Test
    void mysqlReadCarriesTheHint() {
        SessionPlan plan = new MySqlSessionStrategy(MYSQL, TimeLimitMode.AUTO).plan(read(SQL));
        assertThat(plan.before()).isEmpty();
        assertThat(plan.statement()).isEqualTo("SELECT /*+ MAX_EXECUTION_TIME(300) */ id, name FROM customer WHERE id = ?");
        assertThat(plan.after()).containsExactly("ROLLBACK AND CHAIN");
        assertThat(plan.roundTrips()).isEqualTo(2);
        assertThat(plan.description()).contains("MySQL 8.4.3", "MAX_EXECUTION_TIME");
    }

    @Test
    void mysqlFallsBackToASetOnEveryCallWhereTheHintCannotGo() {
        String cte = "WITH c AS (SELECT id FROM customer) SELECT * FROM c";
        SessionPlan plan = new MySqlSessionStrategy(MYSQL, TimeLimitMode.AUTO).plan(read(cte));
        assertThat(plan.before())
                .containsExactly("SET SESSION max_execution_time = 300, SESSION transaction_read_only = ON");
        assertThat(plan.statement()).isEqualTo(cte);
        assertThat(plan.roundTrips()).isEqualTo(3);
        // the same again: the value is sent on every call, not only when it changes
        assertThat(new MySqlSessionStrategy(MYSQL, TimeLimitMode.AUTO).plan(read(cte)).before()).isEqualTo(plan.before());
    }

    @Test
    void mysql57UsesTxReadOnlyBefore5720() {
        SessionPlan plan = new MySqlSessionStrategy(MYSQL_57, TimeLimitMode.SESSION).plan(read(SQL));
        assertThat(plan.before()).containsExactly("SET SESSION max_execution_time = 300, SESSION tx_read_only = ON");
    }

    @Test
    void mysqlWriteHasNoServerLimit() {
        MySqlSessionStrategy.Planned planned = new MySqlSessionStrategy(MYSQL, TimeLimitMode.AUTO)
                .planned(read("UPDATE t SET x = 1").withMode(AccessMode.WRITE));
        assertThat(planned.plan().statement()).isEqualTo("UPDATE t SET x = 1");
        assertThat(planned.plan().after()).containsExactly("COMMIT AND CHAIN");
        assertThat(planned.serverEnforcesLimit()).isFalse();
        assertThat(planned.plan().description()).contains("KILL QUERY");
    }

    @Test
    void theLimitIsRoundedUpToWholeMilliseconds() {
        QueryRequest r = read(SQL).withTimeout(Duration.ofNanos(1_500_001));
        assertThat(new MySqlSessionStrategy(MYSQL, TimeLimitMode.AUTO).plan(r).statement())
                .contains("MAX_EXECUTION_TIME(2)");
        assertThat(new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO).plan(r).statement())
                .contains("max_statement_time=0.002");
        assertThat(new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO)
                .plan(read(SQL).withTimeout(Duration.ofMinutes(90))).statement())
                .contains("max_statement_time=5400.000");
    }

    @Test
    void theGuardCompatibleSqlModeDropsTheFlagsThatChangeLexing() {
        assertThat(MySqlSessionStrategy.guardCompatibleSqlMode(
                "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"))
                .isEqualTo("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION");
        assertThat(MySqlSessionStrategy.guardCompatibleSqlMode("ANSI_QUOTES,NO_BACKSLASH_ESCAPES")).isEmpty();
        // what MariaDB prints after SET sql_mode = 'ANSI' / 'ORACLE': the combination name would re-add ANSI_QUOTES
        assertThat(MySqlSessionStrategy.guardCompatibleSqlMode("REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI"))
                .isEqualTo("REAL_AS_FLOAT,PIPES_AS_CONCAT,IGNORE_SPACE");
        assertThat(MySqlSessionStrategy.guardCompatibleSqlMode("PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ORACLE,"
                + "NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,NO_AUTO_CREATE_USER,SIMULTANEOUS_ASSIGNMENT"))
                .isEqualTo("PIPES_AS_CONCAT,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,"
                        + "NO_AUTO_CREATE_USER,SIMULTANEOUS_ASSIGNMENT");
        for (String combination : List.of("MSSQL", "DB2", "POSTGRESQL", "MAXDB", "ansi_quotes")) {
            assertThat(MySqlSessionStrategy.guardCompatibleSqlMode("IGNORE_SPACE," + combination)).isEqualTo("IGNORE_SPACE");
        }
        assertThat(MySqlSessionStrategy.guardCompatibleSqlMode("")).isEmpty();
    }

    @Test
    void aStatementThatBeginsWithSetStatementIsRefused() {
        for (String sql : List.of("SET STATEMENT tx_read_only=0 FOR CREATE TABLE x (i INT)",
                "set\tstatement max_statement_time=0 for select 1", " -- c\n# d\n/* e */ SET /* f */ STATEMENT x=1 FOR SELECT 1",
                "/*!SET STATEMENT x=1 FOR */ SELECT 1", "/*!100000 SET STATEMENT x=1 FOR */ SELECT 1",
                "/*M!100000 SET STATEMENT x=1 FOR */ SELECT 1", "/*!*/SET STATEMENT x=1 FOR SELECT 1")) {
            assertThat(MySqlSessionStrategy.refusal(sql)).as(sql).contains("SET STATEMENT").contains("nothing was sent");
        }
        for (String sql : List.of("USE test", "use `qag`", "/*!USE test */", " # c\n USE test")) {
            assertThat(MySqlSessionStrategy.refusal(sql)).as(sql).contains("USE").contains("nothing was sent");
        }
        for (String sql : List.of("SELECT 1 AS `use`", "SELECT USER()", "USER", "SELECT 'USE test'",
                "SELECT 1", "SET time_zone = '+00:00'", "SELECT 'SET STATEMENT x=1 FOR'",
                "SELECT 1 FOR SET STATEMENT", "SET statements = 1", "/* SET STATEMENT x=1 FOR */ SELECT 1",
                "-- SET STATEMENT x=1 FOR\nSELECT 1", "(SELECT 1)", "")) {
            assertThat(MySqlSessionStrategy.refusal(sql)).as(sql).isNull();
        }
    }

    @Test
    void openStatementsPerAccessMode() {
        MySqlSessionStrategy s = new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO);
        assertThat(s.openStatements(AccessMode.READ))
                .containsExactly("SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY");
        assertThat(s.openStatements(AccessMode.WRITE))
                .containsExactly("SET SESSION TRANSACTION READ WRITE", "START TRANSACTION READ WRITE");
        assertThat(s.releaseAfterFailure()).isEqualTo("ROLLBACK AND CHAIN");
    }

    @Test
    void modesThatCannotWorkOnAFlavourAreRefused() {
        assertThatThrownBy(() -> new MySqlSessionStrategy(MARIADB, TimeLimitMode.HINT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ignores");
        assertThatThrownBy(() -> new MySqlSessionStrategy(MYSQL, TimeLimitMode.SET_STATEMENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MariaDB syntax");
        assertThat(new MySqlSessionStrategy(MYSQL, TimeLimitMode.HINT).mode()).isEqualTo(TimeLimitMode.HINT);
        assertThat(new MySqlSessionStrategy(MARIADB, TimeLimitMode.AUTO).mode()).isEqualTo(TimeLimitMode.SET_STATEMENT);
    }
}
