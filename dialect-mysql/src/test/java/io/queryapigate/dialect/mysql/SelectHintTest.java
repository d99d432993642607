package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Golden placements of the MAX_EXECUTION_TIME hint, and the statements it must leave alone. */
class SelectHintTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "SELECT 1                                  | SELECT /*+ MAX_EXECUTION_TIME(250) */ 1",
        "select * from t                           | select /*+ MAX_EXECUTION_TIME(250) */ * from t",
        "SELECT*FROM t                             | SELECT /*+ MAX_EXECUTION_TIME(250) */*FROM t",
        "/* c */ SELECT a                          | /* c */ SELECT /*+ MAX_EXECUTION_TIME(250) */ a",
        "/*+ not a hint here */ SELECT a           | /*+ not a hint here */ SELECT /*+ MAX_EXECUTION_TIME(250) */ a",
        "SELECT /*+ BKA(t) */ a FROM t             | SELECT /*+ MAX_EXECUTION_TIME(250) BKA(t) */ a FROM t",
        "SELECT /*+ MAX_EXECUTION_TIME(0) */ a     | SELECT /*+ MAX_EXECUTION_TIME(250) MAX_EXECUTION_TIME(0) */ a",
        "SELECT a FROM t UNION SELECT b FROM u     | SELECT /*+ MAX_EXECUTION_TIME(250) */ a FROM t UNION SELECT b FROM u",
        "SELECT 'SELECT' AS x                      | SELECT /*+ MAX_EXECUTION_TIME(250) */ 'SELECT' AS x",
        "SELECT(1)                                 | SELECT /*+ MAX_EXECUTION_TIME(250) */(1)",
    })
    void placesTheHintAfterTheFirstSelect(String sql, String expected) {
        assertThat(SelectHint.placeMaxExecutionTime(sql, 250)).contains(expected);
    }

    @org.junit.jupiter.api.Test
    void skipsLineComments() {
        assertThat(SelectHint.placeMaxExecutionTime("  -- note\n  SELECT a FROM t", 250))
                .contains("  -- note\n  SELECT /*+ MAX_EXECUTION_TIME(250) */ a FROM t");
        assertThat(SelectHint.placeMaxExecutionTime("# note\nSELECT a", 250))
                .contains("# note\nSELECT /*+ MAX_EXECUTION_TIME(250) */ a");
        assertThat(SelectHint.placeMaxExecutionTime("-- note", 250)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "WITH c AS (SELECT 1) SELECT * FROM c",
        "(SELECT 1) UNION (SELECT 2)",
        "TABLE t",
        "VALUES ROW(1)",
        "SHOW TABLES",
        "EXPLAIN SELECT 1",
        "SELECTED",
        "SELECT_1",
        "/*!50000 SELECT */ 1",
        "/*M!100000 SELECT */ 1",
        "/* unterminated SELECT 1",
        "--SELECT 1",
        "",
        "INSERT INTO t SELECT 1",
    })
    void leavesOtherStatementsAlone(String sql) {
        assertThat(SelectHint.placeMaxExecutionTime(sql, 250)).isEqualTo(Optional.empty());
    }
}
