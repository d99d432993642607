package io.queryapigate.dialect.postgres;

import java.util.Map;

/**
 * The dialect contract with {@code postgres.prefer_query_mode: simple}: every call is one {@code Query} message,
 * parameters rendered as literals by pgjdbc.
 */
class PostgresSimpleModeContractTest extends PostgresDialectContractTest {

    @Override
    protected Map<String, String> properties() {
        return Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, "simple");
    }
}
