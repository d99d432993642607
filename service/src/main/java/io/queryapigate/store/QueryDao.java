package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

@RegisterConstructorMapper(SavedQueryRow.class)
@RegisterConstructorMapper(QueryVersionRow.class)
public interface QueryDao {
    String QUERY_COLUMNS = "id, name, published_version, created_at, updated_at";
    String VERSION_COLUMNS = "query_id, version, sql_text, parameters, connection_name, description, author,"
            + " cache_ttl, created_at";

    @SqlQuery("INSERT INTO saved_queries (name, published_version, created_at, updated_at)"
            + " VALUES (:name, NULL, :at, :at) RETURNING id")
    long insertQuery(@Bind("name") String name, @Bind("at") long at);

    @SqlUpdate("INSERT INTO query_versions (" + VERSION_COLUMNS + ") VALUES (:queryId, :version, :sqlText,"
            + " :parameters, :connectionName, :description, :author, :cacheTtl, :createdAt)")
    void insertVersion(@BindMethods QueryVersionRow row);

    @SqlQuery("SELECT " + QUERY_COLUMNS + " FROM saved_queries WHERE name = :name")
    Optional<SavedQueryRow> findByName(@Bind("name") String name);

    @SqlQuery("SELECT " + QUERY_COLUMNS + " FROM saved_queries ORDER BY name")
    List<SavedQueryRow> list();

    @SqlQuery("SELECT " + VERSION_COLUMNS + " FROM query_versions WHERE query_id = :queryId AND version = :version")
    Optional<QueryVersionRow> findVersion(@Bind("queryId") long queryId, @Bind("version") int version);

    @SqlQuery("SELECT " + VERSION_COLUMNS + " FROM query_versions WHERE query_id = :queryId ORDER BY version")
    List<QueryVersionRow> versions(@Bind("queryId") long queryId);

    @SqlQuery("SELECT COALESCE(MAX(version), 0) FROM query_versions WHERE query_id = :queryId")
    int maxVersion(@Bind("queryId") long queryId);

    @SqlUpdate("UPDATE saved_queries SET published_version = :version, updated_at = :at WHERE id = :queryId")
    int publish(@Bind("queryId") long queryId, @Bind("version") Integer version, @Bind("at") long at);

    @SqlUpdate("DELETE FROM query_versions WHERE query_id = :queryId")
    int deleteVersions(@Bind("queryId") long queryId);

    @SqlUpdate("DELETE FROM saved_queries WHERE id = :queryId")
    int deleteQuery(@Bind("queryId") long queryId);
}
