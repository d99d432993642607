package io.queryapigate.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.LexicalRules.Feature;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.paging.PagedSql;
import io.queryapigate.paging.Paging;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.sql.SqlText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A third-party dialect with an SQL family of its own declares its lexical rules through the SPI, and the
 * service's guard, marker parser and paging read its connection's SQL by them, without any change to the service.
 * Its function rules are the generic family's.
 */
class CustomLexicalRulesTest {
    /** "foodb": standard SQL plus # comments and backslash escapes in strings. */
    static final LexicalRules FOODB = LexicalRules.ANSI.named("foodb").with(Feature.HASH_COMMENTS,
            Feature.BACKSLASH_IN_STRINGS);

    /** A dialect that runs nothing: the test is about how its SQL is read. */
    static final class TestDialect implements Dialect {
        private final String family;
        private final LexicalRules rules;

        TestDialect(String family, LexicalRules rules) {
            this.family = family;
            this.rules = rules;
        }

        @Override
        public String sqlFamily() {
            return family;
        }

        @Override
        public LexicalRules lexicalRules() {
            return rules == null ? Dialect.super.lexicalRules() : rules;
        }

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
    }

    record TestFactory(String name, String family, LexicalRules rules) implements DialectFactory {
        @Override
        public String spiVersion() {
            return DialectSpi.VERSION;
        }

        @Override
        public Dialect create(DialectContext context, Map<String, String> properties) {
            return new TestDialect(family, rules);
        }
    }

    private final List<ConnectionRegistry> registries = new ArrayList<>();

    /** A connection named c of the dialect: foodb (its own rules), mysqlish (family mariadb), plain (family h2). */
    private Connection connection(String dialect) {
        ConnectionConfig config = new ConnectionConfig();
        config.setDialect(dialect);
        config.setUrl(dialect + "://test");
        ConnectionRegistry registry = ConnectionRegistry.create(DialectRegistry.of(List.of(
                new TestFactory("foodb", "foodb", FOODB), new TestFactory("mysqlish", "mariadb", null),
                new TestFactory("plain", "h2", null))), Map.of("c", config), Duration.ofSeconds(5), 1000,
                Path.of("."));
        registries.add(registry);
        return registry.get("c").orElseThrow();
    }

    @AfterEach
    void close() {
        registries.forEach(ConnectionRegistry::stop);
    }

    @Test
    void theConnectionCarriesTheDialectsFamilyAndLexicalRules() {
        Connection foo = connection("foodb");
        assertThat(foo.family()).isEqualTo(SqlDialectFamily.GENERIC);
        assertThat(foo.lexicalRules()).isSameAs(FOODB);
        Connection mysql = connection("mysqlish");
        assertThat(mysql.family()).isEqualTo(SqlDialectFamily.MYSQL);
        assertThat(mysql.lexicalRules()).isSameAs(LexicalRules.MYSQL);
        assertThat(connection("plain").lexicalRules()).isSameAs(LexicalRules.GENERIC);
    }

    @Test
    void theGuardFollowsTheDialectsRules() {
        Guarding guarding = new Guarding(new SqlGuard(), false);
        Connection foo = connection("foodb");
        // # is a comment and backslashes escape: one statement each
        GuardResult comment = guarding.checkForSaving(foo, "SELECT a FROM t # ; DELETE FROM t");
        assertThat(comment.isRead()).isTrue();
        assertThat(guarding.checkForSaving(foo, "SELECT 'it\\'s; DELETE FROM t' AS x FROM t").isRead()).isTrue();
        // still one statement only, and the generic family's function rules
        assertThatThrownBy(() -> guarding.checkForSaving(foo, "SELECT a FROM t; DELETE FROM t"))
                .isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.code()).isEqualTo("multiple_statements"));
        assertThatThrownBy(() -> guarding.checkForSaving(foo, "SELECT 'x\\\\'; DELETE FROM t"))
                .isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.code()).isEqualTo("multiple_statements"));
        assertThatThrownBy(() -> guarding.checkForSaving(foo, "SELECT set_config('a', 'b', false)"))
                .isInstanceOf(ApiException.class);
        // a generic connection reads the same texts by every family's rules, and refuses them
        Connection plain = connection("plain");
        assertThatThrownBy(() -> guarding.checkForSaving(plain, "SELECT a FROM t # ; DELETE FROM t"))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> guarding.checkForSaving(plain, "SELECT 'it\\'s; DELETE FROM t' AS x FROM t"))
                .isInstanceOf(ApiException.class);
    }

    @Test
    void markersFollowTheDialectsRules() {
        Connection foo = connection("foodb");
        SqlText text = SqlText.parse("SELECT :a, 'it\\':b', c # :d\nFROM t WHERE e = :e", foo.lexicalRules());
        assertThat(text.markers()).containsExactly("a", "e");
        assertThat(text.jdbcSql()).isEqualTo("SELECT ?, 'it\\':b', c # :d\nFROM t WHERE e = ?");
        assertThat(SqlText.parse("SELECT 1 # ; DELETE FROM t", foo.lexicalRules()).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT :a, 'it\\':b'", LexicalRules.GENERIC).markers()).containsExactly("a", "b");
    }

    @Test
    void pagingFollowsTheDialectsRules() {
        Connection foo = connection("foodb");
        Paging paging = Paging.defaults();
        PagedSql paged = paging.rewrite("SELECT a, 'x\\'; y' FROM t # note; more", new PageRequest(2, 10),
                foo.family(), foo.lexicalRules());
        // the generic family pages while reading: the statement ends before the comment
        assertThat(paged.mode()).isEqualTo(PagedSql.Mode.CLIENT);
        assertThat(paged.sql()).isEqualTo("SELECT a, 'x\\'; y' FROM t");
        assertThatThrownBy(() -> paging.rewrite("SELECT a FROM t # note; more", new PageRequest(2, 10),
                SqlDialectFamily.GENERIC)).isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.code()).isEqualTo("invalid_paging"));
    }
}
