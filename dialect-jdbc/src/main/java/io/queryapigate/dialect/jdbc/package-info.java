/**
 * Helpers shared by the JDBC dialects: {@link io.queryapigate.dialect.jdbc.ResultSetReader} pushes rows into a
 * {@link io.queryapigate.dialect.spi.RowSink}, {@link io.queryapigate.dialect.jdbc.ParameterBinder} binds
 * parameters, {@link io.queryapigate.dialect.jdbc.JdbcErrorMapper} classifies driver errors, and {@link
 * io.queryapigate.dialect.jdbc.TimeLimit} cancels a statement when its call's time limit passes.
 *
 * <p>The module depends on the JDK and the SPI only. A dialect jar that uses it ships it alongside (it is not part
 * of the service), so its classes are public API with the same compatibility rules as the SPI's minor versions.
 */
package io.queryapigate.dialect.jdbc;
