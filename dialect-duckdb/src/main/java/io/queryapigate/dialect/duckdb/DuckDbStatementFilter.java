package io.queryapigate.dialect.duckdb;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses the few DuckDB statements that change the database instance every later call shares and that DuckDB's
 * own locks do not stop (DuckDB 1.5.6):
 *
 * <ul>
 *   <li>{@code ATTACH} of the already open file is allowed despite {@code enable_external_access=false}; followed
 *       by {@code USE} and {@code DETACH} of the main database it leaves every later call without a catalog;
 *       {@code ATTACH ':memory:'} on a writable database adds a database all later calls see.
 *   <li>{@code enable_logging()} ignores {@code lock_configuration}: it makes later calls' SQL readable in {@code
 *       duckdb_logs}, grows memory, and with {@code storage := 'file'} aborts the JVM when the refused log file
 *       is flushed.
 *   <li>{@code query()}, {@code query_table()} and {@code json_execute_serialized_sql()} run SQL built from
 *       strings, which would get the above past a text check.
 *   <li>With {@code duckdb.allowed_paths}, {@code COPY} and {@code EXPORT DATABASE}: DuckDB's allowed directories
 *       are allowed for writing as much as for reading, so {@code COPY ... TO '/data/sales/x.csv'} would write
 *       into the directory the connection only reads. (Without allowed paths, DuckDB refuses both itself.)
 * </ul>
 *
 * <p>The check is on the whole text, string literals and comments included, so that no lexing mistake can let a
 * statement through; the price is refusing a query that merely mentions one of the words (a column named {@code
 * attach}, the text 'detach' in a literal). DuckDB identifiers cannot be escaped ({@code U&"..."} is not
 * implemented), so each of these needs its name spelled out.
 */
final class DuckDbStatementFilter {
    private static final Pattern INSTANCE_WIDE = Pattern.compile("\\b(attach|detach|enable_logging)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DYNAMIC_SQL = Pattern.compile(
            "\\b(query|query_table|json_execute_serialized_sql)\\b\"?\\s*(\\(|/\\*|--)", Pattern.CASE_INSENSITIVE);

    private static final Pattern FILE_WRITES = Pattern.compile("\\b(copy|export)\\b", Pattern.CASE_INSENSITIVE);

    private DuckDbStatementFilter() {}

    /**
     * Throws when {@code sql} contains one of the refused statements.
     *
     * @param sql the statement as it will be sent
     * @param readsFiles whether the connection has allowed paths, which DuckDB lets SQL write to as well
     * @throws DialectException with {@link DialectError#PERMISSION_DENIED}
     */
    static void check(String sql, boolean readsFiles) {
        if (readsFiles) {
            Matcher write = FILE_WRITES.matcher(sql);
            if (write.find()) {
                throw new DialectException(DialectError.PERMISSION_DENIED, "the duckdb dialect refuses SQL containing "
                        + write.group(1).toUpperCase(java.util.Locale.ROOT) + " on a connection with "
                        + DuckDbDialectConfig.ALLOWED_PATHS + ": it could write files where the connection may only read");
            }
        }
        Matcher instanceWide = INSTANCE_WIDE.matcher(sql);
        if (instanceWide.find()) {
            throw new DialectException(DialectError.PERMISSION_DENIED, "the duckdb dialect refuses SQL containing "
                    + instanceWide.group(1).toUpperCase(java.util.Locale.ROOT)
                    + ": it would change the database instance that every later call shares");
        }
        Matcher dynamic = DYNAMIC_SQL.matcher(sql);
        if (dynamic.find()) {
            throw new DialectException(DialectError.PERMISSION_DENIED, "the duckdb dialect refuses "
                    + dynamic.group(1).toLowerCase(java.util.Locale.ROOT)
                    + "(): SQL built from strings could run statements the dialect refuses");
        }
    }
}
