package io.queryapigate.dialect.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How a dialect's engine reads SQL text: where string literals, quoted names and comments begin and end, and how
 * table names compare. The service's guard reads every statement with these rules before it runs (one statement,
 * nothing hidden in a literal or a comment), finds {@code :name} parameter markers with them, and finds the end and
 * the row window of a statement to page with them. A dialect declares them through {@link Dialect#lexicalRules()};
 * by default they are the rules of its {@link Dialect#sqlFamily()} ({@link #forFamily}).
 *
 * <p>What every reading shares (standard SQL): {@code '...'} is a string literal and {@code "..."} a quoted name,
 * a quote is doubled to stand for itself, {@code --} starts a comment to the end of the line (which ends at
 * {@code \n} or {@code \r}), and {@code /* ... *}{@code /} is a block comment. {@link #features()} says what the
 * engine reads beyond or instead of that. An engine whose servers read some text differently by version or
 * setting lists the other readings in {@link #alternatives()}; the guard then refuses text that any of them reads
 * differently, rather than pick one.
 *
 * <p>Build rules from the named instance closest to your engine: {@code
 * LexicalRules.ANSI.named("foo").with(Feature.HASH_COMMENTS, Feature.BACKSLASH_IN_STRINGS)}. Features added in
 * later SPI versions are off unless a dialect asks for them, so rules built today keep their meaning.
 *
 * @param name a short name for messages and logs, such as {@code postgres} or {@code clickhouse 18.16 (comments do
 *     not nest)}; not blank
 * @param features what this reading has beyond standard SQL; an unmodifiable set
 * @param alternatives the other readings that servers of the engine may use (by version or setting), each with
 *     its own alternatives; the guard admits a statement only when every one of {@link #readings()} finds one
 *     statement with literals, quoted names and comments in the same places. Only this reading's name features
 *     ({@link Feature#FOLD_UNQUOTED_NAMES}, {@link Feature#FOLD_QUOTED_NAMES}) count; an unmodifiable list
 * @since SPI 1.1
 */
public record LexicalRules(String name, Set<LexicalRules.Feature> features, List<LexicalRules> alternatives) {

    /** What a reading has beyond standard SQL. */
    public enum Feature {
        /** {@code "..."} is a string literal rather than a quoted name (MySQL's default {@code sql_mode}). */
        DOUBLE_QUOTED_STRINGS,
        /** {@code `...`} quotes a name (MySQL, ClickHouse, SQLite). */
        BACKTICK_IDENTIFIERS,
        /** {@code [...]} quotes a name (SQLite, SQL Server); {@code ]} cannot be doubled inside. */
        BRACKET_IDENTIFIERS,
        /**
         * A backslash escapes the next character in every string literal ({@code '...'}, and {@code "..."} where
         * it is one): MySQL's default, ClickHouse, PostgreSQL with {@code standard_conforming_strings=off}.
         */
        BACKSLASH_IN_STRINGS,
        /** A backslash escapes the next character in quoted names, {@code "..."} and {@code `...`} (ClickHouse). */
        BACKSLASH_IN_IDENTIFIERS,
        /**
         * {@code E'...'} (or {@code e'...'}) is a string literal in which backslashes escape, even where they do
         * not in plain literals (PostgreSQL, DuckDB).
         */
        E_STRINGS,
        /**
         * {@code $$...$$} and {@code $tag$...$tag$} are string literals, the tag being a name that does not start
         * with a digit, and the opening {@code $} not following a name character or another {@code $} (PostgreSQL,
         * DuckDB). Not with {@link #HEREDOCS}.
         */
        DOLLAR_QUOTES,
        /**
         * ClickHouse heredocs: {@code $tag$...$tag$} with a tag of any characters is a string literal when it is
         * closed and the opening {@code $} does not follow a name character; unclosed, it is code. Not with
         * {@link #DOLLAR_QUOTES}.
         */
        HEREDOCS,
        /** Block comments nest: {@code /* /* *}{@code / *}{@code /} is one comment (PostgreSQL, DuckDB, newer ClickHouse). */
        NESTED_COMMENTS,
        /**
         * {@code --} starts a comment only when a blank or a control character (or the end of the text) follows
         * (MySQL); otherwise the first {@code -} is code and the reading goes on at the second.
         */
        DASH_DASH_NEEDS_BLANK,
        /** {@code #} starts a comment to the end of the line (MySQL, ClickHouse). */
        HASH_COMMENTS,
        /**
         * With {@link #HASH_COMMENTS}: {@code #} starts a comment only when a space or {@code !} follows
         * (ClickHouse).
         */
        HASH_COMMENTS_NEED_SPACE_OR_BANG,
        /** {@code //} starts a comment to the end of the line (ClickHouse). */
        SLASH_SLASH_COMMENTS,
        /**
         * Unquoted names are compared without regard to case (the engine folds them): {@code Customer} is
         * {@code customer}. Without it they are compared exactly, as MySQL and ClickHouse table names are.
         */
        FOLD_UNQUOTED_NAMES,
        /**
         * Quoted names are compared without regard to case too: {@code "PEOPLE"} is {@code people} (DuckDB,
         * Trino). Without it a quoted name is compared exactly.
         */
        FOLD_QUOTED_NAMES
    }

    /**
     * Standard SQL: {@code '...'} strings and {@code "..."} names with doubled quotes, {@code --} and
     * {@code /* *}{@code /} comments that do not nest, unquoted names folded. The base to build other rules on.
     */
    public static final LexicalRules ANSI = new LexicalRules("ansi", Set.of(Feature.FOLD_UNQUOTED_NAMES), List.of());

    /**
     * PostgreSQL with {@code standard_conforming_strings=off} (before 9.1, or set by the server's configuration):
     * backslashes escape in every {@code '...'} literal. An alternative of {@link #POSTGRES}.
     */
    public static final LexicalRules POSTGRES_BACKSLASH_STRINGS = new LexicalRules(
            "postgres standard_conforming_strings=off", Set.of(Feature.BACKSLASH_IN_STRINGS, Feature.E_STRINGS,
                    Feature.DOLLAR_QUOTES, Feature.NESTED_COMMENTS, Feature.FOLD_UNQUOTED_NAMES), List.of());

    /**
     * PostgreSQL: standard strings ({@code 'a\'} is a whole literal), {@code E'...'} strings with backslash
     * escapes, dollar quotes, nested block comments, unquoted names folded; with
     * {@link #POSTGRES_BACKSLASH_STRINGS} as the alternative reading.
     */
    public static final LexicalRules POSTGRES = new LexicalRules("postgres", Set.of(Feature.E_STRINGS,
            Feature.DOLLAR_QUOTES, Feature.NESTED_COMMENTS, Feature.FOLD_UNQUOTED_NAMES),
            List.of(POSTGRES_BACKSLASH_STRINGS));

    /** DuckDB: as {@link #POSTGRES} (its parser is PostgreSQL's), always standard strings, every name folded. */
    public static final LexicalRules DUCKDB = new LexicalRules("duckdb", Set.of(Feature.E_STRINGS,
            Feature.DOLLAR_QUOTES, Feature.NESTED_COMMENTS, Feature.FOLD_UNQUOTED_NAMES, Feature.FOLD_QUOTED_NAMES),
            List.of());

    /**
     * MySQL or MariaDB with {@code NO_BACKSLASH_ESCAPES} in its {@code sql_mode}: as {@link #MYSQL} without
     * backslash escapes. Not an alternative of {@link #MYSQL}, since the MySQL dialect takes the mode out of every
     * session; an alternative of {@link #GENERIC}.
     */
    public static final LexicalRules MYSQL_NO_BACKSLASH_ESCAPES = new LexicalRules("mysql no_backslash_escapes",
            Set.of(Feature.DOUBLE_QUOTED_STRINGS, Feature.HASH_COMMENTS, Feature.DASH_DASH_NEEDS_BLANK,
                    Feature.BACKTICK_IDENTIFIERS), List.of());

    /**
     * MySQL and MariaDB with the default {@code sql_mode}: {@code '...'} and {@code "..."} strings with backslash
     * escapes, {@code `...`} names, {@code #} comments, {@code --} only before a blank; names compared exactly.
     */
    public static final LexicalRules MYSQL = new LexicalRules("mysql", Set.of(Feature.DOUBLE_QUOTED_STRINGS,
            Feature.BACKSLASH_IN_STRINGS, Feature.HASH_COMMENTS, Feature.DASH_DASH_NEEDS_BLANK,
            Feature.BACKTICK_IDENTIFIERS), List.of());

    /**
     * ClickHouse before nested comments (18.16 among them): a block comment ends at the first
     * {@code *}{@code /}. An alternative of {@link #CLICKHOUSE}.
     */
    public static final LexicalRules CLICKHOUSE_FLAT_COMMENTS = new LexicalRules(
            "clickhouse 18.16 (comments do not nest)", Set.of(Feature.BACKSLASH_IN_STRINGS,
                    Feature.BACKSLASH_IN_IDENTIFIERS, Feature.HEREDOCS, Feature.HASH_COMMENTS,
                    Feature.HASH_COMMENTS_NEED_SPACE_OR_BANG, Feature.SLASH_SLASH_COMMENTS,
                    Feature.BACKTICK_IDENTIFIERS), List.of());

    /**
     * ClickHouse, as its own lexer reads SQL: backslash escapes in every quote, {@code `...`} names, heredocs,
     * nested block comments, {@code //} comments, {@code #} a comment before a space or {@code !}; names compared
     * exactly; with {@link #CLICKHOUSE_FLAT_COMMENTS} as the alternative reading.
     */
    public static final LexicalRules CLICKHOUSE = CLICKHOUSE_FLAT_COMMENTS.named("clickhouse")
            .with(Feature.NESTED_COMMENTS).withAlternatives(CLICKHOUSE_FLAT_COMMENTS);

    /** Trino: standard SQL, every name folded. */
    public static final LexicalRules TRINO = ANSI.named("trino").with(Feature.FOLD_QUOTED_NAMES);

    /** SQLite: standard SQL with {@code `...`} and {@code [...]} names; block comments do not nest. */
    public static final LexicalRules SQLITE = ANSI.named("sqlite").with(Feature.BACKTICK_IDENTIFIERS,
            Feature.BRACKET_IDENTIFIERS);

    /**
     * Any other engine: standard SQL with {@code `...`} names, and every family's reading as an alternative
     * ({@link #MYSQL}, {@link #MYSQL_NO_BACKSLASH_ESCAPES}, {@link #POSTGRES}, {@link #SQLITE}, {@link #CLICKHOUSE},
     * with theirs), so that the guard refuses any text that some engine would read differently: the strictest.
     */
    public static final LexicalRules GENERIC = ANSI.named("generic").with(Feature.BACKTICK_IDENTIFIERS)
            .withAlternatives(MYSQL, MYSQL_NO_BACKSLASH_ESCAPES, POSTGRES, SQLITE, CLICKHOUSE);

    /**
     * @throws NullPointerException when a component or an element is null
     * @throws IllegalArgumentException when the name is blank, or {@link Feature#DOLLAR_QUOTES} and
     *     {@link Feature#HEREDOCS} are both present, or {@link Feature#HASH_COMMENTS_NEED_SPACE_OR_BANG} without
     *     {@link Feature#HASH_COMMENTS}
     */
    public LexicalRules {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("lexical rules need a name");
        }
        EnumSet<Feature> set = EnumSet.noneOf(Feature.class);
        set.addAll(Objects.requireNonNull(features, "features"));
        if (set.contains(Feature.DOLLAR_QUOTES) && set.contains(Feature.HEREDOCS)) {
            throw new IllegalArgumentException(name + ": DOLLAR_QUOTES and HEREDOCS exclude each other");
        }
        if (set.contains(Feature.HASH_COMMENTS_NEED_SPACE_OR_BANG) && !set.contains(Feature.HASH_COMMENTS)) {
            throw new IllegalArgumentException(name + ": HASH_COMMENTS_NEED_SPACE_OR_BANG needs HASH_COMMENTS");
        }
        features = Collections.unmodifiableSet(set);
        alternatives = List.copyOf(alternatives);
    }

    /**
     * The built-in rules of an SQL family name, as {@link Dialect#sqlFamily()} returns it: {@code postgres}
     * (also {@code postgresql}, {@code pg}, {@code pgsql}, {@code cockroachdb}, {@code redshift}), {@code mysql}
     * ({@code mariadb}), {@code duckdb}, {@code clickhouse}, {@code trino} ({@code presto}), {@code sqlite}
     * ({@code sqlite3}); any other name, or null, is {@link #GENERIC}. Case and surrounding blanks do not matter.
     *
     * @param family the family name; may be null
     * @return one of the named instances of this class
     */
    public static LexicalRules forFamily(String family) {
        if (family == null) {
            return GENERIC;
        }
        return switch (family.strip().toLowerCase(Locale.ROOT)) {
            case "postgres", "postgresql", "pg", "pgsql", "cockroachdb", "redshift" -> POSTGRES;
            case "mysql", "mariadb" -> MYSQL;
            case "duckdb" -> DUCKDB;
            case "clickhouse" -> CLICKHOUSE;
            case "trino", "presto" -> TRINO;
            case "sqlite", "sqlite3" -> SQLITE;
            default -> GENERIC;
        };
    }

    /**
     * Whether this reading has a feature.
     *
     * @param feature the feature
     * @return true when {@link #features()} holds it
     */
    public boolean has(Feature feature) {
        return features.contains(feature);
    }

    /**
     * These rules with more features.
     *
     * @param more the features to add
     * @return a copy with the features added
     */
    public LexicalRules with(Feature... more) {
        EnumSet<Feature> set = EnumSet.noneOf(Feature.class);
        set.addAll(features);
        set.addAll(List.of(more));
        return new LexicalRules(name, set, alternatives);
    }

    /**
     * These rules without some features.
     *
     * @param fewer the features to remove
     * @return a copy with the features removed
     */
    public LexicalRules without(Feature... fewer) {
        EnumSet<Feature> set = EnumSet.noneOf(Feature.class);
        set.addAll(features);
        set.removeAll(List.of(fewer));
        return new LexicalRules(name, set, alternatives);
    }

    /**
     * These rules under another name.
     *
     * @param newName the name
     * @return a copy with the name
     */
    public LexicalRules named(String newName) {
        return new LexicalRules(newName, features, alternatives);
    }

    /**
     * These rules with other alternative readings.
     *
     * @param readings the alternatives, replacing the present ones; none for a reading every server of the engine
     *     shares
     * @return a copy with the alternatives
     */
    public LexicalRules withAlternatives(LexicalRules... readings) {
        return new LexicalRules(name, features, List.of(readings));
    }

    /**
     * Every reading the guard checks: these rules first, then each alternative's readings in order, each reading
     * once.
     *
     * @return the readings, this one first
     */
    public List<LexicalRules> readings() {
        List<LexicalRules> out = new ArrayList<>();
        collect(this, out);
        return List.copyOf(out);
    }

    private static void collect(LexicalRules rules, Collection<LexicalRules> out) {
        if (out.contains(rules)) {
            return;
        }
        out.add(rules);
        for (LexicalRules alternative : rules.alternatives) {
            collect(alternative, out);
        }
    }
}
