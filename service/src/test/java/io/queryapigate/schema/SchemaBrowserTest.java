package io.queryapigate.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.auth.Grants;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.errors.ApiException;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;

/**
 * Which of a catalogue's tables a key sees: the SQL guard's name rules, per dialect family; a dialect built against
 * SPI 1.2, which cannot describe its catalogue.
 */
class SchemaBrowserTest {
    /** A dialect of SPI 1.2: no catalogue; it runs nothing. */
    record OldFactory() implements DialectFactory {
        @Override
        public String name() {
            return "old";
        }

        @Override
        public String spiVersion() {
            return "1.2";
        }

        @Override
        public Dialect create(DialectContext context, Map<String, String> properties) {
            return new Dialect() {
                @Override
                public Set<Capability> capabilities() {
                    return Set.of();
                }

                @Override
                public SessionStrategy sessionStrategy() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public QueryStats execute(QueryRequest request, RowSink sink) {
                    throw new UnsupportedOperationException("not run");
                }

                @Override
                public void checkHealth(Duration timeout) {}

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void aDialectThatCannotDescribeItsCatalogueIsRefusedWithTheOriginalsCode() throws Exception {
        Path dir = Files.createTempDirectory("qag-schema-test-");
        String url = "jdbc:sqlite:" + dir.resolve("store.db");
        Store store = Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null);
        ConnectionConfig config = new ConnectionConfig();
        config.setDialect("old");
        config.setUrl("old://test");
        ConnectionRegistry registry = ConnectionRegistry.create(DialectRegistry.of(List.of(new OldFactory())),
                Map.of("old", config), Duration.ofSeconds(5), 1000, dir);
        try {
            Descriptions descriptions = new Descriptions(store, registry, Clock.systemUTC(),
                    TestingAudit.of(store));
            SchemaBrowser browser = new SchemaBrowser(registry, descriptions, Duration.ofSeconds(60),
                    Clock.systemUTC());
            assertThatThrownBy(() -> browser.describe("old", Optional.empty(), null, false))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(List.of(e.status(), e.code()))
                            .containsExactly(400, "unsupported_operation"));
            assertThatThrownBy(() -> descriptions.importComments("old", false, "admin"))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(List.of(e.status(), e.code()))
                            .containsExactly(400, "unsupported_operation"));
            assertThatThrownBy(() -> browser.describe("nope", Optional.empty(), null, false))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(List.of(e.status(), e.code()))
                            .containsExactly(404, "connection_not_found"));
        } finally {
            registry.stop();
        }
    }

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
