/**
 * Helpers shared by the JDBC dialects: {@link io.queryapigate.dialect.jdbc.ResultSetReader} pushes rows into a
 * {@link io.queryapigate.dialect.spi.RowSink}, {@link io.queryapigate.dialect.jdbc.ParameterBinder} binds
 * parameters, {@link io.queryapigate.dialect.jdbc.JdbcErrorMapper} classifies driver errors, and {@link
 * io.queryapigate.dialect.jdbc.TimeLimit} cancels a statement when its call's time limit passes. For the schema
 * browser (SPI 1.3), {@link io.queryapigate.dialect.jdbc.CatalogueSink} folds a catalogue query's rows into
 * bounded {@link io.queryapigate.dialect.spi.SchemaTable}s and {@link io.queryapigate.dialect.jdbc.SqlTypeNames}
 * names the nearest JDBC type of a catalogue's type name; these two need no JDBC, and the ClickHouse dialect
 * (HTTP, no driver) uses them too.
 *
 * <p>The module depends on the JDK and the SPI only. A dialect jar that uses it ships it alongside (it is not part
 * of the service), so its classes are public API with the same compatibility rules as the SPI's minor versions.
 */
package io.queryapigate.dialect.jdbc;
