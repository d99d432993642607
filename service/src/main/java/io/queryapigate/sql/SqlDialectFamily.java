package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;

/**
 * The SQL families the guard knows. A family brings its parser options, its function lists and catalogue, the
 * schemas of its own catalogue and how a page is written (see {@code docs/security.md}), and the lexical rules a
 * dialect gets unless it declares its own ({@link #lexicalRules()}, {@code Dialect.lexicalRules()}).
 * {@link #GENERIC} is the union of the others' rules (strictest), for any other source, including a third-party
 * dialect with a family name of its own.
 */
public enum SqlDialectFamily {
    DUCKDB(LexicalRules.DUCKDB),
    POSTGRES(LexicalRules.POSTGRES),
    MYSQL(LexicalRules.MYSQL),
    CLICKHOUSE(LexicalRules.CLICKHOUSE),
    TRINO(LexicalRules.TRINO),
    SQLITE(LexicalRules.SQLITE),
    GENERIC(LexicalRules.GENERIC);

    private final LexicalRules lexicalRules;

    SqlDialectFamily(LexicalRules lexicalRules) {
        this.lexicalRules = lexicalRules;
    }

    /** The family's built-in lexical rules, {@link LexicalRules#forFamily} of its name. */
    public LexicalRules lexicalRules() {
        return lexicalRules;
    }

    /**
     * The family of a connection's dialect name ({@code "postgres"}, {@code "postgresql"}, {@code "mysql"},
     * {@code "mariadb"}, {@code "duckdb"}, {@code "clickhouse"}, {@code "trino"}, {@code "presto"},
     * {@code "sqlite"}; the names {@link LexicalRules#forFamily} knows); anything else (null, {@code "h2"},
     * {@code "jdbc"}, ...) is {@link #GENERIC}.
     */
    public static SqlDialectFamily of(String name) {
        LexicalRules rules = LexicalRules.forFamily(name);
        for (SqlDialectFamily f : values()) {
            if (f.lexicalRules == rules) {
                return f;
            }
        }
        return GENERIC;
    }
}
