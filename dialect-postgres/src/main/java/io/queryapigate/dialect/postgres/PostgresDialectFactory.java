package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code postgres} dialect: a PostgreSQL database reached through pgjdbc and a HikariCP pool.
 *
 * <p>{@code url} is a pgjdbc URL ({@code jdbc:postgresql://host:5432/database}, with pgjdbc options such as {@code
 * sslmode} in its query string, except {@code preferQueryMode}); {@code user} and {@code password} come from the
 * connection's fields. Properties are described by {@link PostgresDialectConfig}; behaviour and guarantees by
 * {@link PostgresDialect}, {@link PostgresSessionStrategy} and {@code docs/dialects/postgres.md}.
 */
public final class PostgresDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: postgres}. */
    public static final String NAME = "postgres";

    /** Creates the factory; stateless. */
    public PostgresDialectFactory() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String spiVersion() {
        return DialectSpi.VERSION;
    }

    @Override
    public Dialect create(DialectContext context, Map<String, String> properties) {
        requireNonNull(context, "context is null");
        requireNonNull(properties, "properties is null");
        return new PostgresDialect(context, PostgresDialectConfig.fromProperties(properties));
    }
}
