package io.queryapigate.dialect.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ColumnInfoTest {

    @Test
    void theConstructorOfSpi10LeavesNullabilityUnknown() {
        ColumnInfo old = new ColumnInfo("id", "int4", JDBCType.INTEGER);
        assertThat(old.nullability()).isEqualTo(Nullability.UNKNOWN);
        assertThat(old).isEqualTo(new ColumnInfo("id", "int4", JDBCType.INTEGER, Nullability.UNKNOWN));
        assertThat(old).isNotEqualTo(new ColumnInfo("id", "int4", JDBCType.INTEGER, Nullability.NO_NULLS));
        assertThatThrownBy(() -> new ColumnInfo("id", "int4", JDBCType.INTEGER, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aDialectThatDoesNotDescribeAnswersEmpty() {
        Dialect minimal = new Dialect() {
            @Override
            public Set<Capability> capabilities() {
                return Set.of();
            }

            @Override
            public SessionStrategy sessionStrategy() {
                return request -> {
                    throw new UnsupportedOperationException();
                };
            }

            @Override
            public QueryStats execute(QueryRequest request, RowSink sink) {
                throw new AssertionError("describe must not execute");
            }

            @Override
            public void checkHealth(Duration timeout) {}

            @Override
            public void close() {}
        };
        assertThat(minimal.describe(QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(1), 1))).isEmpty();
        assertThat(DialectSpi.VERSION).isEqualTo("1.5");
    }
}
