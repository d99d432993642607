package io.queryapigate.store;

/**
 * A saved query's identity, which version /q serves, the collection it is filed under (or null), and the workspace
 * that owns it.
 */
public record SavedQueryRow(long id, String name, Integer publishedVersion, long createdAt, long updatedAt,
        String collection, String workspace) {}
