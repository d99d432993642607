package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.params.ParamRules;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The saved queries a caller may call, as {@code /q/{name}} serves them: the published version of each query whose
 * name or connection the caller is granted (the test {@code call.CallAuthorizer} applies). Read from the store on
 * each request: these are documentation routes, not the call path.
 */
public final class CallableQueries {
    /**
     * One callable query.
     *
     * @param query the query
     * @param version its published version
     * @param rules its parameter rules
     * @param markers its parameters in the order the SQL uses them
     * @param columns its result columns, or null when the database could not describe them
     * @param tags its tags
     * @param declared its parameter rules as they were declared (values as written: a float's default of 0 stays 0)
     */
    public record Callable(SavedQueryRow query, QueryVersionRow version, ParamRules rules, Set<String> markers,
            List<ColumnInfo> columns, List<String> tags, JsonNode declared) {
        public String name() {
            return query.name();
        }
    }

    private final SavedQueries saved;
    private final Function<QueryVersionRow, List<ColumnInfo>> columns;

    /**
     * @param saved the saved queries
     * @param columns a version's described result columns, or null when unknown
     */
    public CallableQueries(SavedQueries saved, Function<QueryVersionRow, List<ColumnInfo>> columns) {
        this.saved = saved;
        this.columns = columns;
    }

    /** The queries {@code caller} may call, by name; none for an anonymous caller. */
    public List<Callable> of(Caller caller) {
        if (caller == null) {
            return List.of();
        }
        Map<Long, List<QueryVersionRow>> versions = saved.allVersions();
        List<Callable> out = new ArrayList<>();
        for (SavedQueryRow q : saved.list()) {
            if (q.publishedVersion() == null) {
                continue;
            }
            QueryVersionRow v = versions.getOrDefault(q.id(), List.of()).stream()
                    .filter(x -> x.version() == q.publishedVersion()).findFirst().orElse(null);
            if (v == null || !caller.canRunQuery(q.name(), v.connectionName())) {
                continue;
            }
            Set<String> markers;
            ParamRules rules;
            JsonNode declared;
            try {
                markers = saved.definitions().text(v).markerNames();
                declared = saved.parameters(v);
                rules = ParamRules.parse(declared);
            } catch (RuntimeException unreadable) { // its connection is gone: /q answers 404 for it too
                continue;
            }
            out.add(new Callable(q, v, rules, markers, columns.apply(v), saved.tags(v), declared));
        }
        out.sort(java.util.Comparator.comparing(Callable::name));
        return out;
    }
}
