package io.queryapigate.store;

/** A saved query's identity, which version /q serves, and the collection it is filed under (or null). */
public record SavedQueryRow(long id, String name, Integer publishedVersion, long createdAt, long updatedAt,
        String collection) {}
