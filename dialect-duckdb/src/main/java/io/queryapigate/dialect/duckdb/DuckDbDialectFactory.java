package io.queryapigate.dialect.duckdb;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code duckdb} dialect: an embedded DuckDB database file (or {@code :memory:}) opened in process.
 *
 * <p>{@code url} is the database file's path, relative to the service's home directory unless absolute, with an
 * optional {@code jdbc:duckdb:} prefix, or {@code :memory:}. Properties are described by {@link
 * DuckDbDialectConfig}; behaviour and guarantees by {@link DuckDbDialect} and {@code docs/dialects/duckdb.md}.
 */
public final class DuckDbDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: duckdb}. */
    public static final String NAME = "duckdb";

    /** Creates the factory; stateless. */
    public DuckDbDialectFactory() {}

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
        return new DuckDbDialect(context, DuckDbDialectConfig.fromProperties(properties));
    }
}
