package io.queryapigate.dialect.trino;

import io.queryapigate.dialect.jdbc.JdbcValues;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.trino.jdbc.Row;
import io.trino.jdbc.RowField;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * trino-jdbc 476 specifics, measured:
 *
 * <ul>
 *   <li>{@code timestamp(p) with time zone}: {@code getObject} returns a {@code java.sql.Timestamp} shifted into the
 *       JVM's zone and {@code getObject(i, OffsetDateTime.class)} is refused; {@code getObject(i,
 *       ZonedDateTime.class)} keeps the value and its zone, and becomes an {@link java.time.OffsetDateTime} (a named
 *       zone such as {@code Europe/Paris} becomes its offset at that instant);
 *   <li>{@code time(p)}: {@code getObject(i, LocalTime.class)} is refused and {@code java.sql.Time} drops the
 *       fraction; the text form is parsed instead ({@code time(p) with time zone} stays text, the SPI has no
 *       offset time);
 *   <li>{@code row(...)} arrives as {@link Row}: it becomes a {@link Map} keyed by the field names, or {@code f1,
 *       f2, ...} for anonymous fields (as {@link JdbcValues} names {@code Struct} attributes);
 *   <li>{@code map(k, v)} arrives as a {@link Map}, {@code array(t)} as a {@code java.sql.Array}: both are converted
 *       element by element, at every depth, by {@link #normalize};
 *   <li>{@code uuid} arrives as text and becomes a {@link UUID}; {@code json}, {@code ipaddress} and intervals stay
 *       text.
 * </ul>
 */
final class TrinoResultSetReader extends ResultSetReader {

    @Override
    protected ColumnReader readerFor(ColumnInfo column) {
        return switch (column.type()) {
            case DATE -> (rs, i) -> rs.getObject(i, LocalDate.class);
            case TIMESTAMP -> (rs, i) -> {
                try {
                    return rs.getObject(i, LocalDateTime.class);
                } catch (SQLException beyondNanos) {
                    // timestamp(10..12): picoseconds do not fit java.time
                    return rs.getString(i);
                }
            };
            case TIMESTAMP_WITH_TIMEZONE -> (rs, i) -> {
                try {
                    ZonedDateTime zoned = rs.getObject(i, ZonedDateTime.class);
                    return zoned == null ? null : zoned.toOffsetDateTime();
                } catch (SQLException beyondNanos) {
                    return rs.getString(i);
                }
            };
            case TIME -> (rs, i) -> {
                String text = rs.getString(i);
                if (text == null) {
                    return null;
                }
                try {
                    return LocalTime.parse(text);
                } catch (DateTimeParseException beyondNanos) {
                    return text;
                }
            };
            case TIME_WITH_TIMEZONE -> (rs, i) -> rs.getString(i);
            case JAVA_OBJECT, OTHER -> column.typeName().toLowerCase(Locale.ROOT).equals("uuid")
                    ? (rs, i) -> {
                        String text = rs.getString(i);
                        return text == null ? null : UUID.fromString(text);
                    }
                    : (rs, i) -> normalize(rs.getObject(i));
            default -> super.readerFor(column);
        };
    }

    @Override
    protected Object normalize(Object value) throws SQLException {
        if (value instanceof Row row) {
            Map<String, Object> map = new LinkedHashMap<>();
            int position = 0;
            for (RowField field : row.getFields()) {
                position++;
                map.put(field.getName().orElse("f" + position), normalize(field.getValue()));
            }
            return map;
        }
        return super.normalize(value);
    }
}
