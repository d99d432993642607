package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.JDBCType;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads SQLite results by the columns' declared types ({@link SqliteTypes}), since SQLite itself only has storage
 * classes: a {@code BOOLEAN} column's 0/1 become booleans, a {@code DATE} or {@code TIMESTAMP} column's ISO-8601
 * text ({@code 2024-01-15}, {@code 2024-01-15 10:30:00}, the forms SQLite's date functions write) becomes a date
 * or a date-time, a {@code DECIMAL(p,s)} column's value a {@code BigDecimal} of scale {@code s}, a {@code BIGINT}
 * column's value a {@code Long}. A value that does not fit its column's declared type (text in a {@code DATE}
 * column that is not a date, a number stored as Unix time) is delivered as stored. A column without a declared
 * type (an expression) has the JDBC type of the driver's guess from the first row and its values as stored.
 */
final class SqliteResultSetReader extends ResultSetReader {

    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .toFormatter();

    @Override
    public List<ColumnInfo> columns(ResultSetMetaData metaData) throws SQLException {
        List<ColumnInfo> driver = super.columns(metaData);
        List<ColumnInfo> columns = new ArrayList<>(driver.size());
        for (int i = 0; i < driver.size(); i++) {
            ColumnInfo c = driver.get(i);
            String declared = declaredType(metaData, i + 1);
            columns.add(declared == null ? c : new ColumnInfo(c.name(), declared, SqliteTypes.of(declared)));
        }
        return List.copyOf(columns);
    }

    /** SQLite knows NOT NULL only for a column of a table; the driver says so for those and "nullable" otherwise. */
    @Override
    protected Nullability nullability(ResultSetMetaData metaData, int column) throws SQLException {
        if (declaredType(metaData, column) == null) {
            return Nullability.UNKNOWN;
        }
        return super.nullability(metaData, column);
    }

    /**
     * The column's declared type, or null for an expression (the driver then names a storage class). The driver
     * drops a declared type's parameters but reports a decimal's precision and scale: they are put back, so that
     * {@code DECIMAL(12,2)} reads as it does in the schema browser and keeps its scale.
     */
    static String declaredType(ResultSetMetaData metaData, int column) throws SQLException {
        String table = metaData.getTableName(column);
        String typeName = metaData.getColumnTypeName(column);
        if (table == null || table.isEmpty() || typeName == null || typeName.isBlank()) {
            return null;
        }
        JDBCType type = SqliteTypes.of(typeName);
        int precision = metaData.getPrecision(column);
        if ((type == JDBCType.DECIMAL || type == JDBCType.NUMERIC) && precision > 0 && typeName.indexOf('(') < 0) {
            return typeName + "(" + precision + "," + metaData.getScale(column) + ")";
        }
        return typeName;
    }

    @Override
    protected ColumnReader readerFor(ColumnInfo column) {
        return switch (column.type()) {
            case BOOLEAN, BIT -> (rs, i) -> bool(rs.getObject(i));
            case DATE -> (rs, i) -> date(rs.getObject(i));
            case TIMESTAMP -> (rs, i) -> dateTime(rs.getObject(i));
            case TIME -> (rs, i) -> time(rs.getObject(i));
            case DECIMAL, NUMERIC -> decimal(SqliteTypes.scale(column.typeName()));
            case BIGINT -> (rs, i) -> rs.getObject(i) instanceof Integer n ? Long.valueOf(n) : normalize(rs.getObject(i));
            case DOUBLE, FLOAT, REAL -> (rs, i) -> rs.getObject(i) instanceof Number n && !(n instanceof Double)
                    ? n.doubleValue() : normalize(rs.getObject(i));
            case BLOB, BINARY, VARBINARY, LONGVARBINARY -> (rs, i) -> normalize(rs.getObject(i));
            default -> (rs, i) -> normalize(rs.getObject(i));
        };
    }

    private static Object bool(Object value) {
        return value instanceof Number n && (n.longValue() == 0 || n.longValue() == 1) && n.doubleValue() == n.longValue()
                ? n.longValue() == 1 : value;
    }

    private static Object date(Object value) {
        if (value instanceof String text && text.length() >= 10) {
            try {
                return text.length() == 10 ? LocalDate.parse(text) : LocalDateTime.parse(text, DATE_TIME).toLocalDate();
            } catch (DateTimeParseException notADate) {
                return value;
            }
        }
        return value;
    }

    private static Object dateTime(Object value) {
        if (value instanceof String text && text.length() >= 10) {
            try {
                return text.length() == 10 ? LocalDate.parse(text).atStartOfDay() : LocalDateTime.parse(text, DATE_TIME);
            } catch (DateTimeParseException notADateTime) {
                return value;
            }
        }
        return value;
    }

    private static Object time(Object value) {
        if (value instanceof String text) {
            try {
                return LocalTime.parse(text);
            } catch (DateTimeParseException notATime) {
                return value;
            }
        }
        return value;
    }

    private static ColumnReader decimal(OptionalInt scale) {
        return (ResultSet rs, int i) -> {
            Object value = rs.getObject(i);
            BigDecimal decimal = switch (value) {
                case Integer n -> BigDecimal.valueOf(n.longValue());
                case Long n -> BigDecimal.valueOf(n);
                // the shortest text that reads back as the same double: 1234.5, not 1234.49999999999995452526491135
                case Double d when Double.isFinite(d) -> new BigDecimal(Double.toString(d));
                case String s -> parse(s);
                case null, default -> null;
            };
            if (decimal == null) {
                return value;
            }
            return scale.isPresent() ? decimal.setScale(scale.getAsInt(), RoundingMode.HALF_EVEN) : decimal;
        };
    }

    private static BigDecimal parse(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }
}
