package io.queryapigate.store;

/** One immutable version of a saved query. {@code parameters} is the JSON of the parameter rules. */
public record QueryVersionRow(
        long queryId,
        int version,
        String sqlText,
        String parameters,
        String connectionName,
        String description,
        String author,
        int cacheTtl,
        long createdAt) {}
