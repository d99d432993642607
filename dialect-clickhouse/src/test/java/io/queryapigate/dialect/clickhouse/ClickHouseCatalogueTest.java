package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ClickHouse's own cases of the schema browser: the sorting key stands for the primary key (a {@code Memory}
 * table has none), a materialized view is a view and its {@code .inner} table is not listed, a database is a
 * schema that the same connection describes, nullability follows {@code Nullable(...)}.
 */
class ClickHouseCatalogueTest {
    static final String DB = "qag_ch_catalogue";
    static final String OTHER = "qag_ch_catalogue_other";
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @BeforeAll
    static void createDatabases() {
        TestingClickHouse.require();
        for (String db : List.of(DB, OTHER)) {
            TestingClickHouse.exec("DROP DATABASE IF EXISTS " + db);
            TestingClickHouse.exec("CREATE DATABASE " + db);
        }
        TestingClickHouse.execIn(DB, "CREATE TABLE events (day Date, user UInt64, kind String,"
                + " amount Nullable(Decimal(12, 2))) ENGINE = MergeTree PARTITION BY day ORDER BY (kind, user)");
        TestingClickHouse.execIn(DB, "CREATE TABLE scratch (x Int32) ENGINE = Memory");
        TestingClickHouse.execIn(DB, "CREATE MATERIALIZED VIEW per_kind ENGINE = SummingMergeTree ORDER BY kind"
                + " AS SELECT kind, count() AS n FROM events GROUP BY kind");
        TestingClickHouse.execIn(OTHER, "CREATE TABLE elsewhere (id UInt32) ENGINE = MergeTree ORDER BY id");
    }

    @AfterAll
    static void dropDatabases() {
        for (String db : List.of(DB, OTHER)) {
            TestingClickHouse.exec("DROP DATABASE IF EXISTS " + db);
        }
    }

    private static Dialect dialect() {
        return new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), 1),
                Map.of(ClickHouseDialectConfig.DATABASE, DB));
    }

    @Test
    void theSortingKeyIsTheKeyAndMaterializedViewsAreViewsWithoutTheirInnerTable() {
        try (Dialect dialect = dialect()) {
            List<SchemaTable> tables = dialect.describeNamespace(Optional.empty(), LIMIT).orElseThrow();
            assertThat(tables).extracting(SchemaTable::name).containsExactly("events", "per_kind", "scratch");
            assertThat(tables).extracting(SchemaTable::namespace).containsOnly(new TableNamespace(null, DB));

            SchemaTable events = tables.get(0);
            assertThat(events.kind()).isEqualTo(SchemaTable.Kind.TABLE);
            assertThat(events.columns()).extracting(SchemaColumn::name).containsExactly("day", "user", "kind", "amount");
            assertThat(events.columns()).extracting(SchemaColumn::primaryKey).containsExactly(false, true, true, false);
            assertThat(events.columns()).extracting(SchemaColumn::nullability).containsExactly(Nullability.NO_NULLS,
                    Nullability.NO_NULLS, Nullability.NO_NULLS, Nullability.NULLABLE);
            assertThat(events.columns()).extracting(SchemaColumn::type)
                    .containsExactly(JDBCType.DATE, JDBCType.NUMERIC, JDBCType.VARCHAR, JDBCType.DECIMAL);

            assertThat(tables.get(1).kind()).isEqualTo(SchemaTable.Kind.VIEW);
            assertThat(tables.get(1).columns()).extracting(SchemaColumn::name).containsExactly("kind", "n");
            assertThat(tables.get(2).columns()).noneMatch(SchemaColumn::primaryKey);
        }
    }

    @Test
    void anotherDatabaseIsASchemaTheSameConnectionDescribes() {
        try (Dialect dialect = dialect()) {
            assertThat(dialect.databases(LIMIT)).contains(DB, OTHER).doesNotContain("system");
            List<SchemaTable> other = dialect.describeNamespace(Optional.of(OTHER), LIMIT).orElseThrow();
            assertThat(other).extracting(SchemaTable::name).containsExactly("elsewhere");
            assertThat(other.get(0).namespace()).isEqualTo(new TableNamespace(null, OTHER));
            assertThat(other.get(0).columns().get(0).primaryKey()).isTrue();
        }
    }
}
