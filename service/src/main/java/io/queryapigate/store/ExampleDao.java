package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** What the examples installed: kind {@code connection}, {@code query} or {@code key}, and its name. */
public interface ExampleDao {
    String CONNECTION = "connection";
    String QUERY = "query";
    String KEY = "key";

    @SqlQuery("SELECT name FROM example_items WHERE kind = :kind ORDER BY name")
    List<String> names(@Bind("kind") String kind);

    @SqlUpdate("INSERT INTO example_items (kind, name) VALUES (:kind, :name)")
    void mark(@Bind("kind") String kind, @Bind("name") String name);

    @SqlUpdate("DELETE FROM example_items WHERE kind = :kind AND name = :name")
    int unmark(@Bind("kind") String kind, @Bind("name") String name);
}
