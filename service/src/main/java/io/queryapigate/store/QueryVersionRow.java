package io.queryapigate.store;

/**
 * One version of a saved query. Its SQL, parameters and connection never change; {@code cacheTtl} and
 * {@code details} may. {@code parameters} is the JSON of the parameter rules, {@code tags} a JSON array (or null),
 * {@code details} a JSON object of what is kept as given ({@code columns}, {@code mcp}; or null), {@code uuid} null
 * for versions saved before schema 3, {@code resultColumns} the JSON array of the result columns its database
 * described when it was saved ({@code queries.ResultColumns}), null when unknown.
 */
public record QueryVersionRow(
        long queryId,
        int version,
        String sqlText,
        String parameters,
        String connectionName,
        String description,
        String author,
        int cacheTtl,
        long createdAt,
        String uuid,
        String tags,
        String details,
        String resultColumns) {}
