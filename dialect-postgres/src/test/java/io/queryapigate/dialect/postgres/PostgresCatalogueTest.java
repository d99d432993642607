package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's own cases of the schema browser, beyond the contract: another database is refused with a message
 * that says how to browse it, partitions are folded into their partitioned table, materialized views are views,
 * a domain column has its base type's JDBC type, arrays are arrays.
 */
class PostgresCatalogueTest {
    static final String SCHEMA = TestingPostgresServer.schemaName("catalogue");
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @BeforeAll
    static void createFixture() throws Exception {
        TestingPostgresServer server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
        server.run(
                "SET search_path TO " + SCHEMA,
                "CREATE DOMAIN qag_positive AS bigint CHECK (VALUE > 0)",
                "CREATE TABLE qag_events (id qag_positive NOT NULL, tags text[], happened date NOT NULL,"
                        + " ok bool, PRIMARY KEY (id, happened)) PARTITION BY RANGE (happened)",
                "CREATE TABLE qag_events_2024 PARTITION OF qag_events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')",
                "CREATE MATERIALIZED VIEW qag_event_days AS SELECT happened, count(*) AS n FROM qag_events GROUP BY 1");
    }

    @AfterAll
    static void dropFixture() throws Exception {
        TestingPostgresServer.get().dropSchema(SCHEMA);
    }

    private static Dialect dialect() {
        TestingPostgresServer server = TestingPostgresServer.get();
        return new PostgresDialectFactory().create(server.context(server.url(), 1), Map.of());
    }

    @Test
    void partitionsFoldIntoTheirTableMaterializedViewsAreViewsDomainsTakeTheirBaseType() {
        try (Dialect dialect = dialect()) {
            List<SchemaTable> mine = dialect.describeNamespace(Optional.empty(), LIMIT).orElseThrow().stream()
                    .filter(t -> t.namespace().schema().equals(SCHEMA)).toList();
            assertThat(mine).extracting(SchemaTable::name).containsExactly("qag_event_days", "qag_events");
            SchemaTable events = mine.get(1);
            assertThat(events.kind()).isEqualTo(SchemaTable.Kind.TABLE);
            assertThat(events.columns()).extracting(SchemaColumn::name).containsExactly("id", "tags", "happened", "ok");
            assertThat(events.columns()).extracting(SchemaColumn::typeName)
                    .containsExactly(SCHEMA + ".qag_positive", "text[]", "date", "boolean");
            assertThat(events.columns()).extracting(SchemaColumn::type)
                    .containsExactly(JDBCType.BIGINT, JDBCType.ARRAY, JDBCType.DATE, JDBCType.BIT);
            assertThat(events.columns()).extracting(SchemaColumn::primaryKey).containsExactly(true, false, true, false);
            assertThat(mine.get(0).kind()).isEqualTo(SchemaTable.Kind.VIEW);
        }
    }

    @Test
    void anotherDatabaseIsRefusedWithHowToBrowseIt() {
        try (Dialect dialect = dialect()) {
            String own = TestingPostgresServer.get().databasePath().substring(1).split("\\?")[0];
            List<String> databases = dialect.databases(LIMIT);
            assertThat(databases).contains(own, "postgres").doesNotContain("template0", "template1");
            DialectException other = catchThrowableOfType(DialectException.class,
                    () -> dialect.describeNamespace(Optional.of("postgres"), LIMIT));
            assertThat(other).isNotNull();
            assertThat(other.error()).isEqualTo(DialectError.SYNTAX);
            assertThat(other.getMessage()).contains("'postgres'", "with a connection to that database");
        }
    }
}
