package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every case of {@link GuardCorpus}. */
class SqlGuardCorpusTest {
    private static final SqlGuard GUARD = new SqlGuard();

    static Stream<GuardCase> cases() {
        return GuardCorpus.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void corpus(GuardCase c) {
        c.verify(GUARD);
    }

    @Test
    void theCorpusIsLargeAndCoversEveryCodeAndDialect() {
        List<GuardCase> all = GuardCorpus.all();
        assertThat(all).hasSizeGreaterThanOrEqualTo(300);
        Set<String> codes = all.stream().filter(GuardCase::expectsRefusal)
                .map(c -> c.expectation().split("\\s+")[0]).collect(Collectors.toCollection(TreeSet::new));
        Set<String> want = GuardCase.codes();
        want.remove(GuardException.SQL_TOO_LONG);
        assertThat(codes).containsAll(want);
        Set<SqlDialectFamily> dialects = all.stream().map(GuardCase::dialect)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(SqlDialectFamily.class)));
        assertThat(dialects).containsExactlyInAnyOrder(SqlDialectFamily.values());
        long refusals = all.stream().filter(GuardCase::expectsRefusal).count();
        assertThat(refusals).isGreaterThan(150);
        assertThat(all.size() - refusals).isGreaterThan(100);
    }
}
