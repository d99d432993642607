package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code mysql} dialect, for MySQL 5.7.8+ / 8.x and MariaDB 10.1.2+ through MySQL Connector/J. The flavour is
 * detected at connect. Properties: see {@link MySqlDialectConfig}.
 */
public final class MySqlDialectFactory implements DialectFactory {

    /** Creates the factory (ServiceLoader). */
    public MySqlDialectFactory() {}

    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public String spiVersion() {
        return DialectSpi.VERSION;
    }

    @Override
    public Dialect create(DialectContext context, Map<String, String> properties) {
        requireNonNull(context, "context is null");
        requireNonNull(properties, "properties is null");
        return new MySqlDialect(context, MySqlDialectConfig.from(properties));
    }
}
