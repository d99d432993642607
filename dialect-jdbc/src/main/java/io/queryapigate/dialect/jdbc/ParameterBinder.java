package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Binds {@link Parameter}s to a {@link PreparedStatement}, in order, as real parameters.
 *
 * <p>Each value kind the SPI allows goes through the setter made for it ({@code setLong}, {@code setDouble},
 * {@code setBigDecimal}, {@code setString}, {@code setBoolean}); {@code java.time} values go through the JDBC 4.2
 * {@code setObject(int, Object)}, which PostgreSQL, MySQL and DuckDB map to their own date and time types; a SQL
 * NULL goes through {@code setNull} with the parameter's declared type. The three-argument {@code setObject(int,
 * Object, int)} is avoided on purpose: some drivers (DuckDB 1.5) reject target type codes they do not know.
 *
 * <p>Stateless; dialects override {@link #bind(PreparedStatement, int, Parameter)} for driver quirks.
 */
public class ParameterBinder {

    /** Creates a binder with the standard JDBC setters. */
    public ParameterBinder() {}

    /**
     * Binds every parameter, the first to marker 1.
     *
     * @param statement the prepared statement
     * @param parameters the values, in marker order
     * @throws SQLException when the driver refuses a value
     * @throws DialectException with {@link DialectError#INTERNAL} when a value is not one of the SPI's kinds
     */
    public void bindAll(PreparedStatement statement, List<Parameter> parameters) throws SQLException {
        requireNonNull(statement, "statement is null");
        requireNonNull(parameters, "parameters is null");
        for (int i = 0; i < parameters.size(); i++) {
            bind(statement, i + 1, requireNonNull(parameters.get(i), "parameter is null"));
        }
    }

    /**
     * Binds one parameter.
     *
     * @param statement the prepared statement
     * @param index the 1-based marker index
     * @param parameter the parameter
     * @throws SQLException when the driver refuses the value
     * @throws DialectException with {@link DialectError#INTERNAL} when the value is not one of the SPI's kinds
     */
    protected void bind(PreparedStatement statement, int index, Parameter parameter) throws SQLException {
        Object value = parameter.value();
        switch (value) {
            case null -> statement.setNull(index, parameter.type().getVendorTypeNumber());
            case Long l -> statement.setLong(index, l);
            case Integer i -> statement.setInt(index, i);
            case Double d -> statement.setDouble(index, d);
            case BigDecimal d -> statement.setBigDecimal(index, d);
            case String s -> statement.setString(index, s);
            case Boolean b -> statement.setBoolean(index, b);
            case LocalDate d -> statement.setObject(index, d);
            case LocalDateTime d -> statement.setObject(index, d);
            case OffsetDateTime d -> statement.setObject(index, d);
            default -> throw new DialectException(
                    DialectError.INTERNAL,
                    "parameter '" + parameter.name() + "' has an unsupported value type "
                            + value.getClass().getName());
        }
    }
}
