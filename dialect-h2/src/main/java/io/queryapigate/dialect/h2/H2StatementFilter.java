package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses, before H2 sees them, the H2 statements and functions that run Java code or reach files and other
 * databases (H2 2.x):
 *
 * <ul>
 *   <li>{@code CREATE ALIAS} (a Java method, or Java source compiled on the spot), {@code CREATE TRIGGER} and
 *       {@code CREATE AGGREGATE} (a Java class): code execution in the server's JVM;
 *   <li>{@code RUNSCRIPT}, {@code SCRIPT}, {@code BACKUP}: read or write SQL scripts and archives as files;
 *   <li>{@code CSVREAD}, {@code CSVWRITE}, {@code FILE_READ}, {@code FILE_WRITE}: read and write any file;
 *   <li>{@code LINK_SCHEMA} and {@code CREATE LINKED TABLE}: open JDBC connections to other databases;
 *   <li>{@code SHUTDOWN}: closes the database for every session;
 *   <li>{@code CREATE}/{@code ALTER}/{@code DROP USER} and {@code ROLE}, {@code GRANT}, {@code REVOKE}: H2 lets an
 *       administrator change users even in a database opened read-only (in memory, until it closes), so a reader
 *       could change the password every later session logs in with;
 *   <li>{@code U&"..."} and {@code U&'...'}: Unicode-escaped names and strings would spell the above past a text
 *       check;
 *   <li>a {@code SET} statement other than {@code SET @variable}: an administrator could change the database for
 *       every session ({@code SET EXCLUSIVE 1}, {@code SET DATABASE_EVENT_LISTENER}, a class name, ...), and H2
 *       runs every statement of a multi-statement string, so {@code SET QUERY_TIMEOUT 0; SELECT ...} would lift
 *       the server-side limit. ({@code UPDATE ... SET} is not a statement start and passes.)
 * </ul>
 *
 * <p>H2 itself refuses all but the last for a user that is not an administrator, and a database opened read-only
 * refuses the {@code CREATE} statements; this filter covers an administrator user on a writable database. The
 * check is on the whole text, literals and comments included, so that no lexing mistake lets a statement
 * through; the price is refusing a query that merely mentions one of the words.
 */
final class H2StatementFilter {
    private static final Pattern REFUSED = Pattern.compile("\\b(alias|trigger|aggregate|runscript|script|backup"
            + "|csvread|csvwrite|file_read|file_write|link_schema|linked|shutdown|grant|revoke)\\b|\\b(u&)[\"']"
            + "|\\b((?:create|alter|drop)\\s+(?:user|role))\\b",
            Pattern.CASE_INSENSITIVE);
    /** SET at the start of the text or after a ';', past blanks and comments, unless it sets a {@code @variable}. */
    private static final Pattern SET_STATEMENT = Pattern.compile(
            "(^|;)(\\s|/\\*.*?\\*/|--[^\\n]*(\\n|$)|//[^\\n]*(\\n|$))*set\\b(?!\\s*@)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private H2StatementFilter() {}

    /**
     * Throws when {@code sql} contains one of the refused statements.
     *
     * @param sql the statement as it will be sent
     * @throws DialectException with {@link DialectError#PERMISSION_DENIED}
     */
    static void check(String sql) {
        Matcher refused = REFUSED.matcher(sql);
        if (refused.find()) {
            throw new DialectException(DialectError.PERMISSION_DENIED, "the h2 dialect refuses SQL containing "
                    + (refused.group(1) != null ? refused.group(1) : refused.group(2) != null ? refused.group(2)
                            : refused.group(3).replaceAll("\\s+", " ")).toUpperCase(Locale.ROOT)
                    + ": it runs Java code or reaches files or other databases from the server");
        }
        if (SET_STATEMENT.matcher(sql).find()) {
            throw new DialectException(DialectError.PERMISSION_DENIED, "the h2 dialect refuses SET statements (other"
                    + " than SET @variable): they could change the database for every session or the call's limits");
        }
    }
}
