package io.queryapigate.paging;

import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.errors.ApiException;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.sql.SqlTail;
import io.queryapigate.sql.SqlTail.Operand;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.parser.AbstractJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Page parameters and the SQL rewrite that applies them.
 *
 * <p><b>Parameters</b> ({@link #parse}): {@code page} is 1-based (at most 2147483647), {@code page_size} is 1 to
 * the configured maximum (1000 by default, 10 when not given); a call without either gets the first page.
 *
 * <p><b>Rewrite</b> ({@link #rewrite}): only SELECT statements (including {@code WITH}, set operations,
 * {@code VALUES}) can be paged; others are 400 {@code invalid_paging}. A page never widens the statement's own
 * window: with page offset {@code o = (page-1)*size} and {@code k = size+1} rows fetched (the extra row tells
 * whether more exist),
 * <ul>
 *   <li>no window of its own: {@code LIMIT k OFFSET o} is appended ({@link PagedSql.Mode#APPENDED});
 *   <li>a window with literal operands ({@code LIMIT n [OFFSET m]}, {@code LIMIT m, n}, {@code LIMIT ALL},
 *       {@code OFFSET m [ROWS]}, {@code [OFFSET m ROWS] FETCH FIRST|NEXT [n] ROW(S) ONLY}): it is replaced by its
 *       intersection with the page, {@code LIMIT max(0, min(k, n-o)) OFFSET m+o} ({@link PagedSql.Mode#NARROWED});
 *   <li>operands that are {@code ?} markers or expressions, {@code WITH TIES}, {@code PERCENT}, {@code TOP}: the
 *       statement is wrapped, {@code SELECT * FROM (<stmt>) AS qag_page LIMIT k OFFSET o}
 *       ({@link PagedSql.Mode#WRAPPED});
 *   <li>the generic JDBC family (no common syntax), locking clauses ({@code FOR UPDATE}), and statements the parser
 *       cannot read: the SQL is left alone and the caller skips and cuts the rows while reading ({@link
 *       PagedSql.Mode#CLIENT}, through {@link PagedSql#sink}).
 * </ul>
 * Trino gets {@code OFFSET o LIMIT k} (its order); PostgreSQL, DuckDB, MySQL, SQLite and ClickHouse {@code LIMIT
 * k OFFSET o}. Trailing semicolons and comments are dropped; {@code ?} markers are never added, removed or
 * reordered. Every text edit is checked by parsing the result with JSqlParser and comparing it, window aside, with
 * the original; a failed check falls back to wrapping, then to client-side paging.
 */
public final class Paging {
    /** The default largest page size. */
    public static final int DEFAULT_MAX_PAGE_SIZE = 1000;
    /** The default page size when only {@code page} is given. */
    public static final int DEFAULT_PAGE_SIZE = 10;
    /** The alias of the wrapping subquery. */
    public static final String WRAP_ALIAS = "qag_page";

    private static final long MAX_PAGE = Integer.MAX_VALUE;
    private static final int PLAN_CACHE_SIZE = 1024;
    private static final long PARSE_TIMEOUT_MILLIS = 3000;
    private static final Set<String> SELECT_KEYWORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM", "(");
    private static final ExecutorService PARSER_THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "qag-paging-parser");
        t.setDaemon(true);
        return t;
    });

    private final int maxPageSize;
    private final int defaultPageSize;
    private final Map<PlanKey, Plan> plans = new ConcurrentHashMap<>();

    /**
     * @param maxPageSize the largest {@code page_size} accepted
     * @param defaultPageSize the page size when {@code page_size} is not given
     */
    public Paging(int maxPageSize, int defaultPageSize) {
        if (maxPageSize < 1 || defaultPageSize < 1 || defaultPageSize > maxPageSize) {
            throw new IllegalArgumentException("need 1 <= defaultPageSize <= maxPageSize");
        }
        this.maxPageSize = maxPageSize;
        this.defaultPageSize = defaultPageSize;
    }

    /** Maximum 1000, default 10. */
    public static Paging defaults() {
        return new Paging(DEFAULT_MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
    }

    public int maxPageSize() {
        return maxPageSize;
    }

    /**
     * Validates the {@code page} and {@code page_size} request values, as the Python original reads them: a value
     * that is not an integer is 400 {@code invalid_request}; one below 1, or a page size above the maximum, is 400
     * {@code invalid_paging}; each with an {@code errors} entry per parameter. An empty value counts as absent.
     *
     * @param page the raw {@code page} value, null when absent
     * @param pageSize the raw {@code page_size} value, null when absent
     * @return the request; the first page of the default size when neither was given ({@link PageRequest#asked()}
     *     false)
     * @throws ApiException 400 {@code invalid_request} or {@code invalid_paging}
     */
    public PageRequest parse(String page, String pageSize) {
        boolean noPage = page == null || page.isBlank();
        boolean noSize = pageSize == null || pageSize.isBlank();
        if (noPage && noSize) {
            return new PageRequest(1, defaultPageSize, false);
        }
        Map<String, String> notIntegers = new LinkedHashMap<>();
        Map<String, String> outOfRange = new LinkedHashMap<>();
        long p = noPage ? 1 : integer(page, "page", notIntegers);
        long size = noSize ? defaultPageSize : integer(pageSize, "page_size", notIntegers);
        if (!notIntegers.isEmpty()) {
            throw new ApiException(400, "invalid_request", String.join(" and ", notIntegers.keySet())
                    + " must be an integer", notIntegers);
        }
        if (p < 1 || p > MAX_PAGE) {
            outOfRange.put("page", "must be a whole number from 1 to " + MAX_PAGE);
        }
        if (size < 1 || size > maxPageSize) {
            outOfRange.put("page_size", "must be a whole number from 1 to " + maxPageSize);
        }
        if (!outOfRange.isEmpty()) {
            String msg = outOfRange.containsKey("page_size") && size > maxPageSize
                    ? "page_size must not exceed " + maxPageSize : "page and page_size must be positive";
            throw new ApiException(400, "invalid_paging", msg, outOfRange);
        }
        return new PageRequest(p, (int) size, true);
    }

    /** An integer with an optional sign and surrounding blanks; out of range = Long.MIN_VALUE. */
    private static long integer(String raw, String name, Map<String, String> errors) {
        String s = raw.strip();
        int i = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (i == s.length() || !s.substring(i).chars().allMatch(c -> c >= '0' && c <= '9')) {
            errors.put(name, "must be an integer");
            return 0;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return s.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * A read's page: {@link #rewrite} where the statement can be rewritten, else the SQL unchanged and the page cut
     * while reading ({@link PagedSql.Mode#CLIENT}: {@code SHOW}, {@code DESCRIBE}, {@code PRAGMA}, {@code EXPLAIN}
     * and other reads that are not a {@code SELECT}).
     */
    public PagedSql rewriteRead(String sql, PageRequest request, SqlDialectFamily fam, LexicalRules rules) {
        try {
            return rewrite(sql, request, fam, rules);
        } catch (ApiException notPageable) {
            return new PagedSql(sql, request, PagedSql.Mode.CLIENT, request.offset());
        }
    }

    /**
     * Rewrites a statement to return one page (plus one row), reading it with the family's built-in lexical rules.
     *
     * @see #rewrite(String, PageRequest, SqlDialectFamily, LexicalRules)
     */
    public PagedSql rewrite(String sql, PageRequest request, SqlDialectFamily family) {
        return rewrite(sql, request, family, family.lexicalRules());
    }

    /**
     * Rewrites a statement to return one page (plus one row).
     *
     * @param sql the statement with {@code ?} markers
     * @param request the page
     * @param fam the connection's SQL family: how the page is written, the parser's options
     * @param rules the connection's lexical rules: where the statement, its literals and its window end
     * @return the statement to run and how to read it
     * @throws ApiException 400 {@code invalid_paging} when the statement is not a single SELECT
     */
    public PagedSql rewrite(String sql, PageRequest request, SqlDialectFamily fam, LexicalRules rules) {
        // lexing and parsing (JSqlParser: milliseconds) do not depend on the page: how a statement is paged is
        // decided once per statement text and remembered, with its lexed tail; a saved query's text is the same
        // String every call, so the lookup hashes nothing new
        PlanKey key = new PlanKey(fam, rules, sql);
        Plan plan = plans.get(key);
        if (plan == null) {
            SqlTail tail = SqlTail.lex(sql, rules);
            plan = tail.end == 0 || tail.multiple || tail.unterminated ? Plan.NOT_PAGEABLE
                    : new Plan(analyse(tail, fam, rules, request), tail);
            if (plans.size() >= PLAN_CACHE_SIZE) {
                plans.clear();
            }
            plans.put(key, plan);
        }
        if (plan.mode() == null) {
            throw notPageable();
        }
        return build(plan.mode(), plan.tail(), fam, request);
    }

    private record PlanKey(SqlDialectFamily fam, LexicalRules rules, String sql) {}

    /** How a statement is paged, and its lexed tail; {@link #NOT_PAGEABLE} for statements that cannot be. */
    private record Plan(PagedSql.Mode mode, SqlTail tail) {
        static final Plan NOT_PAGEABLE = new Plan(null, null);
    }

    /** Decides how to page the statement, checking each text edit by parsing its result. */
    private static PagedSql.Mode analyse(SqlTail tail, SqlDialectFamily fam, LexicalRules rules,
            PageRequest request) {
        SqlTail.Window lexed = tail.window();
        // what is it? the parser decides; the lexer's window helps where JSqlParser cannot read it
        Select reference = null; // the statement (or its body before the window) as parsed
        String originalText = null; // the full statement as JSqlParser prints it, when it parses
        AstWindow own = null;
        Statement parsed = parseSql(tail.parserText(tail.end), fam);
        String printed = parsed instanceof Select ? printed(parsed) : null;
        if (parsed != null && (printed != null || !(parsed instanceof Select))) {
            if (!(parsed instanceof Select s) || writesInto(s)) {
                return null;
            }
            reference = s;
            originalText = printed;
            own = astWindow(s);
        } else if (lexed != null) {
            Statement body = parseSql(tail.parserText(lexed.start()), fam);
            if (body instanceof Select b && !writesInto(b) && astWindow(b) == null) {
                reference = b;
                own = AstWindow.of(lexed);
            }
        }
        if (reference == null) {
            return SELECT_KEYWORDS.contains(tail.firstKeyword()) ? PagedSql.Mode.CLIENT : null;
        }
        if (fam == SqlDialectFamily.GENERIC || lockingOrOddTail(reference) || tail.hasTrailingClauses(fam)) {
            return PagedSql.Mode.CLIENT;
        }
        String expected = withoutWindow(reference); // the statement, window aside (reference is spent now)
        PagedSql.Mode mode = null;
        if (own == null && lexed == null) {
            mode = PagedSql.Mode.APPENDED;
        } else if (own != null && lexed != null && own.matches(lexed) && lexed.literal()) {
            mode = PagedSql.Mode.NARROWED;
        }
        if (mode != null && !editChecks(build(mode, tail, fam, request), tail, fam, rules, expected)) {
            mode = null;
        }
        if (mode == null) {
            mode = wrapChecks(build(PagedSql.Mode.WRAPPED, tail, fam, request), tail, fam, rules, originalText)
                    ? PagedSql.Mode.WRAPPED : PagedSql.Mode.CLIENT;
        }
        return mode;
    }

    /** The statement to run for a page, by mode. */
    private static PagedSql build(PagedSql.Mode mode, SqlTail tail, SqlDialectFamily fam, PageRequest request) {
        String stmt = tail.statement();
        long o = request.offset();
        int k = request.fetch();
        return switch (mode) {
            case APPENDED -> new PagedSql(stmt + "\n" + clause(fam, k, o), request, mode, 0);
            case NARROWED -> {
                SqlTail.Window own = tail.window();
                long m = own.offset() == null ? 0 : own.offset().value();
                Operand n = own.limit();
                long newOffset = saturatedAdd(m, o);
                long newLimit = n == null || n.kind() == Operand.Kind.ALL ? k : Math.max(0, Math.min(k, n.value() - o));
                String out = stmt.substring(0, own.start()).stripTrailing() + "\n" + clause(fam, newLimit, newOffset);
                yield new PagedSql(out, request, mode, 0);
            }
            case WRAPPED -> new PagedSql("SELECT * FROM (\n" + stmt + "\n) AS " + WRAP_ALIAS + "\n" + clause(fam, k, o),
                    request, mode, 0);
            case CLIENT -> new PagedSql(stmt, request, mode, o);
        };
    }

    private static ApiException notPageable() {
        return new ApiException(400, "invalid_paging",
                "Paging applies to a single SELECT statement only; run this statement without page/page_size.");
    }

    static String clause(SqlDialectFamily fam, long limit, long offset) {
        if (fam == SqlDialectFamily.TRINO) {
            return (offset > 0 ? "OFFSET " + offset + " " : "") + "LIMIT " + limit;
        }
        return "LIMIT " + limit + (offset > 0 ? " OFFSET " + offset : "");
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * An appended or narrowed statement passes when it has the same {@code ?} markers, parses, carries exactly the
     * intended window, and is otherwise the original ({@code expected}: the original printed without its window).
     */
    private static boolean editChecks(PagedSql paged, SqlTail original, SqlDialectFamily fam, LexicalRules rules,
            String expected) {
        String out = paged.sql();
        SqlTail lexedOut = SqlTail.lex(out, rules);
        if (lexedOut.params != original.params || lexedOut.multiple || lexedOut.end != out.length()) {
            return false;
        }
        if (!(parseSql(lexedOut.parserText(lexedOut.end), fam) instanceof Select s)) {
            return false;
        }
        SqlTail.Window w = lexedOut.window();
        AstWindow parsed = astWindow(s);
        if (w == null || parsed == null || !parsed.matches(w) || !w.literal() || w.limit() == null
                || w.limit().kind() != Operand.Kind.LITERAL) {
            return false;
        }
        long offset = w.offset() == null ? 0 : w.offset().value();
        PageRequest r = paged.request();
        if (paged.mode() == PagedSql.Mode.APPENDED && (w.limit().value() != r.fetch() || offset != r.offset())) {
            return false;
        }
        return withoutWindow(s).equals(expected);
    }

    /** A wrapped statement passes when it has the same markers and, if the original parsed, holds it unchanged. */
    private static boolean wrapChecks(PagedSql paged, SqlTail original, SqlDialectFamily fam, LexicalRules rules,
            String originalText) {
        SqlTail lexedOut = SqlTail.lex(paged.sql(), rules);
        if (lexedOut.params != original.params || lexedOut.multiple) {
            return false;
        }
        if (originalText == null) {
            return true; // JSqlParser cannot read the original (its FETCH with a marker, say): nothing to compare
        }
        return parseSql(lexedOut.parserText(lexedOut.end), fam) instanceof PlainSelect ps
                && ps.getFromItem() instanceof ParenthesedSelect inner
                && inner.getSelect().toString().equals(originalText);
    }

    private static String withoutWindow(Select s) {
        s.setLimit(null);
        s.setOffset(null);
        s.setFetch(null);
        return s.toString();
    }

    private static boolean writesInto(Select s) {
        return s instanceof PlainSelect ps && (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty()
                || ps.getIntoTempTable() != null);
    }

    private static boolean lockingOrOddTail(Select s) {
        if (s.getForMode() != null || s.getForUpdateTable() != null || s.getIsolation() != null
                || s.getForClause() != null) {
            return true;
        }
        return s instanceof PlainSelect ps && (ps.getForXmlPath() != null || ps.getOptimizeFor() != null);
    }

    /** A statement's own window as the parser sees it. */
    private record AstWindow(Operand limit, Operand offset, boolean complex, boolean special) {
        static AstWindow of(SqlTail.Window w) {
            return w == null ? null : new AstWindow(w.limit(), w.offset(), false, w.special());
        }

        boolean matches(SqlTail.Window w) {
            return !complex && special == w.special() && java.util.Objects.equals(limit, w.limit())
                    && java.util.Objects.equals(offset, w.offset());
        }
    }

    private static AstWindow astWindow(Select s) {
        Limit l = s.getLimit();
        Offset off = s.getOffset();
        Fetch f = s.getFetch();
        boolean special = false;
        if (s instanceof PlainSelect ps && (ps.getTop() != null || ps.getFirst() != null || ps.getSkip() != null)) {
            special = true;
        }
        if (l == null && off == null && f == null && !special) {
            return null;
        }
        boolean complex = false;
        Operand limit = null;
        Operand offset = null;
        if (l != null) {
            // LIMIT ALL is an AllValue row count; LIMIT NULL (a NullValue) counts as complex: wrapped
            limit = operand(l.getRowCount());
            complex |= limit == null;
            if (l.getOffset() != null) {
                offset = operand(l.getOffset());
                complex |= offset == null;
            }
        }
        if (f != null) {
            if (f.getExpression() != null) {
                limit = operand(f.getExpression()); // a literal or a JdbcParameter
                complex |= limit == null;
            } else {
                limit = Operand.literal(1); // FETCH FIRST ROW ONLY (JSqlParser keeps no count; getRowCount() fails)
            }
            for (String p : f.getFetchParameters()) {
                if (p.toUpperCase(java.util.Locale.ROOT).contains("PERCENT")
                        || p.toUpperCase(java.util.Locale.ROOT).contains("TIES")) {
                    special = true;
                }
            }
        }
        if (off != null) {
            if (offset != null) {
                complex = true;
            }
            offset = operand(off.getOffset());
            complex |= offset == null;
        }
        return new AstWindow(limit, offset, complex, special);
    }

    private static Operand operand(Expression e) {
        if (e instanceof LongValue v) {
            java.math.BigInteger b = v.getBigIntegerValue();
            return Operand.literal(b.bitLength() < 63 ? b.longValue() : Long.MAX_VALUE);
        }
        if (e instanceof JdbcParameter) {
            return Operand.PARAM;
        }
        if (e instanceof AllValue) {
            return Operand.ALL;
        }
        return null;
    }

    /**
     * The statement as JSqlParser prints it; {@code null} when it is nested too deeply to print (30,000 terms of
     * {@code 1+1+...}: the printer recurses once per operator), so it is read as one the parser could not parse.
     */
    private static String printed(Statement statement) {
        try {
            return statement.toString();
        } catch (StackOverflowError tooDeep) {
            return null;
        }
    }

    /** JSqlParser with the family's options and a time limit; {@code null} when it cannot parse the text. */
    static Statement parseSql(String sql, SqlDialectFamily fam) {
        Consumer<CCJSqlParser> setup = p -> {
            switch (fam) {
                case POSTGRES -> p.withDialect(AbstractJSqlParser.Dialect.POSTGRESQL);
                case MYSQL -> p.withDialect(AbstractJSqlParser.Dialect.MYSQL);
                case SQLITE, GENERIC -> p.withSquareBracketQuotation(true);
                default -> { }
            }
            p.withTimeOut(PARSE_TIMEOUT_MILLIS);
        };
        try {
            return CCJSqlParserUtil.parse(sql, PARSER_THREADS, setup);
        } catch (Exception | StackOverflowError e) {
            return null;
        }
    }
}
