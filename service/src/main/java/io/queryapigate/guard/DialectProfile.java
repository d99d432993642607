package io.queryapigate.guard;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import net.sf.jsqlparser.parser.AbstractJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParser;

/**
 * Per-dialect rules: the lexical reading (and, for the generic family, the alternative readings that must agree with
 * it), parser options, and the function lists that make a read not a plain read. Function names are matched lower
 * case and without their schema qualifier; a list entry ending in {@code *} is a prefix.
 */
final class DialectProfile {

    /** How a function call is treated. */
    enum FunctionClass {
        /** Changes session or server state, takes locks, writes (sequences, large objects), or signals backends:
         * refused for read-only callers. */
        SESSION_OR_WRITE,
        /** Reads files or the network: refused for read-only callers (unless file functions are allowed on the
         * connection) and for table-restricted callers. */
        FILE_OR_NETWORK,
        /** Runs SQL given as text or reads an object named by a string: refused for read-only and for
         * table-restricted callers. */
        DYNAMIC
    }

    private static final Map<SqlDialectFamily, DialectProfile> PROFILES = new EnumMap<>(SqlDialectFamily.class);

    // ---- PostgreSQL ----
    private static final List<String> PG_SESSION = List.of(
            "set_config", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
            "pg_advisory_*", "pg_try_advisory_*", "nextval", "setval", "pg_notify", "pg_switch_wal", "pg_switch_xlog",
            "pg_create_*", "pg_drop_replication_slot", "pg_copy_*", "pg_replication_origin_*",
            "pg_replication_slot_advance", "pg_logical_slot_*", "pg_logical_emit_message", "pg_backup_start",
            "pg_backup_stop", "pg_start_backup", "pg_stop_backup", "pg_promote", "pg_wal_replay_*",
            "pg_stat_reset*", "pg_import_system_collations", "pg_log_backend_memory_contexts",
            "lo_create", "lo_creat", "lo_unlink", "lo_put", "lo_from_bytea", "lo_truncate", "lo_truncate64",
            "lowrite", "lo_open", "lo_close", "loread", "lo_get", "lo_lseek", "lo_lseek64", "lo_import",
            "lo_export", "pg_file_write", "pg_file_rename", "pg_file_unlink", "pg_file_sync", "pg_file_settings",
            "txid_current", "pg_current_xact_id");
    private static final List<String> PG_FILE = List.of(
            "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_ls_logdir", "pg_ls_waldir",
            "pg_ls_tmpdir", "pg_ls_archive_statusdir", "pg_ls_logicalsnapdir", "pg_ls_logicalmapdir",
            "pg_ls_replslotdir", "pg_logdir_ls", "lo_import", "lo_export", "dblink*", "file_fdw*");
    private static final List<String> PG_DYNAMIC = List.of(
            "query_to_xml*", "table_to_xml*", "cursor_to_xml*", "schema_to_xml*", "database_to_xml*", "ts_stat",
            "dblink*", "xpath_table", "crosstab*", "connectby");

    // ---- MySQL / MariaDB ----
    private static final List<String> MYSQL_SESSION = List.of(
            "get_lock", "release_lock", "release_all_locks", "nextval", "setval", "sys_exec", "sys_eval",
            "master_pos_wait", "source_pos_wait", "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids");
    private static final List<String> MYSQL_FILE = List.of("load_file", "sys_exec", "sys_eval");

    // ---- DuckDB ----
    private static final List<String> DUCKDB_SESSION = List.of(
            "nextval", "setval", "checkpoint", "force_checkpoint", "duckdb_secrets", "getenv", "set_variable",
            "install_extension", "load_extension");
    private static final List<String> DUCKDB_FILE = List.of(
            "read_*", "parquet_*", "glob", "sniff_csv", "iceberg_*", "delta_scan", "st_read*", "sqlite_scan",
            "sqlite_attach", "postgres_scan*", "postgres_attach", "mysql_scan", "http_get", "http_post",
            "csv_scan", "json_scan", "ndjson_scan");
    private static final List<String> DUCKDB_DYNAMIC = List.of(
            "query", "query_table", "postgres_query", "postgres_execute", "mysql_query", "mysql_execute",
            "sqlite_query");

    // ---- ClickHouse ----
    private static final List<String> CH_FILE = List.of(
            "file", "filecluster", "url", "urlcluster", "remote", "remotesecure", "cluster", "clusterallreplicas",
            "s3", "s3cluster", "gcs", "oss", "cosn", "azureblobstorage*", "hdfs", "hdfscluster", "mysql",
            "postgresql", "jdbc", "odbc", "mongodb", "redis", "sqlite", "input", "executable*", "iceberg*",
            "deltalake*", "hudi*", "hive", "arrowflight", "ytsaurus", "paimon*");
    private static final List<String> CH_DYNAMIC = List.of("joinget*", "dictget*", "dicthas", "dictisin",
            "remote", "remotesecure", "cluster", "clusterallreplicas", "loop");

    // ---- Trino ----
    private static final List<String> TRINO_DYNAMIC = List.of("query", "raw_query");

    // ---- SQLite ----
    private static final List<String> SQLITE_SESSION = List.of("load_extension", "writefile", "edit",
            "fts3_tokenizer");
    private static final List<String> SQLITE_FILE = List.of("readfile", "writefile", "load_extension");

    /** Table functions that only generate rows from their arguments: allowed under a table restriction. */
    private static final Set<String> GENERATORS = Set.of(
            "generate_series", "generate_subscripts", "range", "numbers", "numbers_mt", "zeros", "zeros_mt",
            "unnest", "json_each", "json_each_text", "jsonb_each", "jsonb_each_text", "json_array_elements",
            "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text",
            "regexp_split_to_table", "string_to_table", "values");

    /** Schemas whose functions are the dialect's own (a generator qualified with one of these is still one). */
    private static final Set<String> BUILTIN_SCHEMAS = Set.of("pg_catalog", "main", "system", "information_schema");

    final SqlDialectFamily family;
    final SqlLexer.Rules primary;
    final List<SqlLexer.Rules> alternates;
    private final Set<String> sessionExact = new HashSet<>();
    private final List<String> sessionPrefixes;
    private final Set<String> fileExact = new HashSet<>();
    private final List<String> filePrefixes;
    private final Set<String> dynamicExact = new HashSet<>();
    private final List<String> dynamicPrefixes;
    private final Consumer<CCJSqlParser> parserSetup;

    private DialectProfile(SqlDialectFamily family, SqlLexer.Rules primary, List<SqlLexer.Rules> alternates,
            List<List<String>> session, List<List<String>> file, List<List<String>> dynamic,
            Consumer<CCJSqlParser> parserSetup) {
        this.family = family;
        this.primary = primary;
        this.alternates = alternates;
        this.sessionPrefixes = split(session, sessionExact);
        this.filePrefixes = split(file, fileExact);
        this.dynamicPrefixes = split(dynamic, dynamicExact);
        this.parserSetup = parserSetup;
    }

    private static List<String> split(List<List<String>> lists, Set<String> exact) {
        Set<String> prefixes = new HashSet<>();
        for (List<String> list : lists) {
            for (String s : list) {
                if (s.endsWith("*")) {
                    prefixes.add(s.substring(0, s.length() - 1));
                } else {
                    exact.add(s);
                }
            }
        }
        return List.copyOf(prefixes);
    }

    static {
        List<String> none = List.of();
        // the parser gets text whose literals are blanked and whose comments are gone (SqlLexer.Result.parserText),
        // so no lexical option (backslashes, dollar quotes, # comments) can change what it sees
        Consumer<CCJSqlParser> pg = p -> p.withDialect(AbstractJSqlParser.Dialect.POSTGRESQL);
        Consumer<CCJSqlParser> mysql = p -> p.withDialect(AbstractJSqlParser.Dialect.MYSQL);
        Consumer<CCJSqlParser> sqlite = p -> p.withSquareBracketQuotation(true);
        Consumer<CCJSqlParser> plain = p -> { };
        PROFILES.put(SqlDialectFamily.POSTGRES, new DialectProfile(SqlDialectFamily.POSTGRES, SqlLexer.POSTGRES,
                List.of(), List.of(PG_SESSION), List.of(PG_FILE), List.of(PG_DYNAMIC), pg));
        // DuckDB's parser is PostgreSQL's: the same lexical rules
        PROFILES.put(SqlDialectFamily.DUCKDB, new DialectProfile(SqlDialectFamily.DUCKDB, SqlLexer.POSTGRES,
                List.of(), List.of(DUCKDB_SESSION), List.of(DUCKDB_FILE), List.of(DUCKDB_DYNAMIC), plain));
        PROFILES.put(SqlDialectFamily.MYSQL, new DialectProfile(SqlDialectFamily.MYSQL, SqlLexer.MYSQL,
                List.of(), List.of(MYSQL_SESSION), List.of(MYSQL_FILE), List.of(none), mysql));
        PROFILES.put(SqlDialectFamily.CLICKHOUSE, new DialectProfile(SqlDialectFamily.CLICKHOUSE,
                SqlLexer.CLICKHOUSE, List.of(), List.of(none), List.of(CH_FILE), List.of(CH_DYNAMIC), plain));
        PROFILES.put(SqlDialectFamily.TRINO, new DialectProfile(SqlDialectFamily.TRINO, SqlLexer.ANSI,
                List.of(), List.of(none), List.of(none), List.of(TRINO_DYNAMIC), plain));
        PROFILES.put(SqlDialectFamily.SQLITE, new DialectProfile(SqlDialectFamily.SQLITE, SqlLexer.SQLITE,
                List.of(), List.of(SQLITE_SESSION), List.of(SQLITE_FILE), List.of(none), sqlite));
        // the generic family does not know its server: every family's reading must agree
        PROFILES.put(SqlDialectFamily.GENERIC, new DialectProfile(SqlDialectFamily.GENERIC, SqlLexer.ANSI_BACKTICK,
                List.of(SqlLexer.MYSQL, SqlLexer.MYSQL_NO_BACKSLASH, SqlLexer.POSTGRES, SqlLexer.SQLITE,
                        SqlLexer.CLICKHOUSE),
                List.of(PG_SESSION, MYSQL_SESSION, DUCKDB_SESSION, SQLITE_SESSION),
                List.of(PG_FILE, MYSQL_FILE, DUCKDB_FILE, CH_FILE, SQLITE_FILE),
                List.of(PG_DYNAMIC, DUCKDB_DYNAMIC, CH_DYNAMIC, TRINO_DYNAMIC), plain));
    }

    static DialectProfile of(SqlDialectFamily family) {
        return PROFILES.get(family == null ? SqlDialectFamily.GENERIC : family);
    }

    /** Applies the dialect's parser options. */
    void configure(CCJSqlParser parser) {
        parserSetup.accept(parser);
    }

    /** The classes of a function (lower-case unqualified name); empty for an ordinary function. */
    Set<FunctionClass> classify(String name) {
        Set<FunctionClass> out = java.util.EnumSet.noneOf(FunctionClass.class);
        if (matches(name, dynamicExact, dynamicPrefixes)) {
            out.add(FunctionClass.DYNAMIC);
        }
        if (matches(name, fileExact, filePrefixes)) {
            out.add(FunctionClass.FILE_OR_NETWORK);
        }
        if (matches(name, sessionExact, sessionPrefixes)) {
            out.add(FunctionClass.SESSION_OR_WRITE);
        }
        return out;
    }

    private static boolean matches(String name, Set<String> exact, List<String> prefixes) {
        if (exact.contains(name)) {
            return true;
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** True when a table function (lower-case unqualified name, lower-case qualifier or null) only generates rows. */
    static boolean isGenerator(String name, String qualifier) {
        return GENERATORS.contains(name) && (qualifier == null || BUILTIN_SCHEMAS.contains(qualifier));
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
