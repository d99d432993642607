package io.queryapigate.sql;

import io.queryapigate.errors.ApiException;

/**
 * The lexical checks that come before the parser-based guard (guard.SqlGuard): the SQL's
 * size, that it is not empty, that it has one statement, and that it uses named {@code :name} markers only.
 */
public final class SqlShape {

    private SqlShape() {}

    /** Checks shape (one statement, named markers only, within the size limit); any caller. */
    public static void checkShape(SqlText sql, long maxLength) {
        if (sql.original().length() > maxLength) {
            throw new ApiException(413, "sql_too_long",
                    "The SQL is longer than the limit of " + maxLength + " characters.");
        }
        if (sql.jdbcSql().isBlank()) {
            throw ApiException.badRequest("sql_required", "The SQL is empty.");
        }
        if (sql.hasUnterminatedToken()) {
            throw ApiException.badRequest("sql_not_parseable",
                    "The SQL has an unterminated string, quoted identifier or comment.");
        }
        if (sql.hasSeveralStatements()) {
            throw ApiException.badRequest("multiple_statements", "Only one SQL statement may be sent per call.");
        }
        if (sql.hasBarePositionalMarker()) {
            throw ApiException.badRequest("sql_not_parseable",
                    "Use named parameters (:name) instead of '?' markers.");
        }
    }
}
