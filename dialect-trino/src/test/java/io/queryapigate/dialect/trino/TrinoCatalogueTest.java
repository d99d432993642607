package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Trino's own cases of the schema browser: a database is a catalog; one session lists the catalogs and describes
 * any of them; a connection without a session catalog must name one.
 */
class TrinoCatalogueTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void catalogsAreTheDatabasesAndAnotherCatalogIsDescribedThroughTheSameSession() {
        try (TrinoDialect dialect = TestingTrino.dialect("/tpch/tiny", Map.of(), 1)) {
            assertThat(dialect.databases(LIMIT)).contains("memory", "tpch").doesNotContain("system");

            List<SchemaTable> tpch = dialect.describeNamespace(Optional.of("tpch"), LIMIT).orElseThrow();
            assertThat(tpch).extracting(t -> t.namespace().schema()).contains("tiny", "sf1")
                    .doesNotContain("information_schema");
            SchemaTable nation = tpch.stream()
                    .filter(t -> t.namespace().equals(new TableNamespace("tpch", "tiny")) && t.name().equals("nation"))
                    .findFirst().orElseThrow();
            assertThat(nation.kind()).isEqualTo(SchemaTable.Kind.TABLE);
            assertThat(nation.columns()).extracting(SchemaColumn::name)
                    .containsExactly("nationkey", "name", "regionkey", "comment");
            assertThat(nation.columns()).extracting(SchemaColumn::type)
                    .containsExactly(JDBCType.BIGINT, JDBCType.VARCHAR, JDBCType.BIGINT, JDBCType.VARCHAR);
            assertThat(nation.columns()).extracting(SchemaColumn::typeName)
                    .containsExactly("bigint", "varchar(25)", "bigint", "varchar(152)");
            assertThat(nation.columns()).extracting(SchemaColumn::nullability).containsOnly(Nullability.NO_NULLS);
            assertThat(nation.columns()).noneMatch(SchemaColumn::primaryKey);
        }
    }

    @Test
    void withoutASessionCatalogTheCatalogMustBeNamed() {
        try (TrinoDialect dialect = TestingTrino.dialect("", Map.of(), 1)) {
            DialectException unnamed = catchThrowableOfType(DialectException.class,
                    () -> dialect.describeNamespace(Optional.empty(), LIMIT));
            assertThat(unnamed).isNotNull();
            assertThat(unnamed.error()).isEqualTo(DialectError.SYNTAX);
            assertThat(unnamed.getMessage()).contains("name the catalog");
            assertThat(dialect.describeNamespace(Optional.of("tpch"), LIMIT).orElseThrow()).isNotEmpty();
        }
    }
}
