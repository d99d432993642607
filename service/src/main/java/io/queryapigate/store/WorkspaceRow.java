package io.queryapigate.store;

/** A workspace (schema 8) and how many administrators are its members. Times are epoch milliseconds. */
public record WorkspaceRow(String name, String description, long createdAt, String createdBy, int members) {}
