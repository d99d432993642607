package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** What a configuration-as-code directory owns (schema 7): one row per kind and name. */
@RegisterConstructorMapper(ManagedRow.class)
public interface ManagedDao {
    String COLUMNS = "kind, name, file, content_sha256, applied_at, applied_by";

    @SqlQuery("SELECT " + COLUMNS + " FROM config_managed WHERE kind = :kind AND name = :name")
    Optional<ManagedRow> find(@Bind("kind") String kind, @Bind("name") String name);

    @SqlQuery("SELECT " + COLUMNS + " FROM config_managed ORDER BY kind, name")
    List<ManagedRow> list();

    @SqlUpdate("DELETE FROM config_managed WHERE kind = :kind AND name = :name")
    int forget(@Bind("kind") String kind, @Bind("name") String name);

    @SqlUpdate("INSERT INTO config_managed (" + COLUMNS + ") VALUES (:kind, :name, :file, :contentSha256,"
            + " :appliedAt, :appliedBy)")
    void insert(@BindMethods ManagedRow row);
}
