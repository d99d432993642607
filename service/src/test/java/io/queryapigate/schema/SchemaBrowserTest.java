package io.queryapigate.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.auth.Grants;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.sql.SqlDialectFamily;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which of a catalogue's tables a key sees: the SQL guard's name rules, per dialect family. */
class SchemaBrowserTest {
    private static Connection connection(SqlDialectFamily family, String catalog, String schema) {
        return new Connection("c", family.name().toLowerCase(), null, Duration.ofSeconds(1), family,
                family.lexicalRules(), new TableNamespace(catalog, schema), Set.of());
    }

    private static SchemaTable table(String catalog, String schema, String name) {
        return new SchemaTable(new TableNamespace(catalog, schema), name, SchemaTable.Kind.TABLE, Optional.empty(),
                List.of());
    }

    private static Grants tables(String... allowed) {
        return new Grants(List.of("c"), null, false, false, null, allowed == null ? null : List.of(allowed), null,
                null, null, null, null, null, null);
    }

    private static List<String> visible(Connection c, Optional<String> database, List<SchemaTable> all, Grants g) {
        return SchemaBrowser.visible(c, database, all, g).stream()
                .map(t -> t.namespace().schema() + "." + t.name()).toList();
    }

    @Test
    void postgresBareNamesMeanPublicAndQuotedNamesKeepTheirCase() {
        Connection pg = connection(SqlDialectFamily.POSTGRES, "shop", "public");
        List<SchemaTable> all = List.of(table("shop", "public", "customer"), table("shop", "billing", "invoice"),
                table("shop", "public", "Sales"), table("shop", "public", "sales"), table("shop", "billing", "customer"),
                table("shop", "public", "other"));
        assertThat(visible(pg, Optional.empty(), all, tables("customer", "BILLING.Invoice", "\"Sales\"")))
                .containsExactly("public.customer", "billing.invoice", "public.Sales");
        assertThat(visible(pg, Optional.empty(), all, tables("public.customer", "shop.public.sales")))
                .containsExactly("public.customer", "public.sales");
        assertThat(visible(pg, Optional.of("other"), List.of(table("other", "public", "customer")),
                tables("customer"))).as("another database's tables are not the granted ones").isEmpty();
        assertThat(visible(pg, Optional.of("shop"), all, tables("customer"))).containsExactly("public.customer");
    }

    @Test
    void mysqlNamesAreCaseSensitiveAndTheDatabaseIsTheSchema() {
        Connection my = connection(SqlDialectFamily.MYSQL, null, "app");
        List<SchemaTable> all = List.of(table(null, "app", "Orders"), table(null, "app", "orders"),
                table(null, "app", "items"));
        assertThat(visible(my, Optional.empty(), all, tables("orders", "app.items")))
                .containsExactly("app.orders", "app.items");
    }

    @Test
    void duckDbFoldsQuotedNamesToo() {
        Connection duck = connection(SqlDialectFamily.DUCKDB, "memory", "main");
        List<SchemaTable> all = List.of(table("memory", "main", "Film"), table("memory", "main", "actor"),
                table("memory", "sales", "actor"));
        assertThat(visible(duck, Optional.empty(), all, tables("\"FILM\"", "main.actor")))
                .containsExactly("main.Film", "main.actor");
    }

    @Test
    void unrestrictedKeysSeeAllAndKeysWithoutTheConnectionNothing() {
        Connection pg = connection(SqlDialectFamily.POSTGRES, "shop", "public");
        List<SchemaTable> all = List.of(table("shop", "public", "customer"));
        assertThat(visible(pg, Optional.empty(), all, null)).as("the administrator").hasSize(1);
        assertThat(visible(pg, Optional.empty(), all, tables((String[]) null))).hasSize(1);
        assertThat(visible(pg, Optional.empty(), all, tables())).as("an empty allow-list").isEmpty();
        assertThat(visible(pg, Optional.empty(), all, Grants.reach(List.of("other"), List.of("*"), true)))
                .as("not granted the connection").isEmpty();
        assertThat(visible(pg, Optional.empty(), all, tables("not a..name", "customer"))).hasSize(1);
    }
}
