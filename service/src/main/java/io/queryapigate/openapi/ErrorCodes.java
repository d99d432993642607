package io.queryapigate.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every error code the gateway answers, by HTTP status: the OpenAPI document declares them as the {@code code} of
 * each status's error envelope, docs/api.md lists the same table (a test keeps the two equal), and a response whose
 * code is not listed here fails the schema checks schemathesis runs against the live service.
 */
public final class ErrorCodes {
    /** Status to its codes, in the order docs/api.md lists them. */
    public static final Map<Integer, List<String>> BY_STATUS;

    static {
        Map<Integer, List<String>> m = new LinkedHashMap<>();
        m.put(400, List.of("invalid_body", "invalid_request", "invalid_paging", "param_required", "param_invalid",
                "unsupported_field", "unknown_field", "invalid_name", "invalid_filter", "invalid_parameters",
                "invalid_timeout", "invalid_format", "invalid_stream", "sql_required", "sql_not_parseable",
                "multiple_statements", "connection_required", "connection_not_found", "reason_required",
                "unsupported_operation", "invalid_config",
                "sso_state", "sso_token", "sso_id_token", "param_from_claim", "table_required",
                "collection_required", "invalid_query", "wrong_connection_type"));
        m.put(401, List.of("unauthorized"));
        m.put(403, List.of("admin_only", "query_not_granted", "connection_not_granted", "adhoc_not_granted",
                "read_only", "write_op_not_allowed", "table_not_allowed", "function_not_allowed",
                "column_masked_unresolvable", "column_masked_in_predicate", "database_permission_denied",
                "workspace_required", "role_forbidden",
                "csrf_failed", "sso_denied", "sso_no_role", "sso_inactive", "claim_missing", "sign_in_required",
                "insufficient_scope", "own_write", "approval_mismatch", "approval_rejected",
                "mongo_operator_forbidden", "mongo_stage_forbidden", "collection_not_allowed"));
        m.put(404, List.of("not_found", "query_not_found", "version_not_found", "not_published",
                "connection_not_found", "key_not_found", "previous_secret_not_found", "cache_entry_not_found",
                "collection_not_found", "admin_not_found", "token_not_found", "role_not_found",
                "workspace_not_found", "member_not_found", "table_not_found", "write_request_not_found"));
        m.put(405, List.of("method_not_allowed"));
        m.put(406, List.of("not_acceptable"));
        m.put(408, List.of("request_timeout"));
        m.put(409, List.of("constraint_violation", "conflict", "query_exists", "key_exists", "key_rotation_pending",
                "collection_exists", "examples_conflict", "secret_key_required", "password_undecryptable",
                "connection_exists", "connection_in_use", "managed_by_config",
                "managed_by_file", "admin_exists", "name_taken", "last_owner", "sso_managed", "role_exists",
                "role_in_use", "workspace_exists", "workspace_protected", "workspace_not_empty",
                "too_many_rows_affected", "write_request_closed", "approval_pending", "approval_expired",
                "write_running", "idempotency_conflict"));
        m.put(412, List.of("precondition_failed"));
        m.put(413, List.of("payload_too_large", "sql_too_long", "row_limit"));
        m.put(429, List.of("rate_limited", "quota_exceeded", "too_many_concurrent", "too_many_pending_writes"));
        m.put(500, List.of("query_failed", "internal_error", "config_apply_failed"));
        m.put(502, List.of("connection_failed"));
        m.put(503, List.of("unavailable", "database_unavailable", "cancelled", "resource_limit", "secret_unavailable",
                "store_unavailable", "store_full", "sso_unreachable", "sso_busy", "sso_unsupported", "too_many_streams",
                "overloaded"));
        m.put(504, List.of("query_timeout"));
        BY_STATUS = java.util.Collections.unmodifiableMap(m);
    }

    private ErrorCodes() {}
}
