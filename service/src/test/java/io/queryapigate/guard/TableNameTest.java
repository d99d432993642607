package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableNameTest {

    @Test
    void resolvesBareAndQualifiedNamesAgainstTheDefaults() {
        assertThat(TableName.parse("customer", SqlDialectFamily.POSTGRES, "shop", "public"))
                .isEqualTo(new TableName(null, "public", "customer"));
        assertThat(TableName.parse("billing.customer", SqlDialectFamily.POSTGRES, "shop", "public"))
                .isEqualTo(new TableName(null, "billing", "customer"));
        assertThat(TableName.parse("shop.billing.customer", SqlDialectFamily.POSTGRES, "shop", "public"))
                .isEqualTo(new TableName(null, "billing", "customer"));
        assertThat(TableName.parse("other.billing.customer", SqlDialectFamily.POSTGRES, "shop", "public"))
                .isEqualTo(new TableName("other", "billing", "customer"));
        assertThat(TableName.parse("clicks", SqlDialectFamily.TRINO, "hive", "web"))
                .isEqualTo(new TableName("hive", "web", "clicks"));
        assertThat(TableName.parse("iceberg.web.clicks", SqlDialectFamily.TRINO, "hive", "web"))
                .isEqualTo(new TableName("iceberg", "web", "clicks"));
        assertThat(TableName.parse("customer", SqlDialectFamily.MYSQL, "ignored", "shop"))
                .isEqualTo(new TableName(null, "shop", "customer"));
        assertThat(TableName.parse("customer", SqlDialectFamily.GENERIC, null, null))
                .isEqualTo(new TableName(null, null, "customer"));
    }

    @Test
    void foldsUnquotedNamesPerDialectAndKeepsQuotedOnes() {
        assertThat(TableName.parse("Customer", SqlDialectFamily.POSTGRES, null, "Public"))
                .isEqualTo(new TableName(null, "public", "customer"));
        assertThat(TableName.parse("\"Customer\"", SqlDialectFamily.POSTGRES, null, "public").name())
                .isEqualTo("Customer");
        assertThat(TableName.parse("Customer", SqlDialectFamily.DUCKDB, null, null).name()).isEqualTo("customer");
        assertThat(TableName.parse("Customer", SqlDialectFamily.MYSQL, null, null).name()).isEqualTo("Customer");
        assertThat(TableName.parse("`Customer`", SqlDialectFamily.MYSQL, null, null).name()).isEqualTo("Customer");
        assertThat(TableName.parse("Events", SqlDialectFamily.CLICKHOUSE, null, null).name()).isEqualTo("Events");
        assertThat(TableName.parse("INFORMATION_SCHEMA.TABLES", SqlDialectFamily.MYSQL, null, "shop"))
                .isEqualTo(new TableName(null, "information_schema", "tables"));
        assertThat(TableName.parse("[My Table]", SqlDialectFamily.SQLITE, null, "main").name())
                .isEqualTo("My Table");
        assertThat(TableName.parse("\"a\"\"b\"", SqlDialectFamily.POSTGRES, null, null).name()).isEqualTo("a\"b");
        assertThat(TableName.parse("\"a.b\"", SqlDialectFamily.POSTGRES, null, "public"))
                .isEqualTo(new TableName(null, "public", "a.b"));
    }

    @Test
    void bareCatalogRelationsOnPostgresAreTheCatalogs() {
        assertThat(TableName.parse("pg_class", SqlDialectFamily.POSTGRES, null, "public"))
                .isEqualTo(new TableName(null, "pg_catalog", "pg_class"));
        assertThat(TableName.parse("pg_class", SqlDialectFamily.DUCKDB, null, "main").schema()).isEqualTo("main");
    }

    @Test
    void rendersReadably() {
        assertThat(new TableName(null, "public", "customer")).hasToString("public.customer");
        assertThat(new TableName("hive", "web", "clicks")).hasToString("hive.web.clicks");
        assertThat(new TableName(null, "public", "Customer")).hasToString("public.\"Customer\"");
        assertThat(new TableName(null, "public", "a.b")).hasToString("public.\"a.b\"");
        assertThat(new TableName(null, null, "t").parts()).containsExactly("t");
    }

    @Test
    void refusesMalformedEntries() {
        for (String bad : new String[] {"", " ", "a..b", ".a", "a.", "a.b.c.d", "\"open"}) {
            assertThatThrownBy(() -> TableName.parse(bad, SqlDialectFamily.POSTGRES, null, null))
                    .as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
