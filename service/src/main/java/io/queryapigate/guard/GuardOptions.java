package io.queryapigate.guard;

import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.sql.SqlDialectFamily;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What the guard needs to know about one call: the connection's dialect family, lexical rules and default
 * catalog/schema, and what the caller may do. Immutable; build with {@link #readOnly(SqlDialectFamily)} or
 * {@link #writer(SqlDialectFamily)} and the {@code with...} methods. Allowed tables are parsed and resolved once,
 * when the options are built, so a service may keep one instance per (key, connection).
 */
public final class GuardOptions {
    private final SqlDialectFamily dialect;
    private final LexicalRules lexicalRules;
    private final List<LexicalRules> readings;
    private final TableName.Naming naming;
    private final boolean readOnly;
    private final Set<String> allowedTables;
    private final Set<TableName> resolvedAllowedTables;
    private final Set<String> allowedWriteOps;
    private final String defaultCatalog;
    private final String defaultSchema;
    private final boolean allowFileFunctions;
    private final Set<String> extraFunctions;
    private final List<GuardMask> masks;
    private final boolean administrator;

    private GuardOptions(SqlDialectFamily dialect, LexicalRules lexicalRules, boolean readOnly,
            Set<String> allowedTables, Set<String> allowedWriteOps, String defaultCatalog, String defaultSchema,
            boolean allowFileFunctions, Set<String> extraFunctions, List<GuardMask> masks, boolean administrator) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.lexicalRules = Objects.requireNonNull(lexicalRules, "lexicalRules");
        this.readings = lexicalRules.readings();
        this.naming = new TableName.Naming(dialect, lexicalRules);
        this.administrator = administrator;
        this.readOnly = readOnly;
        this.defaultCatalog = blankToNull(defaultCatalog);
        this.defaultSchema = blankToNull(defaultSchema);
        this.allowFileFunctions = allowFileFunctions;
        Set<String> extra = new LinkedHashSet<>();
        for (String fn : extraFunctions) {
            extra.add(fn.strip().toLowerCase(Locale.ROOT));
        }
        this.extraFunctions = Collections.unmodifiableSet(extra);
        this.masks = List.copyOf(masks);
        if (allowedTables == null) {
            this.allowedTables = null;
            this.resolvedAllowedTables = null;
        } else {
            Set<String> raw = new LinkedHashSet<>();
            Set<TableName> resolved = new LinkedHashSet<>();
            for (String entry : allowedTables) {
                raw.add(entry);
                resolved.add(naming.resolve(TableName.split(entry), this.defaultCatalog, this.defaultSchema));
            }
            this.allowedTables = Collections.unmodifiableSet(raw);
            this.resolvedAllowedTables = Collections.unmodifiableSet(resolved);
        }
        if (allowedWriteOps == null) {
            this.allowedWriteOps = null;
        } else {
            Set<String> ops = new LinkedHashSet<>();
            for (String op : allowedWriteOps) {
                ops.add(op.strip().toLowerCase(Locale.ROOT));
            }
            this.allowedWriteOps = Collections.unmodifiableSet(ops);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** A read-only caller: only reads pass (the default for ad-hoc SQL and saved queries). */
    public static GuardOptions readOnly(SqlDialectFamily dialect) {
        return new GuardOptions(dialect, dialect.lexicalRules(), true, null, null, null, null, false, Set.of(),
                List.of(), false);
    }

    /** A caller allowed to write (any write operation unless narrowed with {@link #withAllowedWriteOps}). */
    public static GuardOptions writer(SqlDialectFamily dialect) {
        return new GuardOptions(dialect, dialect.lexicalRules(), false, null, null, null, null, false, Set.of(),
                List.of(), false);
    }

    /**
     * Restricts the tables the statement may read or write. Entries are bare ({@code customer}: the connection's
     * default schema/database), schema-qualified ({@code billing.customer}) or, on Trino/DuckDB/PostgreSQL,
     * catalog-qualified ({@code hive.web.clicks}); quoted parts ({@code "Sales"}) are compared exactly.
     * {@code null} lifts the restriction; an empty collection allows no table at all.
     *
     * @throws IllegalArgumentException when an entry is not a dotted name of one to three parts
     */
    public GuardOptions withAllowedTables(Collection<String> tables) {
        return new GuardOptions(dialect, lexicalRules, readOnly, tables == null ? null : new LinkedHashSet<>(tables),
                allowedWriteOps, defaultCatalog, defaultSchema, allowFileFunctions, extraFunctions, masks,
                administrator);
    }

    /**
     * Narrows the write operations of a writer ({@code insert}, {@code update}, {@code delete}, {@code merge},
     * {@code replace}, {@code upsert}, {@code create}, {@code drop}, {@code alter}, {@code truncate}, {@code call},
     * {@code copy}, ...); {@code null} means any. Ignored for read-only callers, who may not write at all.
     */
    public GuardOptions withAllowedWriteOps(Collection<String> ops) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables,
                ops == null ? null : new LinkedHashSet<>(ops), defaultCatalog, defaultSchema, allowFileFunctions,
                extraFunctions, masks, administrator);
    }

    /**
     * The connection's defaults for resolving names that do not say: PostgreSQL (database, first schema of the
     * search_path, normally {@code public}); MySQL/ClickHouse (ignored, the database); DuckDB (database name,
     * {@code main}); Trino (catalog, schema); SQLite (ignored, {@code main}). Either may be null (unknown).
     */
    public GuardOptions withDefaults(String catalog, String schema) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables, allowedWriteOps, catalog, schema,
                allowFileFunctions, extraFunctions, masks, administrator);
    }

    /**
     * Lets read-only callers use the dialect's file-reading table functions (DuckDB {@code read_csv},
     * {@code read_parquet}, {@code 'file.csv'}, ...). Only for connections whose database confines file access
     * itself (DuckDB opened with {@code allowed_directories} and its configuration locked). Never lifts the table
     * restriction: a restricted caller still may not read files.
     */
    public GuardOptions withFileFunctions(boolean allowed) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables, allowedWriteOps, defaultCatalog,
                defaultSchema, allowed, extraFunctions, masks, administrator);
    }

    /**
     * Functions a restricted caller may call beyond the engine's catalogue of pure built-ins: bare names ({@code
     * my_fn}) or schema-qualified ones ({@code util.my_fn}), as the operator lists them per connection. Only
     * restricted callers (table allow-list or masks) are held to the catalogue at all.
     */
    public GuardOptions withExtraFunctions(Collection<String> functions) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables, allowedWriteOps, defaultCatalog,
                defaultSchema, allowFileFunctions, functions == null ? Set.of() : new LinkedHashSet<>(functions), masks,
                administrator);
    }

    /**
     * The caller's masked columns, each table resolved against the connection's defaults ({@link TableName#parse}).
     * A caller with masks is restricted: its functions are held to the catalogue, it may not
     * read the engine's catalogues and statistics, and a statement reading a masked table must let the guard trace
     * every result column ({@link GuardResult#masks()}).
     */
    public GuardOptions withMasks(List<GuardMask> masks) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables, allowedWriteOps, defaultCatalog,
                defaultSchema, allowFileFunctions, extraFunctions, masks == null ? List.of() : masks, administrator);
    }

    /**
     * Reads the connection's SQL with these lexical rules (and their alternatives) instead of the family's
     * built-in ones: a dialect's own {@code Dialect.lexicalRules()}. Allowed tables are resolved again with its
     * name rules.
     */
    public GuardOptions withLexicalRules(LexicalRules rules) {
        return new GuardOptions(dialect, rules, readOnly, allowedTables, allowedWriteOps, defaultCatalog,
                defaultSchema, allowFileFunctions, extraFunctions, masks, administrator);
    }

    public SqlDialectFamily dialect() {
        return dialect;
    }

    /** The connection's lexical rules; the family's built-in ones unless {@link #withLexicalRules} said otherwise. */
    public LexicalRules lexicalRules() {
        return lexicalRules;
    }

    /** Every reading the lexical check runs: the rules first, then their alternatives. */
    List<LexicalRules> readings() {
        return readings;
    }

    /** How table names compare on the connection. */
    TableName.Naming naming() {
        return naming;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /** The allowed-table entries as given, or null when unrestricted. */
    public Set<String> allowedTables() {
        return allowedTables;
    }

    /** The allowed tables resolved against the defaults, or null when unrestricted. */
    public Set<TableName> resolvedAllowedTables() {
        return resolvedAllowedTables;
    }

    /** The allowed write operations (lower case), or null for any. */
    public Set<String> allowedWriteOps() {
        return allowedWriteOps;
    }

    public String defaultCatalog() {
        return defaultCatalog;
    }

    public String defaultSchema() {
        return defaultSchema;
    }

    public boolean allowFileFunctions() {
        return allowFileFunctions;
    }

    /**
     * Marks the administrator key, who may read what other callers left visible on the shared database user:
     * session variables, other sessions' statements (PostgreSQL {@code pg_stat_activity}, MySQL {@code
     * PROCESSLIST}, ClickHouse {@code system.processes}, Trino {@code system.runtime.queries}). Every other key is
     * refused them: all keys share one database user, so these show one key's SQL and values to another.
     */
    public GuardOptions withAdministrator(boolean administrator) {
        return new GuardOptions(dialect, lexicalRules, readOnly, allowedTables, allowedWriteOps, defaultCatalog,
                defaultSchema, allowFileFunctions, extraFunctions, masks, administrator);
    }

    public boolean administrator() {
        return administrator;
    }

    /** The extra functions (lower case), empty when none. */
    public Set<String> extraFunctions() {
        return extraFunctions;
    }

    /** The masked columns, empty when none. */
    public List<GuardMask> masks() {
        return masks;
    }

    /** True when the caller is restricted by tables, by write operations or by masks. */
    public boolean restricted() {
        return allowedTables != null || (!readOnly && allowedWriteOps != null) || !masks.isEmpty();
    }

    /** True when the caller's function calls are held to the engine's catalogue (a table allow-list or masks). */
    public boolean functionsRestricted() {
        return allowedTables != null || !masks.isEmpty();
    }

    @Override
    public String toString() {
        return "GuardOptions[" + dialect
                + (lexicalRules == dialect.lexicalRules() ? "" : ", rules=" + lexicalRules.name())
                + (readOnly ? ", read-only" : ", writer")
                + (allowedTables == null ? "" : ", tables=" + resolvedAllowedTables)
                + (allowedWriteOps == null ? "" : ", ops=" + allowedWriteOps)
                + ", defaults=" + defaultCatalog + "." + defaultSchema
                + (allowFileFunctions ? ", file functions" : "")
                + (extraFunctions.isEmpty() ? "" : ", functions+=" + extraFunctions)
                + (masks.isEmpty() ? "" : ", masks=" + masks) + (administrator ? ", administrator" : "") + "]";
    }
}
