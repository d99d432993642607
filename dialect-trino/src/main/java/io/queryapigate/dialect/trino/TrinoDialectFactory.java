package io.queryapigate.dialect.trino;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;
import java.util.Set;

/**
 * The {@code trino} dialect, for Trino through trino-jdbc 476 (tested on Trino 476; parameterised calls need a
 * server with {@code EXECUTE IMMEDIATE}).
 *
 * <p>{@code url} is {@code jdbc:trino://host:port[/catalog[/schema]]}; {@code user} is required, {@code password}
 * needs {@code trino.ssl=true}. Properties are described by {@link TrinoDialectConfig}; behaviour and guarantees by
 * {@link TrinoDialect}, {@link TrinoSessionStrategy} and {@code docs/dialects/trino.md}.
 */
public final class TrinoDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: trino}. */
    public static final String NAME = "trino";

    /** Creates the factory (ServiceLoader); stateless. */
    public TrinoDialectFactory() {}

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
        return new TrinoDialect(context, TrinoDialectConfig.from(properties));
    }

    @Override
    public Set<String> sensitivePropertyNames() {
        return Set.of(TrinoDialectConfig.TRUSTSTORE_PASSWORD_KEY);
    }
}
