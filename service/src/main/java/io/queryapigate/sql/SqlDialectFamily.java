package io.queryapigate.sql;

import java.util.Locale;

/**
 * The SQL families the guard knows. Each brings its own lexical rules (which quotes exist, whether backslashes
 * escape, which comments nest), parser options, identifier folding, and per-dialect function rules; see
 * {@code docs/security.md}. {@link #GENERIC} is the union of the others' rules (strictest), for any other JDBC source.
 */
public enum SqlDialectFamily {
    DUCKDB,
    POSTGRES,
    MYSQL,
    CLICKHOUSE,
    TRINO,
    SQLITE,
    GENERIC;

    /**
     * The family of a connection's dialect name ({@code "postgres"}, {@code "postgresql"}, {@code "mysql"},
     * {@code "mariadb"}, {@code "duckdb"}, {@code "clickhouse"}, {@code "trino"}, {@code "presto"},
     * {@code "sqlite"}); anything else (null, {@code "h2"}, {@code "jdbc"}, ...) is {@link #GENERIC}.
     */
    public static SqlDialectFamily of(String name) {
        if (name == null) {
            return GENERIC;
        }
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "duckdb" -> DUCKDB;
            case "postgres", "postgresql", "pg", "pgsql", "cockroachdb", "redshift" -> POSTGRES;
            case "mysql", "mariadb" -> MYSQL;
            case "clickhouse" -> CLICKHOUSE;
            case "trino", "presto" -> TRINO;
            case "sqlite", "sqlite3" -> SQLITE;
            default -> GENERIC;
        };
    }
}
