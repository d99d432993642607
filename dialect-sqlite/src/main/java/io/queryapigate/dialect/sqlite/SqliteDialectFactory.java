package io.queryapigate.dialect.sqlite;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code sqlite} dialect: a SQLite database file opened in process through xerial's sqlite-jdbc.
 *
 * <p>{@code url} is the database file's path, relative to the service's home directory unless absolute, with an
 * optional {@code jdbc:sqlite:} prefix. Properties are described by {@link SqliteDialectConfig}; behaviour and
 * guarantees by {@link SqliteDialect} and {@code docs/dialects/sqlite.md}.
 */
public final class SqliteDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: sqlite}. */
    public static final String NAME = "sqlite";

    /** Creates the factory; stateless. */
    public SqliteDialectFactory() {}

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
        return new SqliteDialect(context, SqliteDialectConfig.fromProperties(properties));
    }
}
