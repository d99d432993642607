package io.queryapigate.guard;

import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.sql.SqlDialectFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A table's name as the guard compares it: up to three parts (catalog, schema, table), resolved against the
 * connection's defaults and normalised per its lexical rules ({@link LexicalRules.Feature#FOLD_UNQUOTED_NAMES},
 * {@link LexicalRules.Feature#FOLD_QUOTED_NAMES}). Unquoted parts are folded (lower case) where the dialect folds
 * or ignores case; quoted parts are kept exactly, except on DuckDB and Trino, which ignore case in quoted names
 * too; on MySQL and ClickHouse, whose table names are case-sensitive
 * (MySQL with {@code lower_case_table_names=0}, the Linux default), every part is kept exactly. Two names are the
 * same table exactly when they are {@link #equals equal}.
 *
 * @param catalog the catalog (PostgreSQL database, DuckDB database, Trino catalog), or null where the dialect has
 *     no such level or it is unknown
 * @param schema the schema (MySQL/ClickHouse database), or null when unknown
 * @param name the table (or view) name
 */
public record TableName(String catalog, String schema, String name) {

    public TableName {
        Objects.requireNonNull(name, "name");
    }

    /**
     * Parses and resolves a grant entry or any dotted table name ({@code customer}, {@code billing.customer},
     * {@code "Sales"."Q1"}, {@code cat.sch.t}) the way the guard resolves names in SQL.
     *
     * @throws IllegalArgumentException when the text is not a dotted name of one to three parts
     */
    public static TableName parse(String text, SqlDialectFamily dialect, String defaultCatalog, String defaultSchema) {
        SqlDialectFamily family = dialect == null ? SqlDialectFamily.GENERIC : dialect;
        return parse(text, family, family.lexicalRules(), defaultCatalog, defaultSchema);
    }

    /**
     * As {@link #parse(String, SqlDialectFamily, String, String)}, with the connection's own lexical rules deciding
     * how names fold.
     */
    public static TableName parse(String text, SqlDialectFamily dialect, LexicalRules rules, String defaultCatalog,
            String defaultSchema) {
        return new Naming(dialect, rules).resolve(split(text), defaultCatalog, defaultSchema);
    }

    /** The parts, outermost first, without nulls. */
    public List<String> parts() {
        List<String> out = new ArrayList<>(3);
        if (catalog != null) {
            out.add(catalog);
        }
        if (schema != null) {
            out.add(schema);
        }
        out.add(name);
        return out;
    }

    /** Dotted, with a part in double quotes when it is not a plain lower-case identifier. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (String p : parts()) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(render(p));
        }
        return sb.toString();
    }

    private static String render(String part) {
        boolean plain = !part.isEmpty() && (Character.isLetter(part.charAt(0)) || part.charAt(0) == '_');
        for (int i = 0; plain && i < part.length(); i++) {
            char c = part.charAt(i);
            plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                    || (c > 127 && Character.isLetterOrDigit(c) && !Character.isUpperCase(c));
        }
        return plain ? part : '"' + part.replace("\"", "\"\"") + '"';
    }

    /** Splits a dotted name into raw parts (quotes kept), honouring "..", `..` and [..] quoting. */
    static List<String> split(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a table name is empty");
        }
        List<String> parts = new ArrayList<>(3);
        String s = text.strip();
        int i = 0;
        int n = s.length();
        StringBuilder cur = new StringBuilder();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"' || c == '`' || c == '[') {
                char close = c == '[' ? ']' : c;
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unterminated quoted name in '" + text + "'");
                    }
                    if (s.charAt(j) == close) {
                        if (close != ']' && j + 1 < n && s.charAt(j + 1) == close) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                cur.append(s, i, j + 1);
                i = j + 1;
            } else if (c == '.') {
                addPart(parts, cur, text);
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        addPart(parts, cur, text);
        if (parts.size() > 3) {
            throw new IllegalArgumentException("'" + text + "' has more than three parts");
        }
        return parts;
    }

    private static void addPart(List<String> parts, StringBuilder cur, String text) {
        if (cur.length() == 0) {
            throw new IllegalArgumentException("'" + text + "' has an empty name part");
        }
        parts.add(cur.toString());
        cur.setLength(0);
    }

    /**
     * Identifier normalisation and name resolution on one connection: case folding from its lexical rules, the
     * levels of names and the catalogue's special cases from its family.
     */
    static final class Naming {
        private final SqlDialectFamily family;
        private final boolean foldUnquoted;
        private final boolean foldQuoted;
        private final boolean threeLevels;

        Naming(SqlDialectFamily family, LexicalRules rules) {
            this.family = family;
            this.foldUnquoted = rules.has(LexicalRules.Feature.FOLD_UNQUOTED_NAMES);
            this.foldQuoted = rules.has(LexicalRules.Feature.FOLD_QUOTED_NAMES);
            this.threeLevels = family != SqlDialectFamily.MYSQL && family != SqlDialectFamily.CLICKHOUSE
                    && family != SqlDialectFamily.SQLITE;
        }

        static boolean isQuoted(String raw) {
            if (raw.length() < 2) {
                return false;
            }
            char c = raw.charAt(0);
            char e = raw.charAt(raw.length() - 1);
            return (c == '"' && e == '"') || (c == '`' && e == '`') || (c == '[' && e == ']');
        }

        /** The comparison key of one raw identifier part (quotes still on when it was quoted). */
        String key(String raw) {
            if (isQuoted(raw)) {
                char q = raw.charAt(0);
                String inner = raw.substring(1, raw.length() - 1);
                inner = q == '[' ? inner : inner.replace(String.valueOf(q) + q, String.valueOf(q));
                return foldQuoted ? inner.toLowerCase(Locale.ROOT) : inner;
            }
            return foldUnquoted ? raw.toLowerCase(Locale.ROOT) : raw;
        }

        /** Resolves raw parts (outermost first) against the defaults. */
        TableName resolve(List<String> rawParts, String defaultCatalog, String defaultSchema) {
            int n = rawParts.size();
            if (n == 0 || n > 3) {
                throw new IllegalArgumentException("a table name needs one to three parts");
            }
            String name = key(rawParts.get(n - 1));
            String schema = n >= 2 ? key(rawParts.get(n - 2)) : null;
            String catalog = n == 3 ? key(rawParts.get(0)) : null;
            if (family == SqlDialectFamily.MYSQL && schema != null
                    && (schema.equalsIgnoreCase("information_schema") || schema.equalsIgnoreCase("performance_schema"))) {
                // these two are case-insensitive on every MySQL server, names and tables alike
                schema = schema.toLowerCase(Locale.ROOT);
                name = name.toLowerCase(Locale.ROOT);
            }
            if (n == 1 && family == SqlDialectFamily.POSTGRES && name.startsWith("pg_")) {
                // pg_catalog is searched before any schema on the search_path unless placed explicitly: a bare
                // pg_class or pg_shadow is the catalog's
                schema = "pg_catalog";
            }
            if (schema == null && defaultSchema != null && !defaultSchema.isBlank()) {
                schema = key(defaultSchema.strip());
            }
            if (family == SqlDialectFamily.POSTGRES) {
                // one database per connection: database.schema.table names the connection's own database or fails
                // on the server; the database part is dropped when it is the connection's, kept (never matching a
                // grant) otherwise
                if (catalog != null && defaultCatalog != null && catalog.equals(key(defaultCatalog.strip()))) {
                    catalog = null;
                }
            } else if (threeLevels && catalog == null && defaultCatalog != null && !defaultCatalog.isBlank()) {
                catalog = key(defaultCatalog.strip());
            }
            return new TableName(catalog, schema, name);
        }
    }
}
