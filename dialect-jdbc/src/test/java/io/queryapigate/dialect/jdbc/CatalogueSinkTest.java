package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import java.sql.JDBCType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CatalogueSinkTest {

    private static CatalogueSink sink() {
        return new CatalogueSink(row -> new SchemaColumn(row[5].toString(), "int", JDBCType.INTEGER,
                CatalogueSink.nullability(row[6]), CatalogueSink.flag(row[7]), CatalogueSink.text(row[8])));
    }

    private static Object[] row(String schema, String table, String kind, String comment, String column) {
        return new Object[] {null, schema, table, kind, comment, column, "YES", 0, ""};
    }

    @Test
    void rowsFoldIntoRelationsSortedBySchemaAndNameWithColumnsInTheirOrder() {
        CatalogueSink sink = sink();
        assertThat(sink.row(row("s", "b", "VIEW", "", "y"))).isTrue();
        assertThat(sink.row(row("s", "b", "VIEW", "", "x"))).isTrue();
        assertThat(sink.row(new Object[] {null, "s", "a", "TABLE", "about a", "k", "NO", 1, "the key"})).isTrue();
        assertThat(sink.row(row("r", "z", "FOREIGN", null, null))).isTrue();

        List<SchemaTable> tables = sink.tables();
        assertThat(tables).extracting(t -> t.namespace().schema() + "." + t.name()).containsExactly("r.z", "s.a", "s.b");
        assertThat(tables.get(0).kind()).isEqualTo(SchemaTable.Kind.OTHER);
        assertThat(tables.get(0).columns()).isEmpty();
        assertThat(tables.get(1).namespace()).isEqualTo(new TableNamespace(null, "s"));
        assertThat(tables.get(1).comment()).contains("about a");
        assertThat(tables.get(1).columns()).containsExactly(new SchemaColumn("k", "int", JDBCType.INTEGER,
                Nullability.NO_NULLS, true, Optional.of("the key")));
        assertThat(tables.get(2).kind()).isEqualTo(SchemaTable.Kind.VIEW);
        assertThat(tables.get(2).comment()).as("blank is no comment").isEmpty();
        assertThat(tables.get(2).columns()).extracting(SchemaColumn::name).containsExactly("y", "x");
        assertThat(tables.get(2).columns().get(0).nullability()).isEqualTo(Nullability.NULLABLE);
        assertThat(sink.truncated()).isFalse();
    }

    @Test
    void theRowArrayMayBeReusedBetweenRows() {
        CatalogueSink sink = sink();
        Object[] reused = row("s", "t", "TABLE", "", "a");
        sink.row(reused);
        reused[5] = "b";
        sink.row(reused);
        reused[2] = "u";
        reused[5] = "c";
        sink.row(reused);
        assertThat(sink.tables()).extracting(t -> t.name() + t.columns().stream().map(SchemaColumn::name).toList())
                .containsExactly("t[a, b]", "u[c]");
    }

    @Test
    void moreThanMaxTablesStopsTheReadAtTheFirstTablePastTheBound() {
        CatalogueSink sink = sink();
        for (int i = 0; i < CatalogueSink.MAX_TABLES; i++) {
            assertThat(sink.row(row("s", "t" + i, "TABLE", null, "c"))).isTrue();
        }
        assertThat(sink.row(row("s", "past", "TABLE", null, "c"))).as("the read stops").isFalse();
        assertThat(sink.truncated()).isTrue();
        assertThat(sink.row(row("s", "later", "TABLE", null, null))).as("rows after the stop").isFalse();
        assertThat(sink.tables()).hasSize(CatalogueSink.MAX_TABLES).noneMatch(t -> t.name().equals("past"))
                .noneMatch(t -> t.name().equals("later"));
    }

    @Test
    void moreThanMaxColumnsKeepsOnlyWholeTables() {
        CatalogueSink sink = sink();
        int half = CatalogueSink.MAX_COLUMNS / 2 + 1;
        List<Boolean> answers = new ArrayList<>();
        for (String table : List.of("first", "second")) {
            for (int c = 0; c < half; c++) {
                answers.add(sink.row(row("s", table, "TABLE", null, "c" + c)));
                if (!answers.getLast()) {
                    break;
                }
            }
        }
        assertThat(answers.getLast()).as("the read stops").isFalse();
        assertThat(answers.subList(0, answers.size() - 1)).containsOnly(true);
        assertThat(answers).hasSize(CatalogueSink.MAX_COLUMNS + 1);
        assertThat(sink.truncated()).isTrue();
        assertThat(sink.row(row("s", "later", "TABLE", null, null))).as("rows after the stop").isFalse();
        assertThat(sink.tables()).as("the table cut short is left out").extracting(SchemaTable::name)
                .containsExactly("first");
        assertThat(sink.tables().get(0).columns()).hasSize(half);
        assertThat(CatalogueSink.maxRows()).isGreaterThan(CatalogueSink.MAX_TABLES + CatalogueSink.MAX_COLUMNS);
    }

    @Test
    void flagsAndTextsReadTheCataloguesSpellings() {
        assertThat(List.of(true, 1, 1L, "YES", "yes", "t", "true", "1")).allMatch(CatalogueSink::flag);
        assertThat(java.util.Arrays.asList(false, 0, "NO", "f", "", null)).noneMatch(CatalogueSink::flag);
        assertThat(CatalogueSink.nullability(null)).isEqualTo(Nullability.UNKNOWN);
        assertThat(CatalogueSink.nullability("NO")).isEqualTo(Nullability.NO_NULLS);
        assertThat(CatalogueSink.text("  ")).isEmpty();
        assertThat(CatalogueSink.text(" x ")).contains(" x ");
    }

    @Test
    void nearestJdbcTypesOfCommonSpellings() {
        assertThat(SqlTypeNames.nearest("character varying(100)")).isEqualTo(JDBCType.VARCHAR);
        assertThat(SqlTypeNames.nearest("DECIMAL(12,2)")).isEqualTo(JDBCType.DECIMAL);
        assertThat(SqlTypeNames.nearest("timestamp(3) with time zone")).isEqualTo(JDBCType.TIMESTAMP_WITH_TIMEZONE);
        assertThat(SqlTypeNames.nearest("TIMESTAMP")).isEqualTo(JDBCType.TIMESTAMP);
        assertThat(SqlTypeNames.nearest("INTEGER[]")).isEqualTo(JDBCType.ARRAY);
        assertThat(SqlTypeNames.nearest("STRUCT(a INTEGER)")).isEqualTo(JDBCType.STRUCT);
        assertThat(SqlTypeNames.nearest("int8")).isEqualTo(JDBCType.BIGINT);
        assertThat(SqlTypeNames.nearest("geography")).isEqualTo(JDBCType.OTHER);
    }
}
