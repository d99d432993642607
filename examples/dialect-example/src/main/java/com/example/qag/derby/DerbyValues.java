package com.example.qag.derby;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.Parameter;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Parameters into Derby and Derby's values out, as the kinds {@link io.queryapigate.dialect.spi.RowSink} takes. */
final class DerbyValues {

    private DerbyValues() {}

    /**
     * Binds the parameters in marker order; {@code java.time} values go in as the {@code java.sql} types Derby
     * takes.
     */
    static void bind(PreparedStatement statement, List<Parameter> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Parameter parameter = parameters.get(i);
            Object value = parameter.value();
            int index = i + 1;
            switch (value) {
                case null -> statement.setNull(index, parameter.type().getVendorTypeNumber());
                case LocalDate date -> statement.setDate(index, Date.valueOf(date));
                case LocalDateTime dateTime -> statement.setTimestamp(index, Timestamp.valueOf(dateTime));
                case LocalTime time -> statement.setTime(index, Time.valueOf(time));
                case OffsetDateTime dateTime -> statement.setTimestamp(index, Timestamp.from(dateTime.toInstant()));
                default -> statement.setObject(index, value);
            }
        }
    }

    /**
     * The columns of a result, or of a prepared query. Derby folds unquoted names to upper case; a name with no lower
     * case letter is reported in lower case ({@code SELECT id} gives {@code id}, as on the other engines), a quoted
     * name with lower case letters as written.
     */
    static List<ColumnInfo> columns(ResultSetMetaData metaData) throws SQLException {
        List<ColumnInfo> columns = new ArrayList<>(metaData.getColumnCount());
        for (int i = 1; i <= metaData.getColumnCount(); i++) {
            String label = metaData.getColumnLabel(i);
            String name = label.equals(label.toUpperCase(Locale.ROOT)) ? label.toLowerCase(Locale.ROOT) : label;
            Nullability nullability = switch (metaData.isNullable(i)) {
                case ResultSetMetaData.columnNoNulls -> Nullability.NO_NULLS;
                case ResultSetMetaData.columnNullable -> Nullability.NULLABLE;
                default -> Nullability.UNKNOWN;
            };
            columns.add(new ColumnInfo(name, metaData.getColumnTypeName(i), JDBCType.valueOf(metaData.getColumnType(i)),
                    nullability));
        }
        return columns;
    }

    /** The value of column {@code i} (1-based) of the current row. */
    static Object read(ResultSet rows, int i, JDBCType type) throws SQLException {
        Object value = switch (type) {
            case SMALLINT, INTEGER -> rows.getInt(i);
            case BIGINT -> rows.getLong(i);
            case DECIMAL, NUMERIC -> rows.getBigDecimal(i);
            case REAL -> rows.getFloat(i);
            case FLOAT, DOUBLE -> rows.getDouble(i);
            case BOOLEAN -> rows.getBoolean(i);
            case DATE -> rows.getDate(i);
            case TIME -> rows.getTime(i);
            case TIMESTAMP -> rows.getTimestamp(i);
            case BINARY, VARBINARY, LONGVARBINARY, BLOB -> rows.getBytes(i);
            default -> rows.getString(i); // CHAR, VARCHAR, CLOB, XML (serialized) and anything newer
        };
        if (rows.wasNull()) {
            return null;
        }
        return switch (value) {
            case Date date -> date.toLocalDate();
            case Time time -> time.toLocalTime();
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            default -> value;
        };
    }
}
