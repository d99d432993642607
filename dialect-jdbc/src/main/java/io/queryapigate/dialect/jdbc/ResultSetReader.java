package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Pushes a {@link ResultSet} into a {@link RowSink}: the columns once, then one reused {@code Object[]} per row,
 * with values converted to the RowSink kinds.
 *
 * <p>Reading stops at {@code maxRows} (one more {@code next()} tells whether the result was truncated), when the
 * sink's {@link RowSink#row} returns {@code false}, or when {@code stopRequested} turns true (checked before each
 * row, so that a cancelled or timed-out call stops even while the driver keeps handing out buffered rows).
 *
 * <p>Dialects adapt it by overriding {@link #readerFor} (how a column is fetched) or {@link #normalize} (how a
 * driver object is converted). Instances are stateless and may be shared between threads.
 */
public class ResultSetReader {

    /** Creates a reader with the standard JDBC conversions. */
    public ResultSetReader() {}

    /**
     * Describes the result's columns.
     *
     * @param metaData the result's metadata
     * @return one entry per column, in order
     * @throws SQLException when the driver fails
     */
    public List<ColumnInfo> columns(ResultSetMetaData metaData) throws SQLException {
        requireNonNull(metaData, "metaData is null");
        int count = metaData.getColumnCount();
        List<ColumnInfo> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String label = metaData.getColumnLabel(i);
            String typeName = metaData.getColumnTypeName(i);
            columns.add(new ColumnInfo(
                    label == null ? "" : label,
                    typeName == null ? "" : typeName,
                    JdbcValues.jdbcType(metaData.getColumnType(i))));
        }
        return List.copyOf(columns);
    }

    /**
     * Describes the columns of a statement that has not run, from its prepared statement's metadata: as {@link
     * #columns}, with each column's nullability where the driver knows it ({@link #nullability}). For {@link
     * io.queryapigate.dialect.spi.Dialect#describe}; not for reading rows (some drivers ask the server for
     * nullability).
     *
     * @param metaData the prepared statement's result metadata, or null when the statement returns no rows
     * @return one entry per column, in order; empty when {@code metaData} is null
     * @throws SQLException when the driver fails
     */
    public List<ColumnInfo> describe(ResultSetMetaData metaData) throws SQLException {
        if (metaData == null) {
            return List.of();
        }
        List<ColumnInfo> columns = columns(metaData);
        List<ColumnInfo> described = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo c = columns.get(i);
            described.add(new ColumnInfo(c.name(), c.typeName(), c.type(), nullability(metaData, i + 1)));
        }
        return List.copyOf(described);
    }

    /**
     * Whether a described column can hold NULL: {@link ResultSetMetaData#isNullable}'s answer. Dialects whose driver
     * answers without knowing (DuckDB's says "nullable" for every column) override it.
     *
     * @param metaData the metadata
     * @param column the 1-based column index
     * @return the nullability
     * @throws SQLException when the driver fails
     */
    protected Nullability nullability(ResultSetMetaData metaData, int column) throws SQLException {
        return switch (metaData.isNullable(column)) {
            case ResultSetMetaData.columnNoNulls -> Nullability.NO_NULLS;
            case ResultSetMetaData.columnNullable -> Nullability.NULLABLE;
            default -> Nullability.UNKNOWN;
        };
    }

    /**
     * Reads the whole result (up to {@code maxRows}) into {@code sink}.
     *
     * @param resultSet the open result, positioned before the first row; the caller closes it
     * @param sink where the columns and rows go
     * @param maxRows the most rows to deliver; positive
     * @param stopRequested checked before each row; when it returns true reading ends early and the caller decides
     *     how to report it
     * @return the rows delivered and whether more were available past {@code maxRows}
     * @throws SQLException when the driver fails
     */
    public QueryStats read(ResultSet resultSet, RowSink sink, long maxRows, BooleanSupplier stopRequested)
            throws SQLException {
        requireNonNull(resultSet, "resultSet is null");
        requireNonNull(sink, "sink is null");
        requireNonNull(stopRequested, "stopRequested is null");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1");
        }
        List<ColumnInfo> columns = columns(resultSet.getMetaData());
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = requireNonNull(readerFor(columns.get(i)), "readerFor returned null");
        }
        sink.columns(columns);

        Object[] values = new Object[readers.length];
        long rows = 0;
        while (!stopRequested.getAsBoolean()) {
            if (rows == maxRows) {
                return QueryStats.read(rows, resultSet.next());
            }
            if (!resultSet.next()) {
                break;
            }
            for (int i = 0; i < readers.length; i++) {
                values[i] = readers[i].read(resultSet, i + 1);
            }
            rows++;
            if (!sink.row(values)) {
                break;
            }
        }
        return QueryStats.read(rows, false);
    }

    /**
     * How one column is fetched and converted. The default uses the {@code java.time} accessors for time types
     * (which avoid the JVM time zone that {@code java.sql.Timestamp} goes through), {@code getBytes} for binary
     * types, and {@code getObject} followed by {@link #normalize} for everything else.
     *
     * @param column the column
     * @return the reader for its values; never null
     */
    protected ColumnReader readerFor(ColumnInfo column) {
        return switch (column.type()) {
            case TIMESTAMP -> (rs, i) -> rs.getObject(i, LocalDateTime.class);
            case TIMESTAMP_WITH_TIMEZONE -> (rs, i) -> rs.getObject(i, OffsetDateTime.class);
            case TIME -> (rs, i) -> rs.getObject(i, LocalTime.class);
            case BINARY, VARBINARY, LONGVARBINARY -> ResultSet::getBytes;
            default -> (rs, i) -> normalize(rs.getObject(i));
        };
    }

    /**
     * Converts one driver object (also nested ones) to a RowSink kind. Dialects override it to recognise their
     * driver's own classes and delegate the rest to {@code super}.
     *
     * @param value the driver object, or null
     * @return the converted value
     * @throws SQLException when reading from the driver fails
     */
    protected Object normalize(Object value) throws SQLException {
        return JdbcValues.normalize(value, this::normalize);
    }

    /** Fetches one column's value from the current row. */
    @FunctionalInterface
    public interface ColumnReader {
        /**
         * Reads the value.
         *
         * @param resultSet the result, positioned on a row
         * @param column the 1-based column index
         * @return the converted value, or null
         * @throws SQLException when the driver fails
         */
        Object read(ResultSet resultSet, int column) throws SQLException;
    }
}
