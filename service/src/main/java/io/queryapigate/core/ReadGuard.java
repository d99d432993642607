package io.queryapigate.core;

import io.queryapigate.errors.ApiException;
import java.util.Locale;
import java.util.Set;

/**
 * The foundation's SQL guard: one statement, and for read-only callers a plain SELECT/WITH/VALUES that names no
 * word that could change data or session state anywhere outside literals, quoted identifiers and comments. It is
 * deliberately strict (fail closed): a read that merely mentions such a word as a bare identifier, or a locking read
 * ({@code FOR UPDATE}), is refused. The parser-based guard replaces it.
 */
public final class ReadGuard {
    private static final Set<String> READ_STARTS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM");
    private static final Set<String> FORBIDDEN = Set.of(
            "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE", "CREATE", "DROP", "ALTER", "TRUNCATE",
            "RENAME", "GRANT", "REVOKE", "COPY", "ATTACH", "DETACH", "INSTALL", "LOAD", "IMPORT", "EXPORT", "CALL",
            "EXEC", "EXECUTE", "DO", "SET", "RESET", "PRAGMA", "VACUUM", "CHECKPOINT", "ANALYZE", "BEGIN", "COMMIT",
            "ROLLBACK", "SAVEPOINT", "RELEASE", "START", "USE", "LOCK", "UNLOCK", "INTO", "OUTFILE", "DUMPFILE",
            "HANDLER", "PREPARE", "DEALLOCATE", "LISTEN", "NOTIFY", "UNLISTEN", "REFRESH", "CLUSTER", "REINDEX",
            "COMMENT", "SECURITY", "OWNER", "FOR", "SHUTDOWN", "KILL");

    private ReadGuard() {}

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

    /** Refuses anything that is not evidently a read. */
    public static void checkRead(SqlText sql) {
        if (sql.hasExecutableComment()) {
            throw ApiException.forbidden("read_only", "Executable comments (/*! ... */) are not allowed.");
        }
        String code = sql.code();
        int n = code.length();
        boolean first = true;
        int i = 0;
        while (i < n) {
            char c = code.charAt(i);
            if (SqlText.isIdentStart(c)) {
                int end = i + 1;
                while (end < n && SqlText.isIdentPart(code.charAt(end))) {
                    end++;
                }
                String word = code.substring(i, end).toUpperCase(Locale.ROOT);
                if (first) {
                    if (!READ_STARTS.contains(word)) {
                        throw ApiException.forbidden("read_only",
                                "Only reads (SELECT, WITH, VALUES) are allowed for this call; found " + word + ".");
                    }
                    first = false;
                } else if (FORBIDDEN.contains(word) && !isFunctionCall(code, end, word)) {
                    throw ApiException.forbidden("read_only",
                            "The statement contains " + word + ", which is not allowed in a read-only call.");
                }
                i = end;
            } else if (c == '(' || Character.isWhitespace(c)) {
                i++;
            } else {
                if (first && c != '(') {
                    throw ApiException.forbidden("read_only", "Only reads (SELECT, WITH, VALUES) are allowed.");
                }
                i++;
            }
        }
        if (first) {
            throw ApiException.badRequest("sql_required", "The SQL is empty.");
        }
    }

    // replace(...) is a string function; the statement REPLACE cannot appear inside a SELECT
    private static boolean isFunctionCall(String code, int end, String word) {
        if (!word.equals("REPLACE")) {
            return false;
        }
        int j = end;
        while (j < code.length() && Character.isWhitespace(code.charAt(j))) {
            j++;
        }
        return j < code.length() && code.charAt(j) == '(';
    }
}
