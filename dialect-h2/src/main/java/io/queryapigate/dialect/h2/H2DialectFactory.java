package io.queryapigate.dialect.h2;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;
import java.util.Set;

/**
 * The {@code h2} dialect: an embedded H2 database file, or a database on an H2 TCP server.
 *
 * <p>{@code url} is a database path relative to the service's home directory unless absolute (with or without
 * {@code .mv.db}), a {@code jdbc:h2:file:} URL, or a {@code jdbc:h2:tcp://host:port/path} URL, optionally followed
 * by {@code ;KEY=value} settings from a short list ({@code MODE}, {@code DATABASE_TO_LOWER}, ...). Properties are
 * described by {@link H2DialectConfig}; behaviour by {@link H2Dialect} and {@code docs/dialects/h2.md}.
 */
public final class H2DialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: h2}. */
    public static final String NAME = "h2";

    /** Creates the factory; stateless. */
    public H2DialectFactory() {}

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
        return new H2Dialect(context, H2DialectConfig.fromProperties(properties));
    }

    @Override
    public Set<String> sensitivePropertyNames() {
        return Set.of();
    }
}
