package io.queryapigate.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.Quota;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A key made from a role never gets more than the role: every field tried with a key that asks for more. */
class NarrowingTest {
    private static final Grants ROLE = new Grants(List.of("sales", "hr"), List.of("film", "films"), false, true,
            List.of("insert"), List.of("film", "main.actor"), List.of("10.0.0.0/8"),
            List.of(new MaskRule("film.title", "null", null, null)), "60/minute", new Quota(100L, null, "day"), 50,
            2, new BigDecimal("5"));

    private static Grants key(List<String> connections, List<String> queries) {
        return new Grants(connections, queries, true, true, null, null, null, null, null, null, null, null, null);
    }

    @Test
    void aKeyAsTheRoleGetsExactlyTheRole() {
        assertThat(Narrowing.apply(ROLE, Narrowing.AS_THE_ROLE)).isEqualTo(ROLE);
    }

    @Test
    void reachIsOnlyWhatBothHave() {
        Grants g = Narrowing.apply(ROLE, key(List.of("*", "sales", "finance"), List.of("film", "secret")));
        assertThat(g.connections()).as("'*' on the key is the role's list, never all").containsExactly("sales", "hr");
        g = Narrowing.apply(ROLE, key(List.of("sales", "finance"), List.of("film", "secret", "*")));
        assertThat(g.connections()).containsExactly("sales");
        assertThat(g.queries()).containsExactly("film", "films");
        g = Narrowing.apply(ROLE, key(List.of("finance"), List.of("secret")));
        assertThat(g.connections()).isEmpty();
        assertThat(g.queries()).isEmpty();
        assertThat(g.adhocSql()).as("the role has no ad-hoc SQL: the key cannot add it").isFalse();
        Grants everything = new Grants(List.of("*"), List.of("*"), true, true, null, null, null, null, null, null,
                null, null, null);
        assertThat(Narrowing.apply(everything, key(List.of("sales"), List.of()))).satisfies(n -> {
            assertThat(n.connections()).containsExactly("sales");
            assertThat(n.queries()).isEmpty();
        });
    }

    @Test
    void restrictionsOnlyTighten() {
        Grants wider = new Grants(List.of("*"), List.of("*"), true, true, List.of("insert", "delete", "drop"),
                List.of("film", "payment"), List.of("0.0.0.0/0", "10.1.0.0/16", "192.168.1.1"), null, "1000/second",
                new Quota(1_000_000L, 5L, "day"), 1_000_000, 1000, new BigDecimal("86400"));
        Grants g = Narrowing.apply(ROLE, wider);
        assertThat(g.allowedWriteOps()).containsExactly("insert");
        assertThat(g.allowedTables()).containsExactly("film");
        assertThat(g.allowedIps()).as("only the key's ranges inside the role's").containsExactly("10.1.0.0/16");
        assertThat(g.mask()).isEqualTo(ROLE.mask());
        assertThat(g.rateLimit()).isEqualTo("60/minute");
        assertThat(g.quota()).isEqualTo(new Quota(100L, 5L, "day"));
        assertThat(g.maxRows()).isEqualTo(50);
        assertThat(g.maxConcurrent()).isEqualTo(2);
        assertThat(g.queryTimeout()).isEqualByComparingTo("5");

        Grants tighter = new Grants(List.of("*"), List.of("*"), true, true, List.of(), List.of(), List.of(),
                List.of(new MaskRule("film.title", "fixed", "x", null, true), new MaskRule("film.year", "null",
                        null, null)), "1/second", new Quota(10L, null, "month"), 5, 1, new BigDecimal("0.5"));
        g = Narrowing.apply(ROLE, tighter);
        assertThat(g.allowedWriteOps()).isEmpty();
        assertThat(g.allowedTables()).isEmpty();
        assertThat(g.allowedIps()).isEmpty();
        assertThat(g.mask()).as("the role's rule stays, made strict; the key's other column is added")
                .containsExactly(new MaskRule("film.title", "null", null, null, true),
                        new MaskRule("film.year", "null", null, null));
        assertThat(g.rateLimit()).as("1/second is 60/minute: not lower, the role's stays").isEqualTo("60/minute");
        assertThat(Narrowing.apply(ROLE, key(List.of("*"), List.of("*"))).rateLimit()).isEqualTo("60/minute");
        assertThat(g.quota()).as("another period: the role's").isEqualTo(ROLE.quota());
        assertThat(g.maxRows()).isEqualTo(5);
        assertThat(g.queryTimeout()).isEqualByComparingTo("0.5");
    }

    @Test
    void aLowerRateWins() {
        Grants own = new Grants(List.of("*"), List.of("*"), true, true, null, null, null, null, "59/minute", null,
                null, null, null);
        assertThat(Narrowing.apply(ROLE, own).rateLimit()).isEqualTo("59/minute");
        Grants unlimitedRole = Narrowing.AS_THE_ROLE;
        assertThat(Narrowing.apply(unlimitedRole, own).rateLimit()).isEqualTo("59/minute");
    }

    @Test
    void aRangeBeyondTheRoleIsNamed() {
        assertThat(Narrowing.rangesBeyond(List.of("10.0.0.0/8"), List.of("10.2.0.0/16", "10.0.0.0/7", "::1")))
                .containsExactly("10.0.0.0/7", "::1");
        assertThat(Narrowing.rangesBeyond(null, List.of("0.0.0.0/0"))).isEmpty();
        assertThat(Narrowing.beyond(List.of("a"), List.of("*", "a", "b"))).containsExactly("b");
        assertThat(Narrowing.beyond(List.of("*"), List.of("b"))).isEmpty();
    }
}
