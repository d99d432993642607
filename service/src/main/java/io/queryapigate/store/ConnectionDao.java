package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Connections managed through the API, and the {@code store_versions} counter that tells every instance they
 * changed: each change bumps it in the same transaction ({@link #bumpVersion}).
 */
@RegisterConstructorMapper(ConnectionRow.class)
public interface ConnectionDao {
    String COLUMNS = "id, name, dialect, url, username, password_sealed, password_ref, pool_size, query_timeout_ms,"
            + " properties, allowed_functions, description, created_at, created_by, updated_at, updated_by,"
            + " deleted_at, deleted_by, deleted_reason, workspace";

    @SqlQuery("INSERT INTO connections (name, dialect, url, username, password_sealed, password_ref, pool_size,"
            + " query_timeout_ms, properties, allowed_functions, description, created_at, created_by, updated_at,"
            + " updated_by, workspace) VALUES (:name, :dialect, :url, :username, :passwordSealed, :passwordRef, :poolSize,"
            + " :queryTimeoutMs, :properties, :allowedFunctions, :description, :createdAt, :createdBy, :updatedAt,"
            + " :updatedBy, :workspace) RETURNING id")
    long insert(@BindMethods ConnectionRow row);

    /** Any row of that name, deleted or not (names are unique across both). */
    @SqlQuery("SELECT " + COLUMNS + " FROM connections WHERE name = :name")
    Optional<ConnectionRow> findByName(@Bind("name") String name);

    /** The live connections (not deleted), by name. */
    @SqlQuery("SELECT " + COLUMNS + " FROM connections WHERE deleted_at IS NULL ORDER BY name")
    List<ConnectionRow> live();

    /** The soft-deleted ones, newest first. */
    @SqlQuery("SELECT " + COLUMNS + " FROM connections WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, name")
    List<ConnectionRow> deleted();

    /** Replaces every changeable field if the row is still as read ({@code updated_at}); 0 when it was not. */
    @SqlUpdate("UPDATE connections SET dialect = :dialect, url = :url, username = :username,"
            + " password_sealed = :passwordSealed, password_ref = :passwordRef, pool_size = :poolSize,"
            + " query_timeout_ms = :queryTimeoutMs, properties = :properties, allowed_functions = :allowedFunctions,"
            + " description = :description, created_at = :createdAt, created_by = :createdBy,"
            + " updated_at = :updatedAt, updated_by = :updatedBy, deleted_at = :deletedAt, deleted_by = :deletedBy,"
            + " deleted_reason = :deletedReason WHERE id = :id AND updated_at = :readUpdatedAt")
    int update(@BindMethods ConnectionRow row, @Bind("readUpdatedAt") long readUpdatedAt);

    /** Removes a deleted row for good (its name is taken again by a new connection). */
    @SqlUpdate("DELETE FROM connections WHERE id = :id AND deleted_at IS NOT NULL")
    int purge(@Bind("id") long id);

    /** The names of the saved queries whose published version runs on {@code connection}. */
    @SqlQuery("SELECT q.name FROM saved_queries q JOIN query_versions v ON v.query_id = q.id"
            + " AND v.version = q.published_version WHERE v.connection_name = :connection ORDER BY q.name")
    List<String> publishedQueriesOn(@Bind("connection") String connection);

    /** Announces a change to every instance; call in the change's transaction. */
    @SqlUpdate("UPDATE store_versions SET value = value + 1 WHERE name = 'connections'")
    int bumpVersion();

    /** The counter {@link #bumpVersion} bumps. */
    @SqlQuery("SELECT value FROM store_versions WHERE name = 'connections'")
    long version();
}
