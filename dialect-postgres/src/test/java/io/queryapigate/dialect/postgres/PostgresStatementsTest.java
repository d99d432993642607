package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins how pgjdbc 42.7.14 splits SQL into statements, which the one-statement guard relies on. Inputs are written
 * with {@code |} for a newline where one matters.
 */
class PostgresStatementsTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "SELECT 1",
        "SELECT 1;",
        "SELECT 1;;  ;",
        "  SELECT 1  ",
        "SELECT ';' AS semi",
        "SELECT 'a;b', 'c;d' AS x",
        "SELECT 'it''s; COMMIT; --'",
        "SELECT 'a''; COMMIT; --'",
        "SELECT E'it\\'s; COMMIT'",
        "SELECT e'\\\\'';'';'",
        "SELECT $$;COMMIT;$$",
        "SELECT $tag$ ; $$ ; COMMIT; $tag$",
        "SELECT $a_1$;$a_1$",
        "SELECT 1 -- ; COMMIT",
        "SELECT 1 /* ; COMMIT */",
        "SELECT /* outer ; /* nested ; */ still a comment ; */ 1",
        "SELECT \"semi;colon\" FROM \"t;t\"",
        "SELECT ? , '?;' WHERE x = ?",
        "SELECT (SELECT 1)",
        "SELECT ARRAY[1, 2]",
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "SELECT U&'\\0041;'",
        "SELECT B'101', X'1F'",
        "SELECT {fn now()}",
        "SELECT 1 ?? 2",
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END",
    })
    void oneStatement(String sql) {
        assertThat(PostgresStatements.count(sql)).isEqualTo(1);
        assertThat(PostgresStatements.isSingleStatement(sql)).isTrue();
    }

    @ParameterizedTest(name = "[{index}] {1} statements: {0}")
    @CsvSource(delimiter = '#', value = {
        "SELECT 1; COMMIT # 2",
        "SELECT 1; COMMIT; # 2",
        "COMMIT; CREATE TABLE x (i int) # 2",
        "SET TRANSACTION READ WRITE; CREATE TABLE x (i int) # 2",
        "SELECT 1; SET TRANSACTION READ WRITE; CREATE TABLE x (i int) # 3",
        "SELECT 'it''s'; COMMIT # 2",
        "SELECT 1 /* c */; COMMIT # 2",
        "SELECT $$ a $$; COMMIT # 2",
        "SELECT \"x\"; COMMIT # 2",
        "SELECT 1; -- only a comment after # 2",
        "SELECT 1; /* only a comment */ # 2",
        "SELECT 'a\\'; COMMIT; \\'' # 3",
    })
    void severalStatements(String sql, int expected) {
        assertThat(PostgresStatements.count(sql)).isEqualTo(expected);
        assertThat(PostgresStatements.isSingleStatement(sql)).isFalse();
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @ValueSource(strings = {"", "   ", ";", " ; ;", "\n\t"})
    void blankSqlIsNoStatement(String sql) {
        assertThat(PostgresStatements.count(sql)).isZero();
        assertThat(PostgresStatements.isSingleStatement(sql)).isFalse();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"SELECT 'unterminated; COMMIT", "SELECT $$ open; COMMIT", "SELECT 1$a$;COMMIT;$a$"})
    void sqlPgjdbcRefusesToSendIsNeverOneStatement(String sql) {
        // pgjdbc 42.7's escape processing refuses unterminated literals and dollar quotes before anything is sent
        assertThatThrownBy(() -> PostgresStatements.count(sql))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pgjdbc cannot parse");
        assertThat(PostgresStatements.isSingleStatement(sql)).isFalse();
    }

    @Test
    void standardConformingStringsDecideWhatABackslashDoes() {
        String sql = "SELECT 'a\\'; COMMIT; \\''";
        // on (the default since 9.1): the backslash is an ordinary character, the literal ends after it
        assertThat(PostgresStatements.count(sql, true)).isEqualTo(3);
        // off: the backslash escapes the quote, one literal runs to the end
        assertThat(PostgresStatements.count(sql, false)).isEqualTo(1);
        // an E'' literal escapes either way
        assertThat(PostgresStatements.count("SELECT E'a\\'; COMMIT; \\''", true)).isEqualTo(1);
    }

    @Test
    void theUserSqlIsCountedInTheContextOfTheMessage() {
        // pgjdbc reads E' as an escape string only after a character that ends an identifier; in the message the
        // user's SQL follows "; ", so an E at its very start counts as one too
        String sql = "E'\\'; COMMIT; SELECT '";
        assertThat(PostgresStatements.count(sql)).isEqualTo(1);
        assertThat(PostgresStatements.split("SELECT 1; " + sql, true)).hasSize(2);
    }

    @Test
    void createBeginAtomicHidesLaterSemicolonsFromPgjdbc() {
        // a pgjdbc 42.7.14 quirk: after CREATE ... BEGIN ATOMIC it no longer splits, even after END. In the
        // extended protocol the server then refuses the Parse ("cannot insert multiple commands into a prepared
        // statement"); the simple protocol would run both (see docs/dialects/postgres.md)
        assertThat(PostgresStatements.count(
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; COMMIT")).isEqualTo(1);
        assertThat(PostgresStatements.count("SELECT 'begin atomic'; COMMIT")).isEqualTo(2);
    }

    @Test
    void splitReturnsWhatPgjdbcSendsWithNumberedParameters() {
        assertThat(PostgresStatements.split("RESET ALL; SELECT ? + ?, '?'\n; DISCARD TEMP", true))
                .containsExactly("RESET ALL", " SELECT $1 + $2, '?'\n", " DISCARD TEMP");
    }

}
