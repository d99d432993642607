package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import java.util.Optional;

/** What the H2 contract tests share: H2's slow queries, and H2 reports declared nullability. */
abstract class H2ContractTest extends AbstractDialectContractTest {

    @Override
    protected String slowQuery() {
        return H2Fixtures.SLOW_QUERY;
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of(H2Fixtures.MODERATELY_SLOW_QUERY);
    }

    @Override
    protected boolean describesNullability() {
        return true;
    }
}
