package io.queryapigate.guard;

import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.sql.SqlLexer;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.guard.DialectProfile.FunctionClass;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.UnsupportedStatement;
import org.postgresql.core.NativeQuery;
import org.postgresql.core.Parser;

/**
 * The parser-based SQL guard: decides whether one SQL text may run for one caller, and says what it does.
 *
 * <p>For every call it checks, in order:
 * <ol>
 *   <li>size: at most {@link #maxLength()} characters ({@code 413 sql_too_long});</li>
 *   <li>lexically, under the dialect's own rules ({@link SqlLexer}; for the generic family under every family's
 *       rules, which must agree): exactly one statement ({@code 400 multiple_statements}), no MySQL executable
 *       comment ({@code /*! ... *}{@code /}), no unterminated literal or comment, nesting at most {@value #MAX_DEPTH}
 *       parentheses deep;</li>
 *   <li>for PostgreSQL, exactly one statement as pgjdbc itself splits the text
 *       ({@link Parser#parseJdbcSql}), because pgjdbc sends each piece as a statement of its own;</li>
 *   <li>with JSqlParser ({@code CCJSqlParserUtil.parseStatements}, within a time limit) on a copy of the text whose
 *       comments and literal contents the dialect's lexer has blanked, so that the parser cannot disagree with the
 *       database about where a literal or a comment ends: exactly one statement;</li>
 *   <li>then it walks the whole tree and applies the caller's rules: read-only ({@code 403 read_only}), allowed
 *       write operations ({@code 403 write_op_not_allowed}), nothing that outlives the call for any caller
 *       (session-state and SQL-text functions, variables, temporary tables), allowed tables ({@code 403
 *       table_not_allowed}), for restricted or masked callers only the engine's pure functions ({@link
 *       FunctionCatalogue}, {@code 403 function_not_allowed}), and for masked callers no catalogues;</li>
 *   <li>for a caller with masks, where the masked columns flow ({@link MaskTrace}, {@code 403
 *       column_masked_unresolvable} or {@code column_masked_in_predicate}).</li>
 * </ol>
 * Where servers of the family read a text differently (by version or setting), every reading the profile lists
 * must agree, or the text is refused.
 * SQL the parser cannot read is refused ({@code 400 sql_not_parseable}) for read-only callers and for any caller
 * with a restriction; an unrestricted writer's unparseable statement is admitted on its leading keyword
 * ({@link GuardResult#parsed()} false). See {@code docs/security.md} for the decisions behind each rule.
 *
 * <p>Expected input: the SQL exactly as it will be sent to the driver (for the service, {@code SqlText.jdbcSql()},
 * with {@code ?} markers). Named {@code :name} markers parse as well, so checking the stored text of a saved query
 * gives the same verdict.
 *
 * <p>Thread-safe and without per-call state: one instance serves the whole process.
 */
public final class SqlGuard {
    /** The default limit on the SQL's length, in characters (the service's own limit is 64 KiB as well). */
    public static final int DEFAULT_MAX_LENGTH = 64 * 1024;
    /** The default time limit for parsing one statement. */
    public static final Duration DEFAULT_PARSE_TIMEOUT = Duration.ofSeconds(2);
    /** The deepest parenthesis nesting accepted. */
    public static final int MAX_DEPTH = 100;

    static final ExecutorService PARSER_THREADS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60,
            TimeUnit.SECONDS, new SynchronousQueue<>(), new ParserThreads());

    /** Daemon threads with a large stack: the parser is recursive-descent and deep expressions need room. */
    private static final class ParserThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(null, r, "sql-guard-parser-" + count.incrementAndGet(), 16L << 20);
            t.setDaemon(true);
            return t;
        }
    }

    private enum Kw { READ, METADATA, WRITE, DDL, SESSION }

    private static final Map<String, Kw> KEYWORDS = new HashMap<>();

    static {
        for (String k : List.of("SELECT", "WITH", "VALUES", "TABLE", "FROM", "EXPLAIN", "SUMMARIZE", "PIVOT",
                "UNPIVOT")) {
            KEYWORDS.put(k, Kw.READ);
        }
        for (String k : List.of("SHOW", "DESCRIBE", "DESC")) {
            KEYWORDS.put(k, Kw.METADATA);
        }
        for (String k : List.of("INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "COPY", "LOAD",
                "IMPORT", "EXPORT", "UNLOAD")) {
            KEYWORDS.put(k, Kw.WRITE);
        }
        for (String k : List.of("CREATE", "DROP", "ALTER", "TRUNCATE", "RENAME", "GRANT", "REVOKE", "COMMENT",
                "VACUUM", "ANALYZE", "OPTIMIZE", "REINDEX", "CLUSTER", "REFRESH", "ATTACH", "DETACH", "INSTALL",
                "CHECKPOINT", "SECURITY", "REASSIGN", "SYSTEM", "KILL", "SHUTDOWN", "FLUSH", "PURGE", "REPAIR",
                "UNDROP", "EXCHANGE", "FORCE", "UNINSTALL", "RESTORE", "BACKUP")) {
            KEYWORDS.put(k, Kw.DDL);
        }
        for (String k : List.of("SET", "RESET", "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT",
                "SAVEPOINT", "RELEASE", "USE", "LOCK", "UNLOCK", "LISTEN", "UNLISTEN", "NOTIFY", "PRAGMA",
                "DISCARD", "PREPARE", "DEALLOCATE", "EXECUTE", "EXEC", "CALL", "DECLARE", "FETCH", "MOVE", "CLOSE",
                "XA", "HANDLER")) {
            KEYWORDS.put(k, Kw.SESSION);
        }
    }

    /** Words that may start the explained statement after EXPLAIN and its options. */
    private static final Set<String> STATEMENT_STARTS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM",
            "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "CREATE", "DROP", "ALTER", "TRUNCATE", "COPY",
            "CALL", "EXEC", "EXECUTE", "LOAD", "DECLARE", "SET", "SHOW", "DESCRIBE", "DESC", "PIVOT", "UNPIVOT",
            "SUMMARIZE", "GRANT", "REVOKE", "RENAME", "ATTACH", "DETACH", "VACUUM", "PRAGMA", "DO", "IMPORT",
            "EXPORT", "UNLOAD", "LOCK", "USE", "RESET", "BEGIN", "START", "COMMIT", "ROLLBACK");

    /**
     * Words that may start the statement after MariaDB's ANALYZE and its FORMAT option: reads only. ANALYZE of a
     * write runs the write but answers with its plan, not its count, so the affected-rows ceiling could not see it.
     */
    private static final Set<String> ANALYZED_STATEMENT_STARTS = Set.of("SELECT", "WITH", "VALUES");

    /** Session and transaction control a writer may not run: the gateway owns the session and transaction. */
    private static final Set<String> CALL_OPS = Set.of("call", "exec", "execute");

    private final int maxLength;
    private final long parseTimeoutMillis;

    /** A guard with the default length limit (64 KiB) and parse time limit (2 s). */
    public SqlGuard() {
        this(DEFAULT_MAX_LENGTH, DEFAULT_PARSE_TIMEOUT);
    }

    /**
     * @param maxLength the longest SQL (in characters) the guard will parse
     * @param parseTimeout how long the parser may take for one statement before the SQL is refused
     */
    public SqlGuard(int maxLength, Duration parseTimeout) {
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be positive");
        }
        this.maxLength = maxLength;
        this.parseTimeoutMillis = Math.max(1, parseTimeout.toMillis());
    }

    public int maxLength() {
        return maxLength;
    }

    /**
     * Checks one SQL text for one caller.
     *
     * @param sql the SQL as it will be sent to the driver
     * @param options the caller's dialect, defaults and restrictions
     * @return what the statement does, when it may run
     * @throws GuardException when it may not, with the HTTP status, stable code and a message for the caller
     */
    public GuardResult check(String sql, GuardOptions options) {
        Objects.requireNonNull(options, "options");
        if (sql == null || sql.isBlank()) {
            throw GuardException.notParseable("The SQL is empty.");
        }
        if (sql.length() > maxLength) {
            throw new GuardException(413, GuardException.SQL_TOO_LONG,
                    "The SQL is longer than the limit of " + maxLength + " characters.");
        }
        if (sql.indexOf('\0') >= 0) {
            throw GuardException.notParseable("The SQL contains a NUL character.");
        }
        DialectProfile profile = DialectProfile.of(options.dialect());
        SqlLexer.Result lex = lexicalChecks(sql, options);

        // the lexer found exactly one statement: any ; left in the parser's text is an empty statement around it.
        // Line breaks go too: JSqlParser also ends a statement at a blank line ("\n\n\n"), at "\n/\n" and at
        // "\ngo\n", which no database does; with comments and literals blanked, a line break is only a blank.
        String parserText = flatten(lex.parserText());
        if (options.dialect() == SqlDialectFamily.CLICKHOUSE) {
            parserText = withoutTrailingFormat(lex.code(), parserText);
        }
        Statement statement = null;
        String parseProblem = null;
        try {
            Statements parsed = parse(parserText, profile);
            if (parsed.size() > 1) {
                throw GuardException.multipleStatements("Only one SQL statement may be sent per call; the parser found "
                        + parsed.size() + ".");
            }
            if (parsed.isEmpty()) {
                throw GuardException.notParseable("The SQL holds no statement.");
            }
            statement = parsed.get(0);
            if (statement instanceof UnsupportedStatement) {
                statement = null;
                parseProblem = "the parser does not know this statement";
            }
        } catch (JSQLParserException e) {
            parseProblem = describe(e, sql, 0);
        }
        boolean explainedText = false;
        if (statement == null) {
            // EXPLAIN forms the parser lacks (EXPLAIN QUERY PLAN, EXPLAIN FORMAT=JSON, EXPLAIN PIPELINE, ...) and
            // MySQL/MariaDB's ANALYZE <statement>: the guard judges the explained statement as if it ran (MariaDB's
            // ANALYZE does run it), so checking it alone is at least as strict
            int rest = explainedStatementStart(lex.code(), options.dialect());
            if (rest > 0) {
                try {
                    Statements parsed = parse(parserText.substring(rest), profile);
                    if (parsed.size() == 1 && !(parsed.get(0) instanceof UnsupportedStatement)) {
                        statement = parsed.get(0);
                        explainedText = true;
                    }
                } catch (JSQLParserException e) {
                    parseProblem = describe(e, sql, rest);
                }
            }
        }
        if (statement == null) {
            return unparsed(lex.code(), options, parseProblem, profile);
        }
        Names names = new Names(options, lex.identifiers());
        try {
            AstSweep.Findings findings = AstSweep.sweep(statement, profile, options, names);
            findings.explained |= explainedText;
            GuardResult result = decide(findings, options, profile);
            if (!options.masks().isEmpty()) {
                result = result.withMasks(MaskTrace.trace(statement, lex, names, options, result.tables()));
            }
            return result;
        } catch (StackOverflowError e) {
            throw GuardException.notParseable("The statement is nested too deeply to check.");
        }
    }

    // ------------------------------------------------------------------------------------------------ lexical

    private SqlLexer.Result lexicalChecks(String sql, GuardOptions options) {
        List<LexicalRules> readings = options.readings();
        SqlLexer.Result lex = SqlLexer.scan(sql, readings.get(0), true);
        if (lex.statements() > 1) {
            throw GuardException.multipleStatements("Only one SQL statement may be sent per call.");
        }
        boolean executable = lex.executableComment();
        boolean setVar = lex.hintSetsVariable();
        String ambiguous = null;
        for (LexicalRules alt : readings.subList(1, readings.size())) {
            SqlLexer.Result r = SqlLexer.scan(sql, alt, true);
            if (r.statements() > 1) {
                throw GuardException.multipleStatements("Only one SQL statement may be sent per call; read with "
                        + alt.name() + " rules the SQL holds more than one.");
            }
            executable |= r.executableComment();
            setVar |= r.hintSetsVariable();
            if (ambiguous == null && !sameRegions(lex.code(), r.code())) {
                ambiguous = alt.name();
            }
        }
        if (executable) {
            if (options.readOnly()) {
                throw GuardException.readOnly("Executable comments (/*! ... */) are not allowed: the database runs "
                        + "their content, which the guard cannot check.");
            }
            throw GuardException.notParseable("Executable comments (/*! ... */) cannot be checked; remove them.");
        }
        if (lex.unterminated()) {
            throw GuardException.notParseable(
                    "The SQL has an unterminated string literal, quoted identifier or comment.");
        }
        if (ambiguous != null) {
            // servers of one family disagree about some text (ClickHouse 18.16 does not nest comments, a PostgreSQL
            // server may read backslashes in '...' as escapes; the generic family knows no server at all): a text
            // whose literals, quoted names or comments lie elsewhere under another reading could mean something else
            // to the server than to the guard, so neither reading is picked
            throw GuardException.notParseable("The SQL reads differently under " + ambiguous + " rules "
                    + "(nested /* comments */, backslashes in literals, #, //, [...], $$ or -- without a blank); "
                    + "write it so that every reading agrees.");
        }
        if (lex.statements() == 0) {
            throw GuardException.notParseable("The SQL holds no statement, only comments or semicolons.");
        }
        if (lex.maxDepth() > MAX_DEPTH) {
            throw GuardException.notParseable("The SQL is nested more than " + MAX_DEPTH + " parentheses deep.");
        }
        if (setVar && options.readOnly()) {
            throw GuardException.readOnly("Optimizer hints that set variables (SET_VAR) are not allowed for a "
                    + "read-only call.");
        }
        if (options.dialect() == SqlDialectFamily.POSTGRES) {
            int driverStatements = pgjdbcStatements(sql);
            if (driverStatements > 1) {
                throw GuardException.multipleStatements("Only one SQL statement may be sent per call; the "
                        + "PostgreSQL driver would send " + driverStatements + ".");
            }
        }
        return lex;
    }

    /** True when two readings put code, literals/quoted names and comments in the same places. */
    static boolean sameRegions(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && !(quoted(x) && quoted(y))) {
                return false;
            }
        }
        return true;
    }

    private static boolean quoted(char c) {
        return c == SqlLexer.LITERAL || c == SqlLexer.IDENTIFIER;
    }

    /** How many statements pgjdbc sends for this text (pieces holding only comments or blanks do not count). */
    static int pgjdbcStatements(String sql) {
        List<NativeQuery> queries;
        try {
            queries = Parser.parseJdbcSql(sql, true, true, true, false, false);
        } catch (SQLException e) {
            throw GuardException.notParseable("The PostgreSQL driver cannot read the SQL: " + trim(e.getMessage()));
        }
        int count = 0;
        for (NativeQuery q : queries) {
            if (SqlLexer.scan(q.nativeSql, LexicalRules.POSTGRES, false).statements() > 0) {
                count++;
            }
        }
        return count;
    }

    /**
     * ClickHouse's trailing {@code FORMAT <name>} (the output format, which the parser does not know) blanked out of
     * the parser's text; it changes nothing the guard looks at.
     */
    static String withoutTrailingFormat(String code, String parserText) {
        int end = code.length();
        while (end > 0 && (Character.isWhitespace(code.charAt(end - 1)) || code.charAt(end - 1) == ';')) {
            end--;
        }
        int nameStart = end;
        while (nameStart > 0 && SqlLexer.isIdentPart(code.charAt(nameStart - 1))) {
            nameStart--;
        }
        if (nameStart == end) {
            return parserText;
        }
        int gap = nameStart;
        while (gap > 0 && Character.isWhitespace(code.charAt(gap - 1))) {
            gap--;
        }
        if (gap == nameStart || gap < 6 || !code.substring(gap - 6, gap).equalsIgnoreCase("FORMAT")
                || (gap > 6 && SqlLexer.isIdentPart(code.charAt(gap - 7)))) {
            return parserText;
        }
        StringBuilder sb = new StringBuilder(parserText);
        for (int i = gap - 6; i < end; i++) {
            sb.setCharAt(i, ' ');
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------ parsing

    private Statements parse(String sql, DialectProfile profile) throws JSQLParserException {
        try {
            return CCJSqlParserUtil.parseStatements(sql, PARSER_THREADS, parser -> {
                profile.configure(parser);
                parser.withTimeOut(parseTimeoutMillis);
            });
        } catch (StackOverflowError e) {
            throw new JSQLParserException("the statement is nested too deeply", e);
        } catch (RuntimeException e) {
            throw new JSQLParserException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
        }
    }

    /** The text on one line, without semicolons: same length, so offsets still point into the original. */
    static String flatten(String parserText) {
        char[] c = parserText.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] == ';' || c[i] == '\n' || c[i] == '\r' || c[i] == '\f' || c[i] == '\u000B') {
                c[i] = ' ';
            }
        }
        return new String(c);
    }

    private static final Pattern POSITION = Pattern.compile("at line (\\d+), column (\\d+)");
    /** A blanked literal as the parser reports it: {@code "'   '"} or {@code "\'   \'"}. */
    private static final Pattern BLANKED_LITERAL = Pattern.compile("Encountered \"\\\\?'[ 0]*\\\\?'\"");
    /** A placeholder for a quoted name as the parser reports it: {@code "\"~1_\""}. */
    private static final Pattern PLACEHOLDER_NAME = Pattern.compile(
            "Encountered \"\\\\?[\"`\\[]" + SqlLexer.PLACEHOLDER + "[0-9a-z]+_*\\\\?[\"`\\]]\"");

    /**
     * The parser's message, trimmed, with its position (in the flattened text, which starts at {@code offset} of
     * the SQL) turned back into a line and column of the SQL as sent.
     */
    private String describe(JSQLParserException e, String sql, int offset) {
        String reason = describe(e);
        Matcher pos = POSITION.matcher(reason);
        if (pos.find() && pos.group(1).equals("1")) {
            try {
                int at = offset + Integer.parseInt(pos.group(2)) - 1;
                int line = 1;
                int col = 1;
                for (int i = 0; i < at && i < sql.length(); i++) {
                    char ch = sql.charAt(i);
                    if (ch == '\n' || (ch == '\r' && (i + 1 >= sql.length() || sql.charAt(i + 1) != '\n'))) {
                        line++;
                        col = 1;
                    } else {
                        col++;
                    }
                }
                reason = reason.substring(0, pos.start()) + "at line " + line + ", column " + col
                        + reason.substring(pos.end());
            } catch (NumberFormatException ignored) {
                // keep the parser's position
            }
        }
        return reason;
    }

    private String describe(JSQLParserException e) {
        String m = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException
                    || (t.getMessage() != null && t.getMessage().contains("Time out occurred"))) {
                return "parsing took longer than " + parseTimeoutMillis + " ms";
            }
            if (t instanceof StackOverflowError) {
                return "the statement is nested too deeply";
            }
        }
        return trim(m);
    }

    /** The parser's message without its list of expected tokens, on one line. */
    static String trim(String message) {
        if (message == null || message.isBlank()) {
            return "unknown error";
        }
        String m = message;
        if (m.startsWith("net.sf.jsqlparser.parser.ParseException: ")) {
            m = m.substring("net.sf.jsqlparser.parser.ParseException: ".length());
        }
        int cut = m.indexOf("Was expecting");
        if (cut > 0) {
            m = m.substring(0, cut);
        }
        m = m.replaceAll("\\s+", " ").replace(" in lexical state DEFAULT", "")
                .replaceAll("Encountered: <[^>]*> / ", "Encountered ").replace("Encountered:", "Encountered").strip();
        while (m.endsWith(".") || m.endsWith(",")) {
            m = m.substring(0, m.length() - 1).strip();
        }
        // the parser saw literals blanked and some quoted names replaced: do not show those stand-ins
        m = BLANKED_LITERAL.matcher(m).replaceAll("Encountered a string literal");
        m = PLACEHOLDER_NAME.matcher(m).replaceAll("Encountered a quoted name");
        if (m.length() > 200) {
            m = m.substring(0, 200) + "...";
        }
        return m;
    }

    // ------------------------------------------------------------------------------------------------ decisions

    private static GuardResult decide(AstSweep.Findings f, GuardOptions o, DialectProfile profile) {
        StatementKind kind = f.kind();
        if (o.readOnly()) {
            if (kind != StatementKind.READ) {
                throw GuardException.readOnly(readOnlyMessage(kind, f));
            }
            if (f.lockingRead) {
                throw GuardException.readOnly("Locking reads (FOR UPDATE, FOR SHARE, FOR NO KEY UPDATE, FOR KEY SHARE) "
                        + "take row locks and are not allowed for a read-only call.");
            }
        } else {
            for (String op : f.sessionOps) {
                if (!CALL_OPS.contains(op)) {
                    throw GuardException.writeOpNotAllowed("Session and transaction control (" + op.toUpperCase(
                            Locale.ROOT) + ") is not allowed: the gateway runs each call in its own session state.");
                }
            }
            if (f.explained && kind != StatementKind.READ) {
                // EXPLAIN ANALYZE (and MariaDB's ANALYZE) runs the write but answers with its plan: the
                // affected-rows ceiling would count plan lines, not changed rows
                throw GuardException.writeOpNotAllowed("EXPLAIN of a write is not allowed: EXPLAIN ANALYZE runs the "
                        + "write and answers with its plan, which the gateway cannot hold to the key's limits; run the "
                        + "write itself.");
            }
            if (o.allowedWriteOps() != null) {
                for (String op : f.ops) {
                    if (!o.allowedWriteOps().contains(op)) {
                        throw GuardException.writeOpNotAllowed("This key may not run " + op.toUpperCase(Locale.ROOT)
                                + (f.hiddenWrites.isEmpty() ? "" : " (" + String.join(", ", f.hiddenWrites) + ")")
                                + "; it may run: " + (o.allowedWriteOps().isEmpty() ? "no writes"
                                : String.join(", ", new TreeSet<>(o.allowedWriteOps()))) + ".");
                    }
                }
            }
        }
        sessionState(f, o, profile);
        if (o.readOnly()) {
            for (Map.Entry<String, Set<FunctionClass>> e : f.flaggedFunctions.entrySet()) {
                Set<FunctionClass> classes = e.getValue();
                if (classes.contains(FunctionClass.WRITE)) {
                    throw GuardException.readOnly("The function " + e.getKey() + "() writes data or server state; "
                            + "it is not allowed for a read-only call.");
                }
                if (classes.contains(FunctionClass.FILE_OR_NETWORK) && !o.allowFileFunctions()) {
                    throw GuardException.readOnly("The function " + e.getKey() + "() reads files or the network; "
                            + "it is not allowed on this connection.");
                }
            }
            if (!f.fileSources.isEmpty() && !o.allowFileFunctions()) {
                throw GuardException.readOnly("Reading files (" + f.fileSources.get(0)
                        + " used as a table) is not allowed on this connection.");
            }
        }
        if (o.resolvedAllowedTables() != null) {
            checkTables(f, o);
        }
        if (o.functionsRestricted()) {
            checkFunctions(f, o, profile);
        }
        if (!o.masks().isEmpty()) {
            checkCatalogs(f, profile);
        }
        Set<String> tableFunctionNames = new LinkedHashSet<>();
        for (AstSweep.TableFn fn : f.tableFunctions) {
            tableFunctionNames.add(fn.name());
        }
        return new GuardResult(kind, new TreeSet<>(f.ops), f.reads, f.writes, tableFunctionNames, f.functions,
                f.lockingRead, true, null);
    }

    /**
     * What would outlive the call in the pooled session, for every caller: functions that leave session state or
     * administer the server, SQL run from text (which could do either unseen), variable assignments, and temporary
     * tables where the dialect does not drop them after a write (only PostgreSQL's does, with DISCARD TEMP).
     */
    private static void sessionState(AstSweep.Findings f, GuardOptions o, DialectProfile profile) {
        for (Map.Entry<String, Set<FunctionClass>> e : f.flaggedFunctions.entrySet()) {
            Set<FunctionClass> classes = e.getValue();
            if (classes.contains(FunctionClass.SESSION)) {
                throw sessionRefusal(o, "The function " + e.getKey() + "() changes session or server state that "
                        + "would outlive this call (settings, variables, seeds, locks, other sessions); it is not "
                        + "allowed.");
            }
            if (classes.contains(FunctionClass.DYNAMIC)) {
                throw sessionRefusal(o, "The function " + e.getKey() + "() runs SQL given as text or reads objects "
                        + "named by strings, which the guard cannot check; it is not allowed.");
            }
        }
        if (f.userVariables) {
            throw sessionRefusal(o, "Assigning variables changes session state that would outlive this call; it is "
                    + "not allowed.");
        }
        if (f.temporaryTable && profile.family != SqlDialectFamily.POSTGRES) {
            throw sessionRefusal(o, "Temporary tables would outlive this call in the pooled session; they are not "
                    + "allowed on this connection.");
        }
        if (!o.administrator()) {
            otherCallers(f, o, profile);
        }
    }

    /**
     * What shows one key another key's traces, through the database user they all share: session variables an
     * earlier call on the pooled connection may have left, and other sessions' statements.
     */
    private static void otherCallers(AstSweep.Findings f, GuardOptions o, DialectProfile profile) {
        if (f.variableReads) {
            throw sessionRefusal(o, "Session and system variables may hold what an earlier call on the pooled "
                    + "connection left; reading them is not allowed.");
        }
        for (TableName t : f.reads) {
            if (profile.isActivity(t)) {
                throw GuardException.tableNotAllowed("This key may not read " + t + ": it shows other callers' "
                        + "statements.");
            }
        }
        for (String shown : f.shown) {
            if (shown.contains("processlist")) {
                throw sessionRefusal(o, "SHOW PROCESSLIST shows other callers' statements; it is not allowed.");
            }
        }
        for (AstSweep.Call call : f.calls) {
            if (DialectProfile.isActivityFunction(call.name())) {
                throw GuardException.tableNotAllowed("This key may not call " + call.name() + "(): it shows other "
                        + "callers' statements.");
            }
        }
    }

    private static GuardException sessionRefusal(GuardOptions o, String message) {
        return o.readOnly() ? GuardException.readOnly(message) : GuardException.writeOpNotAllowed(message);
    }

    /** A restricted caller (tables or masks) may call only the engine's pure built-ins and the operator's extras. */
    private static void checkFunctions(AstSweep.Findings f, GuardOptions o, DialectProfile profile) {
        for (AstSweep.Call call : f.calls) {
            if (f.tableFunctions.contains(new AstSweep.TableFn(call.name(), call.qualifier()))
                    && DialectProfile.isGenerator(call.name(), call.qualifier())) {
                continue;
            }
            boolean extra = call.qualifier() == null ? o.extraFunctions().contains(call.name())
                    : o.extraFunctions().contains(call.qualifier() + "." + call.name());
            if (!extra && !profile.allowsFunction(call.name(), call.qualifier())) {
                String name = call.qualifier() == null ? call.name() : call.qualifier() + "." + call.name();
                throw GuardException.functionNotAllowed("This key may not call the function " + name + "(): a key "
                        + "restricted to tables or with masked columns may call only functions that compute from "
                        + "their arguments (see docs/function-catalogues.md); an operator can allow more per "
                        + "connection (allowedFunctions).");
            }
        }
        for (String type : f.nameCasts) {
            throw GuardException.functionNotAllowed("This key may not cast to " + type + ": it looks objects up by "
                    + "name.");
        }
    }

    /** A caller with masks may not read the engine's catalogues and statistics, nor list objects with SHOW. */
    private static void checkCatalogs(AstSweep.Findings f, DialectProfile profile) {
        for (TableName t : f.reads) {
            if (profile.isCatalogTable(t)) {
                throw GuardException.tableNotAllowed("This key has masked columns and may not read " + t + ": the "
                        + "database's catalogues and statistics show column values.");
            }
        }
        if (f.show) {
            throw GuardException.tableNotAllowed("This key has masked columns and may not run SHOW statements.");
        }
    }

    private static void checkTables(AstSweep.Findings f, GuardOptions o) {
        Set<TableName> allowed = o.resolvedAllowedTables();
        for (TableName t : f.writes) {
            if (!allowed.contains(t)) {
                throw GuardException.tableNotAllowed("This key may not use the table " + t + ".");
            }
        }
        for (TableName t : f.reads) {
            if (!allowed.contains(t)) {
                throw GuardException.tableNotAllowed("This key may not use the table " + t + ".");
            }
        }
        for (AstSweep.TableFn fn : f.tableFunctions) {
            if (!DialectProfile.isGenerator(fn.name(), fn.qualifier())) {
                throw GuardException.tableNotAllowed("This key may not use the table function " + fn.name()
                        + "(): only generators (generate_series, range, numbers, unnest, ...) are allowed with a "
                        + "table restriction.");
            }
        }
        if (!f.fileSources.isEmpty()) {
            throw GuardException.tableNotAllowed("This key may not read files (" + f.fileSources.get(0)
                    + " used as a table).");
        }
        for (Map.Entry<String, Set<FunctionClass>> e : f.flaggedFunctions.entrySet()) {
            if (e.getValue().contains(FunctionClass.FILE_OR_NETWORK)) {
                throw GuardException.tableNotAllowed("This key may not use the function " + e.getKey()
                        + "(): it reads data outside the allowed tables.");
            }
        }
        if (f.show) {
            throw GuardException.tableNotAllowed("SHOW statements list objects beyond the allowed tables; use "
                    + "DESCRIBE on an allowed table instead.");
        }
    }

    private static String readOnlyMessage(StatementKind kind, AstSweep.Findings f) {
        String ops = f.ops.isEmpty() ? "" : " (" + String.join(", ", f.ops).toUpperCase(Locale.ROOT) + ")";
        return switch (kind) {
            case WRITE -> "This call may only read; the statement writes" + ops
                    + (f.hiddenWrites.isEmpty() ? "" : " through " + String.join(", ", f.hiddenWrites)) + ".";
            case DDL -> "This call may only read; the statement changes the schema" + ops + ".";
            case SESSION -> "This call may only read; the statement controls the session or transaction" + ops + ".";
            default -> "This call may only read; the statement is not a plain read" + ops + ".";
        };
    }

    // ------------------------------------------------------------------------------------------------ unparsed

    /** A statement the parser cannot read: judged on its leading keyword, and admitted only where that is enough. */
    private static GuardResult unparsed(String code, GuardOptions o, String problem, DialectProfile profile) {
        String why = problem == null ? "the parser could not read it" : problem;
        String first = firstWord(code, 0);
        String keyword = first;
        if ("EXPLAIN".equals(first) || "ANALYZE".equals(first)) {
            int rest = explainedStatementStart(code, o.dialect());
            keyword = rest > 0 ? firstWord(code, rest) : first;
        }
        Kw kw = keyword == null ? null : KEYWORDS.get(keyword);
        StatementKind kind = kw == null ? StatementKind.OTHER : switch (kw) {
            case READ, METADATA -> StatementKind.READ;
            case WRITE -> StatementKind.WRITE;
            case DDL -> StatementKind.DDL;
            case SESSION -> StatementKind.SESSION;
        };
        String op = keyword == null ? "unknown" : keyword.toLowerCase(Locale.ROOT);
        if (o.readOnly()) {
            if (kw == null) {
                throw GuardException.notParseable("The SQL could not be parsed, so it cannot be checked: " + why
                        + ".");
            }
            if (kind != StatementKind.READ) {
                throw GuardException.readOnly("This call may only read; the statement starts with " + keyword
                        + (keyword.equals(first) ? "" : " (under " + first + ")") + ".");
            }
            if (kw == Kw.METADATA && !o.restricted() && !mentionsNonReadWord(code)
                    && code.indexOf('(') < 0) {
                unparsedReach(code, o, profile);
                return unparsedResult(StatementKind.READ, null);
            }
            throw GuardException.notParseable("The SQL could not be parsed, so it cannot be checked: " + why + ".");
        }
        if (o.restricted()) {
            throw GuardException.notParseable("The SQL could not be parsed, so it cannot be checked against this "
                    + "key's restrictions: " + why + ".");
        }
        if (kind == StatementKind.SESSION && !CALL_OPS.contains(op)) {
            throw GuardException.writeOpNotAllowed("Session and transaction control (" + keyword + ") is not "
                    + "allowed: the gateway runs each call in its own session state.");
        }
        unparsedReach(code, o, profile);
        return unparsedResult(kind, kind == StatementKind.READ ? null : op);
    }

    /**
     * For a statement admitted on its leading keyword, what the words still show: a call of a function that leaves
     * session state or runs SQL text; for keys other than the administrator's, variables (MySQL {@code @x}), {@code
     * PREVIOUS VALUE FOR} and process lists, which show what other callers left or run.
     */
    private static void unparsedReach(String code, GuardOptions o, DialectProfile profile) {
        int n = code.length();
        int i = 0;
        String previous = null;
        String beforePrevious = null;
        while (i < n) {
            char c = code.charAt(i);
            if (!SqlLexer.isIdentStart(c)) {
                if (c == '@' && !o.administrator() && (profile.family == SqlDialectFamily.MYSQL
                        || profile.family == SqlDialectFamily.GENERIC)) {
                    throw sessionRefusal(o, "Session and system variables may hold what an earlier call on the "
                            + "pooled connection left; reading them is not allowed.");
                }
                i++;
                continue;
            }
            int end = i + 1;
            while (end < n && SqlLexer.isIdentPart(code.charAt(end))) {
                end++;
            }
            String w = code.substring(i, end).toLowerCase(Locale.ROOT);
            int next = end;
            while (next < n && Character.isWhitespace(code.charAt(next))) {
                next++;
            }
            if (next < n && code.charAt(next) == '(') {
                Set<FunctionClass> classes = profile.classify(w);
                if (classes.contains(FunctionClass.SESSION) || classes.contains(FunctionClass.DYNAMIC)) {
                    throw sessionRefusal(o, "The function " + w + "() changes or reads session state, or runs SQL "
                            + "given as text; it is not allowed.");
                }
            }
            if (!o.administrator() && (w.equals("processlist") || DialectProfile.isActivityFunction(w)
                    || w.equals("for") && "value".equals(previous) && "previous".equals(beforePrevious))) {
                throw sessionRefusal(o, "The statement reads what other callers left or run (" + w + "); it is not "
                        + "allowed.");
            }
            beforePrevious = previous;
            previous = w;
            i = end;
        }
    }

    private static GuardResult unparsedResult(StatementKind kind, String op) {
        TreeSet<String> ops = new TreeSet<>();
        if (op != null) {
            ops.add(op);
        }
        return new GuardResult(kind, ops, Collections.emptySet(), Collections.emptySet(), Collections.emptySet(),
                Collections.emptySet(), false, false, null);
    }

    /** True when the code (literals, quoted names and comments blanked) holds a word that starts a non-read. */
    private static boolean mentionsNonReadWord(String code) {
        int n = code.length();
        int i = 0;
        while (i < n) {
            char c = code.charAt(i);
            if (SqlLexer.isIdentStart(c)) {
                int end = i + 1;
                while (end < n && SqlLexer.isIdentPart(code.charAt(end))) {
                    end++;
                }
                String w = code.substring(i, end).toUpperCase(Locale.ROOT);
                Kw kw = KEYWORDS.get(w);
                if ((kw != null && kw != Kw.READ && kw != Kw.METADATA && !w.equals("CREATE"))
                        || w.equals("INTO") || w.equals("OUTFILE") || w.equals("DUMPFILE")) {
                    return true;
                }
                i = end;
            } else {
                i++;
            }
        }
        return false;
    }

    /** The upper-case word starting at or after {@code from} (skipping blanks and opening parentheses), or null. */
    private static String firstWord(String code, int from) {
        int n = code.length();
        int i = from;
        while (i < n && (Character.isWhitespace(code.charAt(i)) || code.charAt(i) == '(')) {
            i++;
        }
        int end = i;
        while (end < n && SqlLexer.isIdentPart(code.charAt(end))) {
            end++;
        }
        return end > i ? code.substring(i, end).toUpperCase(Locale.ROOT) : null;
    }

    /**
     * Where the explained statement starts in {@code EXPLAIN [options] statement}, skipping option words, numbers,
     * {@code =}, commas, literals and parenthesised option lists; -1 when the text is not such an EXPLAIN.
     */
    static int explainedStatementStart(String code, SqlDialectFamily dialect) {
        int n = code.length();
        int i = 0;
        while (i < n && Character.isWhitespace(code.charAt(i))) {
            i++;
        }
        int end = i;
        while (end < n && SqlLexer.isIdentPart(code.charAt(end))) {
            end++;
        }
        String first = code.substring(i, end);
        // MariaDB's ANALYZE [FORMAT=JSON] SELECT/UPDATE/DELETE/... runs the statement and shows its plan;
        // ANALYZE [LOCAL|NO_WRITE_TO_BINLOG] TABLE t (statistics) is not one
        boolean analyze = dialect == SqlDialectFamily.MYSQL && first.equalsIgnoreCase("ANALYZE");
        if (!first.equalsIgnoreCase("EXPLAIN") && !analyze) {
            return -1;
        }
        i = end;
        while (i < n) {
            char c = code.charAt(i);
            if (Character.isWhitespace(c) || c == '=' || c == ',' || c == SqlLexer.LITERAL
                    || c == SqlLexer.IDENTIFIER || (c >= '0' && c <= '9')) {
                i++;
            } else if (c == '(') {
                int depth = 0;
                while (i < n) {
                    char d = code.charAt(i);
                    if (d == '(') {
                        depth++;
                    } else if (d == ')' && --depth == 0) {
                        i++;
                        break;
                    }
                    i++;
                }
                if (depth > 0) {
                    return -1;
                }
            } else if (SqlLexer.isIdentStart(c)) {
                int e = i;
                while (e < n && SqlLexer.isIdentPart(code.charAt(e))) {
                    e++;
                }
                String w = code.substring(i, e).toUpperCase(Locale.ROOT);
                if (analyze && !w.equals("FORMAT") && !w.equals("JSON")) {
                    return ANALYZED_STATEMENT_STARTS.contains(w) ? i : -1;
                }
                if (STATEMENT_STARTS.contains(w)) {
                    return i;
                }
                if (w.equals("INTO")) {
                    return -1;
                }
                i = e;
            } else {
                return -1;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "SqlGuard[maxLength=" + maxLength + ", parseTimeout=" + parseTimeoutMillis + "ms]";
    }
}
