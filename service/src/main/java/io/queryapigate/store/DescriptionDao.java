package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Descriptions of connections' tables and columns (schema 6), one connection at a time. */
@RegisterConstructorMapper(DescriptionRow.class)
public interface DescriptionDao {
    String COLUMNS = "connection_name, schema_name, table_name, column_name, description, source, updated_at,"
            + " updated_by";
    String KEY = "connection_name = :connectionName AND schema_name = :schemaName AND table_name = :tableName"
            + " AND column_name = :columnName";

    /** A connection's descriptions: its notes first, then by schema, table and column. */
    @SqlQuery("SELECT " + COLUMNS + " FROM descriptions WHERE connection_name = :connection"
            + " ORDER BY schema_name, table_name, column_name")
    List<DescriptionRow> list(@Bind("connection") String connection);

    @SqlUpdate("INSERT INTO descriptions (" + COLUMNS + ") VALUES (:connectionName, :schemaName, :tableName,"
            + " :columnName, :description, :source, :updatedAt, :updatedBy)")
    void insert(@BindMethods DescriptionRow row);

    @SqlUpdate("UPDATE descriptions SET description = :description, source = :source, updated_at = :updatedAt,"
            + " updated_by = :updatedBy WHERE " + KEY)
    int update(@BindMethods DescriptionRow row);

    @SqlUpdate("DELETE FROM descriptions WHERE " + KEY)
    int delete(@BindMethods DescriptionRow row);

    /** Every description of a connection; how many there were. */
    @SqlUpdate("DELETE FROM descriptions WHERE connection_name = :connection")
    int deleteAll(@Bind("connection") String connection);
}
