package io.queryapigate.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import java.sql.JDBCType;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultColumnsTest {

    @Test
    void columnsAreStoredAsJsonAndReadBackWhole() {
        List<ColumnInfo> columns = List.of(
                new ColumnInfo("id", "int4", JDBCType.INTEGER, Nullability.NO_NULLS),
                new ColumnInfo("name", "varchar", JDBCType.VARCHAR, Nullability.NULLABLE),
                new ColumnInfo("at", "timestamptz", JDBCType.TIMESTAMP_WITH_TIMEZONE));
        String json = ResultColumns.toJson(columns);
        assertThat(json).isEqualTo("[{\"name\":\"id\",\"type_name\":\"int4\",\"jdbc_type\":\"INTEGER\",\"nullable\":false},"
                + "{\"name\":\"name\",\"type_name\":\"varchar\",\"jdbc_type\":\"VARCHAR\",\"nullable\":true},"
                + "{\"name\":\"at\",\"type_name\":\"timestamptz\",\"jdbc_type\":\"TIMESTAMP_WITH_TIMEZONE\","
                + "\"nullable\":null}]");
        assertThat(ResultColumns.fromJson(json)).contains(columns);
    }

    @Test
    void noColumnsAndUnknownColumnsAreTwoAnswers() {
        assertThat(ResultColumns.toJson(List.of())).isEqualTo("[]");
        assertThat(ResultColumns.fromJson("[]")).contains(List.of());
        assertThat(ResultColumns.fromJson(null)).isEmpty();
        assertThat(ResultColumns.fromJson("not json")).isEmpty();
        assertThat(ResultColumns.fromJson("{}")).isEmpty();
        assertThat(ResultColumns.fromJson("[{\"name\":\"x\",\"type_name\":\"t\",\"jdbc_type\":\"NO_SUCH\"}]"))
                .contains(List.of(new ColumnInfo("x", "t", JDBCType.OTHER)));
    }
}
