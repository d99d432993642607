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
    String QUERY_COLUMNS = "id, name, published_version, created_at, updated_at, collection, workspace";
    String VERSION_COLUMNS = "query_id, version, sql_text, parameters, connection_name, description, author,"
            + " cache_ttl, created_at, uuid, tags, details, result_columns";

    @SqlQuery("INSERT INTO saved_queries (name, published_version, created_at, updated_at, collection, workspace)"
            + " VALUES (:name, NULL, :at, :at, :collection, :workspace) RETURNING id")
    long insertQuery(@Bind("name") String name, @Bind("at") long at, @Bind("collection") String collection,
            @Bind("workspace") String workspace);

    @SqlUpdate("INSERT INTO query_versions (" + VERSION_COLUMNS + ") VALUES (:queryId, :version, :sqlText,"
            + " :parameters, :connectionName, :description, :author, :cacheTtl, :createdAt, :uuid, :tags, :details,"
            + " :resultColumns)")
    void insertVersion(@BindMethods QueryVersionRow row);

    /** Stores a version's described result columns, unless another instance already did. */
    @SqlUpdate("UPDATE query_versions SET result_columns = :columns WHERE query_id = :queryId AND version = :version"
            + " AND result_columns IS NULL")
    int describedLater(@Bind("queryId") long queryId, @Bind("version") int version, @Bind("columns") String columns);

    @SqlQuery("SELECT " + QUERY_COLUMNS + " FROM saved_queries WHERE name = :name")
    Optional<SavedQueryRow> findByName(@Bind("name") String name);

    @SqlQuery("SELECT " + QUERY_COLUMNS + " FROM saved_queries ORDER BY name")
    List<SavedQueryRow> list();

    @SqlQuery("SELECT " + VERSION_COLUMNS + " FROM query_versions WHERE query_id = :queryId AND version = :version")
    Optional<QueryVersionRow> findVersion(@Bind("queryId") long queryId, @Bind("version") int version);

    @SqlQuery("SELECT " + VERSION_COLUMNS + " FROM query_versions WHERE query_id = :queryId ORDER BY version")
    List<QueryVersionRow> versions(@Bind("queryId") long queryId);

    /** Every version of every query, by query and version: a listing reads them in one round trip. */
    @SqlQuery("SELECT " + VERSION_COLUMNS + " FROM query_versions ORDER BY query_id, version")
    List<QueryVersionRow> allVersions();

    @SqlQuery("SELECT COALESCE(MAX(version), 0) FROM query_versions WHERE query_id = :queryId")
    int maxVersion(@Bind("queryId") long queryId);

    @SqlUpdate("UPDATE saved_queries SET published_version = :version, updated_at = :at WHERE id = :queryId")
    int publish(@Bind("queryId") long queryId, @Bind("version") Integer version, @Bind("at") long at);

    @SqlUpdate("UPDATE saved_queries SET collection = :collection, updated_at = :at WHERE id = :queryId")
    int setCollection(@Bind("queryId") long queryId, @Bind("collection") String collection, @Bind("at") long at);

    /** Re-files every query of one workspace's collection under another; returns how many moved. */
    @SqlUpdate("UPDATE saved_queries SET collection = :to, updated_at = :at WHERE collection = :from"
            + " AND workspace = :workspace")
    int moveCollection(@Bind("from") String from, @Bind("to") String to, @Bind("at") long at,
            @Bind("workspace") String workspace);

    @SqlUpdate("UPDATE query_versions SET cache_ttl = :ttl WHERE query_id = :queryId AND version = :version")
    int setCacheTtl(@Bind("queryId") long queryId, @Bind("version") int version, @Bind("ttl") int ttl);

    @SqlUpdate("UPDATE query_versions SET details = :details WHERE query_id = :queryId AND version = :version")
    int setDetails(@Bind("queryId") long queryId, @Bind("version") int version, @Bind("details") String details);

    @SqlUpdate("DELETE FROM query_versions WHERE query_id = :queryId AND version = :version")
    int deleteVersion(@Bind("queryId") long queryId, @Bind("version") int version);

    /**
     * After the published version was deleted: the newest older version is published (one that was live before),
     * never a newer draft; with none older the query is left unpublished.
     */
    @SqlUpdate("UPDATE saved_queries SET published_version = (SELECT MAX(version) FROM query_versions"
            + " WHERE query_id = :queryId AND version < :deleted), updated_at = :at"
            + " WHERE id = :queryId AND published_version = :deleted")
    int fallBackFrom(@Bind("queryId") long queryId, @Bind("deleted") int deleted, @Bind("at") long at);

    @SqlUpdate("DELETE FROM query_versions WHERE query_id = :queryId")
    int deleteVersions(@Bind("queryId") long queryId);

    @SqlUpdate("DELETE FROM saved_queries WHERE id = :queryId")
    int deleteQuery(@Bind("queryId") long queryId);
}
