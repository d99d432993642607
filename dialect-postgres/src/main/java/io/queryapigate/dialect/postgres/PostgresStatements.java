package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.core.NativeQuery;
import org.postgresql.core.Parser;

/**
 * Splits SQL into statements exactly as pgjdbc 42.7 does before it sends them, for the service's one-statement
 * guard and for this dialect's own check.
 *
 * <p>pgjdbc cuts a string at every {@code ;} outside quotes ({@code '...'}, {@code E'...'} by the connection's
 * {@code standard_conforming_strings}, {@code "..."}, {@code $tag$...$tag$}), comments ({@code --}, nested {@code
 * /* *}{@code /}), parentheses and a {@code CREATE ... BEGIN ATOMIC} body, after applying JDBC escape processing
 * ({@code {fn ...}}). In the extended protocol each piece becomes one {@code Parse} message, and the server refuses
 * a {@code Parse} holding more than one command; so a statement pgjdbc counts as one reaches the server as one
 * command or is refused. In the simple protocol pgjdbc sends the message as one string and the server splits it
 * with its own lexer; the two agree on ordinary SQL, but see {@code docs/dialects/postgres.md}.
 *
 * <p>The user's SQL is counted as it appears inside this dialect's message, after {@code "...; "}, because pgjdbc
 * reads some tokens by the character before them ({@code E'} after a space starts an escape string).
 *
 * <p>Uses {@code org.postgresql.core.Parser.parseJdbcSql(String, boolean, boolean, boolean, boolean, boolean,
 * String...)} of pgjdbc 42.7.14, which pgjdbc marks "not public API": {@code PostgresStatementsTest} pins its
 * behaviour. Stateless and thread-safe.
 */
public final class PostgresStatements {

    // a complete statement before the user's SQL, ending as the dialect's prelude ends ("; ")
    private static final String CONTEXT = "SELECT 1; ";

    private PostgresStatements() {}

    /**
     * How many statements pgjdbc sends for {@code sql}, with {@code standard_conforming_strings} on (the server
     * default since PostgreSQL 9.1, and what every call of this dialect starts with after {@code RESET ALL}).
     * Empty statements ({@code ;;}, whitespace) do not count; a piece holding only a comment does.
     *
     * @param sql the user's SQL, with JDBC {@code ?} markers
     * @return the number of statements; 0 for blank SQL
     * @throws IllegalArgumentException when pgjdbc cannot parse the SQL (for example a malformed {@code {fn}}
     *     escape)
     */
    public static int count(String sql) {
        return count(sql, true);
    }

    /**
     * How many statements pgjdbc sends for {@code sql} on a connection with the given {@code
     * standard_conforming_strings}.
     *
     * @param sql the user's SQL, with JDBC {@code ?} markers
     * @param standardConformingStrings the connection's setting (pgjdbc's {@code
     *     BaseConnection.getStandardConformingStrings()})
     * @return the number of statements; 0 for blank SQL
     * @throws IllegalArgumentException when pgjdbc cannot parse the SQL
     */
    public static int count(String sql, boolean standardConformingStrings) {
        requireNonNull(sql, "sql is null");
        return split(CONTEXT + sql, standardConformingStrings).size() - 1;
    }

    /**
     * Whether pgjdbc sends {@code sql} as exactly one statement ({@link #count(String)} is 1).
     *
     * @param sql the user's SQL
     * @return true for exactly one statement
     */
    public static boolean isSingleStatement(String sql) {
        try {
            return count(sql) == 1;
        } catch (IllegalArgumentException unparseable) {
            return false;
        }
    }

    /**
     * The statements pgjdbc sends for a whole message, in order, as pgjdbc rewrites them ({@code ?} becomes
     * {@code $1}, {@code $2} ...; escapes are replaced).
     *
     * @param message the SQL as handed to {@code prepareStatement} or {@code execute}
     * @param standardConformingStrings the connection's setting
     * @return the statements; empty for blank SQL
     * @throws IllegalArgumentException when pgjdbc cannot parse the SQL
     */
    public static List<String> split(String message, boolean standardConformingStrings) {
        requireNonNull(message, "message is null");
        try {
            // what pgjdbc's CachedQueryCreator does for a PreparedStatement with escape processing on
            String processed = Parser.replaceProcessing(message, true, standardConformingStrings);
            List<NativeQuery> queries = Parser.parseJdbcSql(processed, standardConformingStrings, true, true, false, false);
            List<String> statements = new ArrayList<>(queries.size());
            for (NativeQuery query : queries) {
                statements.add(query.nativeSql);
            }
            return List.copyOf(statements);
        } catch (SQLException e) {
            throw new IllegalArgumentException("pgjdbc cannot parse the SQL: " + e.getMessage(), e);
        }
    }
}
