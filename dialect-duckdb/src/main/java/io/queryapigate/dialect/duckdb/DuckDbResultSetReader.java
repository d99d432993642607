package io.queryapigate.dialect.duckdb;

import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import org.duckdb.DuckDBStruct;
import org.duckdb.JsonNode;

/** Reads DuckDB results: structs keep their field names, JSON stays text, BLOBs become bytes. */
final class DuckDbResultSetReader extends ResultSetReader {

    @Override
    protected ColumnReader readerFor(ColumnInfo column) {
        return switch (column.type()) {
            // getObject(i, LocalDate.class) turns '-infinity' into a positive year in driver 1.5.6; getObject(i) does not
            case DATE -> (rs, i) -> normalize(rs.getObject(i));
            case BLOB -> ResultSet::getBytes;
            default -> super.readerFor(column);
        };
    }

    /** Unknown: the driver answers "nullable" for every column, NOT NULL ones included. */
    @Override
    protected Nullability nullability(ResultSetMetaData metaData, int column) {
        return Nullability.UNKNOWN;
    }

    @Override
    protected Object normalize(Object value) throws SQLException {
        if (value instanceof DuckDBStruct struct) {
            return super.normalize(struct.getMap());
        }
        if (value instanceof JsonNode json) {
            return json.toString();
        }
        return super.normalize(value);
    }
}
