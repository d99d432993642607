package io.queryapigate.store;

/** An administrator's role in one workspace (schema 8's {@code workspace_members}, with the administrator's name). */
public record MemberRow(String admin, String role, long createdAt, String createdBy) {}
