package io.queryapigate.dialect.mongo;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code mongo} dialect: a MongoDB server (or one speaking its protocol, such as FerretDB) through the official
 * synchronous Java driver, read-only.
 *
 * <p>{@code url} is a MongoDB connection string, {@code mongodb://host:port/database} or {@code
 * mongodb+srv://...}; the connection's {@code user} and {@code password} become its credential. Properties are
 * described by {@link MongoDialectConfig}; behaviour and guarantees by {@link MongoDialect} and {@code
 * docs/dialects/mongo.md}.
 */
public final class MongoDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: mongo}, as in the Python original. */
    public static final String NAME = "mongo";

    /** Creates the factory; stateless. */
    public MongoDialectFactory() {}

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
        return new MongoDialect(context, MongoDialectConfig.fromProperties(properties));
    }
}
