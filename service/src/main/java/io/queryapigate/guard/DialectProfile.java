package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import net.sf.jsqlparser.parser.AbstractJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParser;

/**
 * Per-family rules: parser options, the function lists and the engine's {@link FunctionCatalogue} that decide which
 * calls a caller may make, and the schemas of the engine's own catalogue. Function names are matched lower case and
 * without their schema qualifier; a list entry ending in {@code *} is a prefix. How the text reads (quotes,
 * comments, the alternative readings) is the connection's lexical rules ({@link GuardOptions#lexicalRules()}).
 */
final class DialectProfile {

    /** How a function call is treated (the lists below and the engine's {@link FunctionCatalogue} together). */
    enum FunctionClass {
        /** Leaves state in the session that the next call on the pooled connection would see (settings,
         * variables, random seeds, locks), or administers the server or other sessions (signals, reloads,
         * replication, backups): refused for every caller. */
        SESSION,
        /** Writes persistent data or server state (sequences, large objects, statistics resets): refused for
         * read-only callers. */
        WRITE,
        /** Reads files or the network: refused for read-only callers (unless file functions are allowed on the
         * connection) and for table-restricted callers. */
        FILE_OR_NETWORK,
        /** Runs SQL given as text or reads an object named by a string: refused for every caller, since what it
         * runs escapes every other check. */
        DYNAMIC
    }

    private static final Map<SqlDialectFamily, DialectProfile> PROFILES = new EnumMap<>(SqlDialectFamily.class);

    // ---- PostgreSQL ----
    private static final List<String> PG_SESSION = List.of(
            "set_config", "setseed", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf",
            "pg_rotate_logfile", "pg_advisory_*", "pg_try_advisory_*", "pg_switch_wal", "pg_switch_xlog",
            "pg_create_*", "pg_drop_replication_slot", "pg_copy_*", "pg_replication_origin_*",
            "pg_replication_slot_advance", "pg_logical_slot_*", "pg_logical_emit_message", "pg_backup_start",
            "pg_backup_stop", "pg_start_backup", "pg_stop_backup", "pg_promote", "pg_wal_replay_*",
            "pg_import_system_collations", "pg_log_backend_memory_contexts", "pg_file_write", "pg_file_rename",
            "pg_file_unlink", "pg_file_sync", "pg_file_settings", "lastval", "currval");
    private static final List<String> PG_WRITE = List.of(
            "nextval", "setval", "pg_notify", "pg_stat_reset*", "lo_create", "lo_creat", "lo_unlink", "lo_put",
            "lo_from_bytea", "lo_truncate", "lo_truncate64", "lowrite", "lo_open", "lo_close", "loread", "lo_get",
            "lo_lseek", "lo_lseek64", "txid_current", "pg_current_xact_id");
    private static final List<String> PG_FILE = List.of(
            "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_ls_logdir", "pg_ls_waldir",
            "pg_ls_tmpdir", "pg_ls_archive_statusdir", "pg_ls_logicalsnapdir", "pg_ls_logicalmapdir",
            "pg_ls_replslotdir", "pg_logdir_ls", "lo_import", "lo_export", "dblink*", "file_fdw*");
    private static final List<String> PG_DYNAMIC = List.of(
            "query_to_xml*", "table_to_xml*", "cursor_to_xml*", "schema_to_xml*", "database_to_xml*", "ts_stat",
            "ts_rewrite", "dblink*", "xpath_table", "crosstab*", "connectby");

    // ---- MySQL / MariaDB ----
    private static final List<String> MYSQL_SESSION = List.of(
            "get_lock", "release_lock", "release_all_locks", "last_insert_id", "lastval", "master_pos_wait",
            "source_pos_wait", "master_gtid_wait", "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids");
    private static final List<String> MYSQL_WRITE = List.of("nextval", "setval");
    private static final List<String> MYSQL_FILE = List.of("load_file", "sys_exec", "sys_eval");

    // ---- DuckDB ----
    private static final List<String> DUCKDB_SESSION = List.of(
            "setseed", "duckdb_secrets", "set_variable", "install_extension", "load_extension", "currval");
    private static final List<String> DUCKDB_WRITE = List.of("nextval", "setval", "checkpoint", "force_checkpoint");
    private static final List<String> DUCKDB_FILE = List.of(
            "read_*", "parquet_*", "glob", "sniff_csv", "iceberg_*", "delta_scan", "st_read*", "sqlite_scan",
            "sqlite_attach", "postgres_scan*", "postgres_attach", "mysql_scan", "http_get", "http_post",
            "csv_scan", "json_scan", "ndjson_scan", "getenv");
    private static final List<String> DUCKDB_DYNAMIC = List.of(
            "query", "query_table", "postgres_query", "postgres_execute", "mysql_query", "mysql_execute",
            "sqlite_query", "json_execute_serialized_sql");

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
    private static final List<String> SQLITE_SESSION = List.of("load_extension", "edit", "fts3_tokenizer");
    private static final List<String> SQLITE_FILE = List.of("readfile", "writefile", "load_extension");
    private static final List<String> SQLITE_WRITE = List.of("writefile");

    /** Table functions that only generate rows from their arguments: allowed under a table restriction. */
    private static final Set<String> GENERATORS = Set.of(
            "generate_series", "generate_subscripts", "range", "numbers", "numbers_mt", "zeros", "zeros_mt",
            "unnest", "json_each", "json_each_text", "jsonb_each", "jsonb_each_text", "json_array_elements",
            "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text",
            "regexp_split_to_table", "string_to_table", "values");

    /** Schemas whose functions are the dialect's own (a generator qualified with one of these is still one). */
    private static final Set<String> BUILTIN_SCHEMAS = Set.of("pg_catalog", "main", "system", "information_schema");

    /**
     * Function-call forms that are SQL syntax rather than catalogued functions (the engines' catalogues do not list
     * them, the parser reads them as calls): computed from their arguments only.
     */
    private static final Set<String> SYNTAX_FUNCTIONS = Set.of("coalesce", "nullif", "greatest", "least", "grouping",
            "if", "row", "array", "exists", "cast", "try_cast", "extract", "position", "substring", "trim", "overlay",
            "collation", "normalize", "xmlelement", "xmlforest", "xmlconcat", "xmlparse", "xmlpi", "xmlroot",
            "xmlexists", "xmlserialize", "xmlattributes", "interval", "filter");

    /**
     * Schemas a restricted caller may qualify a function with: where the engine keeps its built-ins. Any other
     * qualifier names a function the catalogue does not describe (a user's, an extension's).
     */
    private static final Map<SqlDialectFamily, Set<String>> FUNCTION_SCHEMAS = Map.of(
            SqlDialectFamily.POSTGRES, Set.of("pg_catalog"),
            SqlDialectFamily.DUCKDB, Set.of("pg_catalog"),
            SqlDialectFamily.TRINO, Set.of("builtin"));

    /**
     * Schemas (MySQL/ClickHouse databases, Trino catalogs) that hold the engine's own catalogue, statistics and
     * activity: a caller with masked columns may not read them, since statistics and catalogues show column values.
     */
    private static final Map<SqlDialectFamily, Set<String>> CATALOG_SCHEMAS = Map.of(
            SqlDialectFamily.POSTGRES, Set.of("pg_catalog", "information_schema", "pg_toast"),
            SqlDialectFamily.DUCKDB, Set.of("pg_catalog", "information_schema"),
            SqlDialectFamily.MYSQL, Set.of("information_schema", "performance_schema", "mysql", "sys"),
            SqlDialectFamily.CLICKHOUSE, Set.of("system", "information_schema"),
            SqlDialectFamily.TRINO, Set.of("information_schema", "system"),
            SqlDialectFamily.SQLITE, Set.of("sqlite_master", "sqlite_schema", "sqlite_temp_master"),
            SqlDialectFamily.GENERIC, Set.of("pg_catalog", "information_schema", "performance_schema", "mysql", "sys",
                    "system", "pg_toast"));

    /**
     * What shows other sessions' statements (and so, since every key shares the connection's database user, one
     * key's SQL and values to another): tables by schema, and functions.
     */
    private static final Map<SqlDialectFamily, Set<String>> ACTIVITY_TABLES = Map.of(
            SqlDialectFamily.POSTGRES, Set.of("pg_catalog.pg_stat_activity", "*.pg_stat_statements",
                    "*.pg_stat_statements_info"),
            SqlDialectFamily.MYSQL, Set.of("information_schema.processlist", "performance_schema.*", "sys.*"),
            SqlDialectFamily.CLICKHOUSE, Set.of("system.processes", "system.query_log", "system.query_thread_log",
                    "system.query_views_log"),
            SqlDialectFamily.TRINO, Set.of("system.runtime.*"));
    private static final Set<String> ACTIVITY_FUNCTIONS = Set.of("pg_stat_get_activity",
            "pg_stat_get_backend_activity", "pg_stat_statements", "pg_stat_statements_info");

    final SqlDialectFamily family;
    final FunctionCatalogue catalogue;
    private final Map<FunctionClass, Set<String>> exact = new EnumMap<>(FunctionClass.class);
    private final Map<FunctionClass, List<String>> prefixes = new EnumMap<>(FunctionClass.class);
    private final Consumer<CCJSqlParser> parserSetup;

    private DialectProfile(SqlDialectFamily family, Map<FunctionClass, List<List<String>>> lists,
            Consumer<CCJSqlParser> parserSetup) {
        this.family = family;
        this.catalogue = FunctionCatalogue.of(family);
        for (FunctionClass c : FunctionClass.values()) {
            Set<String> e = new HashSet<>();
            prefixes.put(c, split(lists.getOrDefault(c, List.of()), e));
            exact.put(c, e);
        }
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

    private static Map<FunctionClass, List<List<String>>> lists(List<List<String>> session, List<List<String>> write,
            List<List<String>> file, List<List<String>> dynamic) {
        return Map.of(FunctionClass.SESSION, session, FunctionClass.WRITE, write, FunctionClass.FILE_OR_NETWORK, file,
                FunctionClass.DYNAMIC, dynamic);
    }

    static {
        List<String> none = List.of();
        // the parser gets text whose literals are blanked and whose comments are gone (SqlLexer.Result.parserText),
        // so no lexical option (backslashes, dollar quotes, # comments) can change what it sees
        Consumer<CCJSqlParser> pg = p -> p.withDialect(AbstractJSqlParser.Dialect.POSTGRESQL);
        Consumer<CCJSqlParser> mysql = p -> p.withDialect(AbstractJSqlParser.Dialect.MYSQL);
        Consumer<CCJSqlParser> sqlite = p -> p.withSquareBracketQuotation(true);
        Consumer<CCJSqlParser> plain = p -> { };
        PROFILES.put(SqlDialectFamily.POSTGRES, new DialectProfile(SqlDialectFamily.POSTGRES,
                lists(List.of(PG_SESSION), List.of(PG_WRITE), List.of(PG_FILE), List.of(PG_DYNAMIC)), pg));
        PROFILES.put(SqlDialectFamily.DUCKDB, new DialectProfile(SqlDialectFamily.DUCKDB,
                lists(List.of(DUCKDB_SESSION), List.of(DUCKDB_WRITE), List.of(DUCKDB_FILE), List.of(DUCKDB_DYNAMIC)),
                plain));
        PROFILES.put(SqlDialectFamily.MYSQL, new DialectProfile(SqlDialectFamily.MYSQL,
                lists(List.of(MYSQL_SESSION), List.of(MYSQL_WRITE), List.of(MYSQL_FILE), List.of(none)), mysql));
        PROFILES.put(SqlDialectFamily.CLICKHOUSE, new DialectProfile(SqlDialectFamily.CLICKHOUSE,
                lists(List.of(none), List.of(none), List.of(CH_FILE), List.of(CH_DYNAMIC)), plain));
        PROFILES.put(SqlDialectFamily.TRINO, new DialectProfile(SqlDialectFamily.TRINO,
                lists(List.of(none), List.of(none), List.of(none), List.of(TRINO_DYNAMIC)), plain));
        PROFILES.put(SqlDialectFamily.SQLITE, new DialectProfile(SqlDialectFamily.SQLITE,
                lists(List.of(SQLITE_SESSION), List.of(SQLITE_WRITE), List.of(SQLITE_FILE), List.of(none)), sqlite));
        // the generic family does not know its server: every family's lists
        PROFILES.put(SqlDialectFamily.GENERIC, new DialectProfile(SqlDialectFamily.GENERIC,
                lists(List.of(PG_SESSION, MYSQL_SESSION, DUCKDB_SESSION, SQLITE_SESSION),
                        List.of(PG_WRITE, MYSQL_WRITE, DUCKDB_WRITE, SQLITE_WRITE),
                        List.of(PG_FILE, MYSQL_FILE, DUCKDB_FILE, CH_FILE, SQLITE_FILE),
                        List.of(PG_DYNAMIC, DUCKDB_DYNAMIC, CH_DYNAMIC, TRINO_DYNAMIC)), plain));
    }

    static DialectProfile of(SqlDialectFamily family) {
        return PROFILES.get(family == null ? SqlDialectFamily.GENERIC : family);
    }

    /** Applies the dialect's parser options. */
    void configure(CCJSqlParser parser) {
        parserSetup.accept(parser);
    }

    /**
     * The classes of a function (lower-case unqualified name): from the lists above (which also cover extension
     * functions the catalogue does not know) and from the engine's catalogue; empty for an ordinary function.
     */
    Set<FunctionClass> classify(String name) {
        Set<FunctionClass> out = EnumSet.noneOf(FunctionClass.class);
        for (FunctionClass c : FunctionClass.values()) {
            if (matches(name, exact.get(c), prefixes.get(c))) {
                out.add(c);
            }
        }
        FunctionCatalogue.Reach reach = catalogue.reach(name);
        if (reach != null) {
            switch (reach) {
                case SQL_TEXT -> out.add(FunctionClass.DYNAMIC);
                case FILE -> out.add(FunctionClass.FILE_OR_NETWORK);
                case ADMIN, SESSION -> out.add(FunctionClass.SESSION);
                case WRITE -> out.add(FunctionClass.WRITE);
                default -> { }
            }
        }
        return out;
    }

    /**
     * True when a restricted caller may call the function: the engine's catalogue allows it (or it is a syntax
     * form), no list flags it, and it is unqualified or qualified with the schema of the engine's built-ins.
     */
    boolean allowsFunction(String name, String qualifier) {
        if (qualifier != null && !FUNCTION_SCHEMAS.getOrDefault(family, Set.of()).contains(qualifier)) {
            return false;
        }
        return (catalogue.allowed(name) || SYNTAX_FUNCTIONS.contains(name) || combined(name, 3))
                && classify(name).isEmpty();
    }

    /** ClickHouse aggregate combinators ({@code sumIf}, {@code uniqMergeState}): allowed when the aggregate is. */
    private static final List<String> COMBINATORS = List.of("simplestate", "ordefault", "resample", "distinct",
            "foreach", "ornull", "argmin", "argmax", "array", "merge", "state", "map", "if");

    private boolean combined(String name, int depth) {
        if (family != SqlDialectFamily.CLICKHOUSE || depth == 0) {
            return false;
        }
        for (String suffix : COMBINATORS) {
            if (name.length() > suffix.length() && name.endsWith(suffix)) {
                String base = name.substring(0, name.length() - suffix.length());
                if (catalogue.allowed(base) && classify(base).isEmpty() || combined(base, depth - 1)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when a table (schema/database lower case, or null) lies in the engine's own catalogue schemas. */
    boolean isCatalogTable(TableName table) {
        Set<String> schemas = CATALOG_SCHEMAS.getOrDefault(family, Set.of());
        if (family == SqlDialectFamily.SQLITE) {
            return schemas.contains(lower(table.name()));
        }
        if (family == SqlDialectFamily.TRINO && table.catalog() != null && schemas.contains(lower(table.catalog()))) {
            return true;
        }
        if (table.schema() != null && schemas.contains(lower(table.schema()))) {
            return true;
        }
        // DuckDB's duckdb_* views and sqlite_master live in main; PostgreSQL's pg_* resolve to pg_catalog already
        String n = lower(table.name());
        return (family == SqlDialectFamily.DUCKDB || family == SqlDialectFamily.GENERIC)
                && (n.startsWith("duckdb_") || n.startsWith("sqlite_") || n.startsWith("pragma_"));
    }

    /**
     * True when a table (or, for {@code functionName}, a function) shows other sessions' statements; the generic
     * family counts every family's.
     */
    boolean isActivity(TableName table) {
        Set<String> patterns = family == SqlDialectFamily.GENERIC ? ACTIVITY_TABLES.values().stream()
                .flatMap(Set::stream).collect(java.util.stream.Collectors.toSet())
                : ACTIVITY_TABLES.getOrDefault(family, Set.of());
        String name = lower(table.name());
        String schema = table.schema() == null ? "" : lower(table.schema());
        String catalog = table.catalog() == null ? "" : lower(table.catalog());
        for (String p : patterns) {
            String[] parts = p.split("\\.");
            boolean hit = switch (parts.length) {
                case 2 -> (parts[0].equals("*") || parts[0].equals(schema))
                        && (parts[1].equals("*") || parts[1].equals(name));
                default -> parts[0].equals(catalog) && parts[1].equals(schema)
                        && (parts[2].equals("*") || parts[2].equals(name));
            };
            if (hit) {
                return true;
            }
        }
        return false;
    }

    static boolean isActivityFunction(String name) {
        return ACTIVITY_FUNCTIONS.contains(name);
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
