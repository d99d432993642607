package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import java.sql.Connection;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MySQL's own cases of the schema browser: a database is a schema, so one connection lists and describes the
 * others it can see; the system schemas are not listed; Connector/J's types for MySQL's spellings.
 */
class MySqlCatalogueTest {
    static final String HOME = "qag_my_catalogue";
    static final String OTHER = "qag_my_catalogue_other";
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @BeforeAll
    static void createDatabases() throws Exception {
        TestingMariaDb.recreateDatabase(HOME);
        TestingMariaDb.recreateDatabase(OTHER);
        try (Connection c = TestingMariaDb.admin(OTHER)) {
            TestingMariaDb.exec(c, "CREATE TABLE qag_other (n INT UNSIGNED NOT NULL PRIMARY KEY, flag TINYINT(1),"
                    + " body TEXT, stamp DATETIME(3), kind ENUM('a', 'b')) COMMENT = 'elsewhere'");
        }
    }

    @AfterAll
    static void dropDatabases() throws Exception {
        TestingMariaDb.dropDatabase(HOME);
        TestingMariaDb.dropDatabase(OTHER);
    }

    @Test
    void anotherSchemaOfTheServerIsListedAndDescribedThroughTheSameConnection() {
        try (Dialect dialect = TestingMariaDb.dialect(HOME, "", Map.of(), 1)) {
            assertThat(dialect.databases(LIMIT)).contains(HOME, OTHER)
                    .doesNotContain("information_schema", "mysql", "performance_schema", "sys");
            assertThat(dialect.describeNamespace(Optional.empty(), LIMIT)).contains(List.of());

            List<SchemaTable> other = dialect.describeNamespace(Optional.of(OTHER), LIMIT).orElseThrow();
            assertThat(other).hasSize(1);
            SchemaTable table = other.get(0);
            assertThat(table.namespace()).isEqualTo(new TableNamespace(null, OTHER));
            assertThat(table.comment()).contains("elsewhere");
            assertThat(table.columns()).extracting(SchemaColumn::name).containsExactly("n", "flag", "body", "stamp", "kind");
            assertThat(table.columns()).extracting(SchemaColumn::typeName)
                    .containsExactly("int(10) unsigned", "tinyint(1)", "text", "datetime(3)", "enum('a','b')");
            assertThat(table.columns()).extracting(SchemaColumn::type).containsExactly(JDBCType.BIGINT, JDBCType.BIT,
                    JDBCType.LONGVARCHAR, JDBCType.TIMESTAMP, JDBCType.CHAR);
            assertThat(table.columns()).extracting(SchemaColumn::primaryKey).containsExactly(true, false, false, false, false);
        }
    }
}
