package io.queryapigate.dialect.spi;

import java.sql.JDBCType;
import java.util.Objects;

/**
 * One bound parameter, already validated and converted by the service.
 *
 * <p>{@code value} is {@code null} (SQL NULL) or one of: {@link Long}, {@link Double}, {@link java.math.BigDecimal},
 * {@link String}, {@link Boolean}, {@link java.time.LocalDate}, {@link java.time.LocalDateTime}, {@link
 * java.time.OffsetDateTime}. {@code type} is the declared SQL type, which dialects that must render literals (or
 * need a type for NULL) use.
 *
 * @param name the parameter's name in the saved query ({@code id} for {@code :id})
 * @param value the value, or null
 * @param type the declared type
 */
public record Parameter(String name, Object value, JDBCType type) {
    /** Validates the fields. */
    public Parameter {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(type, "type is null");
    }
}
