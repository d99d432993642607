/**
 * The {@code clickhouse} dialect: ClickHouse's HTTP interface spoken with {@link java.net.http.HttpClient}, rows
 * streamed from {@code TabSeparatedWithNamesAndTypes}, parameters rendered as escaped literals. Entry point: {@link
 * io.queryapigate.dialect.clickhouse.ClickHouseDialectFactory}.
 */
package io.queryapigate.dialect.clickhouse;
