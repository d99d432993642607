package io.queryapigate.store;

/** A saved query's identity and which version /q serves. */
public record SavedQueryRow(long id, String name, Integer publishedVersion, long createdAt, long updatedAt) {}
