package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.JdbcValues;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TypeInfo;
import org.postgresql.jdbc.PgResultSet;
import org.postgresql.util.PGobject;

/**
 * pgjdbc's result sets as RowSink values.
 *
 * <p>Columns are described from the result's type OIDs through the connection's type cache, not through {@code
 * ResultSetMetaData.getColumnTypeName}: pgjdbc answers that one by asking the server about the columns' tables
 * (whether they are serial), one extra round trip the first time a connection returns a table's columns, and it
 * would call a {@code bigint} column {@code bigserial}. Types outside pgjdbc's built-in list (enums, domains,
 * extensions) still cost one lookup per connection, the first time.
 *
 * <p>pgjdbc reports {@code timestamptz} and {@code timetz} as plain {@code TIMESTAMP} and {@code TIME}; they are
 * described here as {@link JDBCType#TIMESTAMP_WITH_TIMEZONE} (read as {@code OffsetDateTime}) and {@link
 * JDBCType#TIME_WITH_TIMEZONE} (read as text: the SPI has no offset time). {@code money} and {@code interval} are
 * read as the server's text; other pgjdbc objects ({@code json}, {@code jsonb}, {@code inet}, geometric types,
 * ...) as their text value.
 *
 * <p>Stateless and thread-safe.
 */
final class PostgresResultSetReader extends ResultSetReader {

    /**
     * Describes a result's columns without a round trip.
     *
     * @param result the result
     * @param connection the pgjdbc connection it came from
     * @return the columns, in order
     * @throws SQLException when the driver fails
     */
    List<ColumnInfo> columns(ResultSet result, BaseConnection connection) throws SQLException {
        ResultSetMetaData metaData = result.getMetaData();
        PgResultSet pg = result.unwrap(PgResultSet.class);
        TypeInfo types = connection.getTypeInfo();
        int count = metaData.getColumnCount();
        List<ColumnInfo> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String label = metaData.getColumnLabel(i);
            int oid = pg.getColumnOID(i);
            String typeName = types.getPGType(oid);
            typeName = typeName == null ? "" : typeName;
            columns.add(new ColumnInfo(label == null ? "" : label, typeName, jdbcType(typeName, types.getSQLType(oid))));
        }
        return List.copyOf(columns);
    }

    /**
     * Describes a statement's columns from its prepared statement's metadata (for {@code Dialect.describe}): the
     * same names, type names and JDBC types as {@link #columns(ResultSet, BaseConnection)}. pgjdbc calls an
     * auto-increment column by its {@code serial} pseudo-type, which is not a type of the result: it is named by
     * the integer type it stands for.
     */
    @Override
    public List<ColumnInfo> columns(ResultSetMetaData metaData) throws SQLException {
        int count = metaData.getColumnCount();
        List<ColumnInfo> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String label = metaData.getColumnLabel(i);
            String typeName = switch (String.valueOf(metaData.getColumnTypeName(i))) {
                case "serial" -> "int4";
                case "bigserial" -> "int8";
                case "smallserial" -> "int2";
                case "null" -> "";
                case String name -> name;
            };
            columns.add(new ColumnInfo(label == null ? "" : label, typeName, jdbcType(typeName, metaData.getColumnType(i))));
        }
        return List.copyOf(columns);
    }

    private static JDBCType jdbcType(String typeName, int sqlType) {
        return switch (typeName.toLowerCase(Locale.ROOT)) {
            case "timestamptz" -> JDBCType.TIMESTAMP_WITH_TIMEZONE;
            case "timetz" -> JDBCType.TIME_WITH_TIMEZONE;
            default -> JdbcValues.jdbcType(sqlType);
        };
    }

    /**
     * Reads a whole result (up to {@code maxRows}) into the sink, as {@link ResultSetReader#read} does, with the
     * columns described by {@link #columns(ResultSet, BaseConnection)}.
     *
     * @param result the result, before its first row; the caller closes it
     * @param connection the pgjdbc connection
     * @param sink the sink
     * @param maxRows the most rows to deliver
     * @param stopRequested checked before each row
     * @return the rows delivered and whether more were available
     * @throws SQLException when the driver fails
     */
    QueryStats read(ResultSet result, BaseConnection connection, RowSink sink, long maxRows, BooleanSupplier stopRequested)
            throws SQLException {
        requireNonNull(sink, "sink is null");
        List<ColumnInfo> columns = columns(result, connection);
        ColumnReader[] readers = readers(columns);
        sink.columns(columns);
        Object[] values = new Object[readers.length];
        long rows = 0;
        while (!stopRequested.getAsBoolean()) {
            if (rows == maxRows) {
                return QueryStats.read(rows, result.next());
            }
            if (!result.next()) {
                break;
            }
            for (int i = 0; i < readers.length; i++) {
                values[i] = readers[i].read(result, i + 1);
            }
            rows++;
            if (!sink.row(values)) {
                break;
            }
        }
        return QueryStats.read(rows, false);
    }

    @Override
    protected ColumnReader readerFor(ColumnInfo column) {
        String type = column.typeName().toLowerCase(Locale.ROOT);
        if (column.type() == JDBCType.TIME_WITH_TIMEZONE || type.equals("money") || type.equals("interval")) {
            return ResultSet::getString;
        }
        return super.readerFor(column);
    }

    @Override
    protected Object normalize(Object value) throws SQLException {
        if (value instanceof PGobject object) {
            return object.getValue();
        }
        return super.normalize(value);
    }

    /**
     * The column readers for a result, so that the batches of a streaming read share them.
     *
     * @param columns the result's columns
     * @return one reader per column
     */
    ColumnReader[] readers(List<ColumnInfo> columns) {
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = requireNonNull(readerFor(columns.get(i)), "readerFor returned null");
        }
        return readers;
    }
}
