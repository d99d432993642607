package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.Map;

/**
 * The {@code clickhouse} dialect: ClickHouse's HTTP interface ({@code http(s)://host:port}), spoken directly with the
 * JDK's HTTP client, for ClickHouse 18.16 and newer. Properties: see {@link ClickHouseDialectConfig}; behaviour: see
 * docs/dialects/clickhouse.md.
 */
public final class ClickHouseDialectFactory implements DialectFactory {

    /** Creates the factory (ServiceLoader). */
    public ClickHouseDialectFactory() {}

    @Override
    public String name() {
        return "clickhouse";
    }

    @Override
    public String spiVersion() {
        return DialectSpi.VERSION;
    }

    @Override
    public Dialect create(DialectContext context, Map<String, String> properties) {
        requireNonNull(context, "context is null");
        requireNonNull(properties, "properties is null");
        return new ClickHouseDialect(context, ClickHouseDialectConfig.from(properties));
    }
}
