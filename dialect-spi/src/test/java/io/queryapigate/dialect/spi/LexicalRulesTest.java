package io.queryapigate.dialect.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.LexicalRules.Feature;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LexicalRulesTest {

    /** A dialect that only names its family, and its lexical rules when {@code rules} is not null. */
    private static Dialect dialect(String family, LexicalRules rules) {
        return (Dialect) Proxy.newProxyInstance(Dialect.class.getClassLoader(), new Class<?>[] {Dialect.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "sqlFamily" -> family;
                    case "lexicalRules" -> rules == null ? InvocationHandler.invokeDefault(proxy, method, args) : rules;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void familyNamesAndTheirAliasesHaveBuiltInRules() {
        assertThat(LexicalRules.forFamily("postgres")).isSameAs(LexicalRules.POSTGRES);
        assertThat(LexicalRules.forFamily(" PostgreSQL ")).isSameAs(LexicalRules.POSTGRES);
        assertThat(LexicalRules.forFamily("redshift")).isSameAs(LexicalRules.POSTGRES);
        assertThat(LexicalRules.forFamily("MariaDB")).isSameAs(LexicalRules.MYSQL);
        assertThat(LexicalRules.forFamily("duckdb")).isSameAs(LexicalRules.DUCKDB);
        assertThat(LexicalRules.forFamily("clickhouse")).isSameAs(LexicalRules.CLICKHOUSE);
        assertThat(LexicalRules.forFamily("presto")).isSameAs(LexicalRules.TRINO);
        assertThat(LexicalRules.forFamily("sqlite3")).isSameAs(LexicalRules.SQLITE);
        assertThat(LexicalRules.forFamily("h2")).isSameAs(LexicalRules.GENERIC);
        assertThat(LexicalRules.forFamily(null)).isSameAs(LexicalRules.GENERIC);
    }

    @Test
    void aDialectsRulesFollowItsFamilyUnlessItSaysOtherwise() {
        assertThat(dialect("mysql", null).lexicalRules()).isSameAs(LexicalRules.MYSQL);
        assertThat(dialect("generic", null).lexicalRules()).isSameAs(LexicalRules.GENERIC);
        Dialect own = dialect("foodb", LexicalRules.ANSI.named("foodb").with(Feature.HASH_COMMENTS));
        assertThat(own.sqlFamily()).isEqualTo("foodb");
        assertThat(own.lexicalRules().has(Feature.HASH_COMMENTS)).isTrue();
    }

    @Test
    void readingsAreTheRulesThenEveryAlternativeOnce() {
        assertThat(LexicalRules.MYSQL.readings()).containsExactly(LexicalRules.MYSQL);
        assertThat(LexicalRules.POSTGRES.readings()).containsExactly(LexicalRules.POSTGRES,
                LexicalRules.POSTGRES_BACKSLASH_STRINGS);
        assertThat(LexicalRules.GENERIC.readings()).containsExactly(LexicalRules.GENERIC, LexicalRules.MYSQL,
                LexicalRules.MYSQL_NO_BACKSLASH_ESCAPES, LexicalRules.POSTGRES, LexicalRules.POSTGRES_BACKSLASH_STRINGS,
                LexicalRules.SQLITE, LexicalRules.CLICKHOUSE, LexicalRules.CLICKHOUSE_FLAT_COMMENTS);
        LexicalRules twice = LexicalRules.ANSI.withAlternatives(LexicalRules.POSTGRES, LexicalRules.POSTGRES);
        assertThat(twice.readings()).hasSize(3);
    }

    @Test
    void theNamedRulesDifferWhereTheirEnginesDo() {
        assertThat(LexicalRules.CLICKHOUSE.features()).containsAll(LexicalRules.CLICKHOUSE_FLAT_COMMENTS.features());
        assertThat(LexicalRules.CLICKHOUSE.has(Feature.NESTED_COMMENTS)).isTrue();
        assertThat(LexicalRules.CLICKHOUSE_FLAT_COMMENTS.has(Feature.NESTED_COMMENTS)).isFalse();
        assertThat(LexicalRules.MYSQL.without(Feature.BACKSLASH_IN_STRINGS).features())
                .isEqualTo(LexicalRules.MYSQL_NO_BACKSLASH_ESCAPES.features());
        assertThat(LexicalRules.DUCKDB.has(Feature.FOLD_QUOTED_NAMES)).isTrue();
        assertThat(LexicalRules.POSTGRES.has(Feature.FOLD_QUOTED_NAMES)).isFalse();
        assertThat(LexicalRules.MYSQL.has(Feature.FOLD_UNQUOTED_NAMES)).isFalse();
        assertThat(LexicalRules.TRINO.features()).containsExactlyInAnyOrder(Feature.FOLD_UNQUOTED_NAMES,
                Feature.FOLD_QUOTED_NAMES);
    }

    @Test
    void rulesAreImmutableAndChecked() {
        LexicalRules r = LexicalRules.ANSI.with(Feature.HASH_COMMENTS);
        assertThat(LexicalRules.ANSI.has(Feature.HASH_COMMENTS)).isFalse();
        assertThat(r).isEqualTo(new LexicalRules("ansi", Set.of(Feature.FOLD_UNQUOTED_NAMES, Feature.HASH_COMMENTS),
                List.of()));
        assertThatThrownBy(() -> r.features().add(Feature.NESTED_COMMENTS))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> LexicalRules.ANSI.named(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LexicalRules.ANSI.with(Feature.DOLLAR_QUOTES, Feature.HEREDOCS))
                .hasMessageContaining("DOLLAR_QUOTES and HEREDOCS");
        assertThatThrownBy(() -> LexicalRules.ANSI.with(Feature.HASH_COMMENTS_NEED_SPACE_OR_BANG))
                .hasMessageContaining("needs HASH_COMMENTS");
        assertThatThrownBy(() -> new LexicalRules("x", null, List.of())).isInstanceOf(NullPointerException.class);
    }
}
