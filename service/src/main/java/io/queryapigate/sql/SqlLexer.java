package io.queryapigate.sql;

/**
 * A dialect-parameterised lexical pass: where string literals, quoted identifiers and comments begin and end under
 * one set of rules, how many statements the text holds (segments with code between top-level or nested {@code ;}),
 * the deepest parenthesis nesting, and the comments that a parser would silently drop but a server executes
 * (MySQL {@code /*! ... *}{@code /}, MariaDB {@code /*M! ... *}{@code /}, optimizer hints that set variables).
 *
 * <p>The guard runs it under the dialect's rules and under the rules the server may be configured to use instead
 * (for example MySQL with {@code NO_BACKSLASH_ESCAPES}), and admits a statement only when every reading finds one.
 * When a choice has to be made, comments end early (at {@code \r} as well as {@code \n}) so that less text hides.
 */
public final class SqlLexer {
    /** What {@link Result#code()} shows in place of each character of a string literal. */
    public static final char LITERAL = '\u0001';
    /** What {@link Result#code()} shows in place of each character of a quoted identifier. */
    public static final char IDENTIFIER = '\u0002';

    /**
     * One way of reading SQL text.
     *
     * @param backslashInStrings backslash escapes the next character inside '...' (and "..." when it is a string)
     * @param doubleQuoteIsString "..." is a string literal (MySQL default) rather than an identifier
     * @param backslashInIdentifiers backslash escapes inside "..." and `...` identifiers (ClickHouse)
     * @param eStrings E'...' strings honour backslashes (PostgreSQL, DuckDB)
     * @param dollarQuotes $tag$...$tag$ strings (PostgreSQL, DuckDB, ClickHouse heredocs)
     * @param nestedComments block comments nest (PostgreSQL, DuckDB)
     * @param hashComments # starts a line comment (MySQL, ClickHouse)
     * @param dashDashNeedsSpace -- starts a comment only when followed by whitespace or a control character (MySQL)
     * @param bracketIdentifiers [...] quotes an identifier (SQLite, SQL Server)
     * @param backtickIdentifiers `...` quotes an identifier
     * @param clickhouse ClickHouse's own lexing: {@code //} line comments, {@code #} a comment only before a blank or
     *     {@code !}, heredoc tags of any characters ({@code $any$...$any$})
     */
    public record Rules(String name, boolean backslashInStrings, boolean doubleQuoteIsString, boolean backslashInIdentifiers,
            boolean eStrings, boolean dollarQuotes, boolean nestedComments, boolean hashComments,
            boolean dashDashNeedsSpace, boolean bracketIdentifiers, boolean backtickIdentifiers, boolean clickhouse) {}

    public static final Rules POSTGRES = new Rules("postgres", false, false, false, true, true, true, false, false, false,
            false, false);
    /** PostgreSQL with {@code standard_conforming_strings = off}: backslashes escape in every '...' literal. */
    public static final Rules POSTGRES_ESCAPE_STRINGS = new Rules("postgres standard_conforming_strings=off", true, false,
            false, true, true, true, false, false, false, false, false);
    public static final Rules ANSI = new Rules("ansi", false, false, false, false, false, false, false, false, false, false,
            false);
    public static final Rules ANSI_BACKTICK = new Rules("ansi+backtick", false, false, false, false, false, false, false,
            false, false, true, false);
    public static final Rules MYSQL = new Rules("mysql", true, true, false, false, false, false, true, true, false, true,
            false);
    public static final Rules MYSQL_NO_BACKSLASH = new Rules("mysql no_backslash_escapes", false, true, false, false, false,
            false, true, true, false, true, false);
    /** As ClickHouse's Lexer.cpp reads SQL: backslashes escape in every quote, comments nest, heredocs. */
    public static final Rules CLICKHOUSE = new Rules("clickhouse", true, false, true, false, true, true, true, false, false,
            true, true);
    /** ClickHouse before nested comments (18.16 among them): a block comment ends at the first {@code *}{@code /}. */
    public static final Rules CLICKHOUSE_FLAT_COMMENTS = new Rules("clickhouse 18.16 (comments do not nest)", true, false,
            true, false, true, false, true, false, false, true, true);
    public static final Rules SQLITE = new Rules("sqlite", false, false, false, false, false, false, false, false, true,
            true, false);

    /**
     * What one reading found.
     *
     * @param statements segments holding code (not just whitespace and comments) between semicolons
     * @param unterminated a literal, quoted identifier, dollar quote or block comment runs to the end of the text
     * @param maxDepth the deepest parenthesis nesting
     * @param executableComment a MySQL/MariaDB executable comment ({@code /*!}, {@code /*M!})
     * @param hintSetsVariable a {@code /*+ ... *}{@code /} optimizer hint with {@code SET_VAR}
     * @param code the text with literals blanked to {@link #LITERAL}, quoted identifiers to {@link #IDENTIFIER}
     *     and comments to spaces, same length as the input (null unless asked for)
     * @param parserText the text as the parser should see it, same length as the input: comments blanked, every
     *     string literal (dollar quotes and MySQL "..." strings included) turned into {@code '...'} with blank
     *     content, quoted identifiers and code kept (MySQL's {@code --} that is no comment becomes {@code - }), so
     *     that the parser cannot draw a literal's or a comment's boundary anywhere else than the dialect does
     *     (null unless asked for). A quoted identifier whose content is not plain (letters, digits, {@code _},
     *     {@code $}, spaces) is replaced by a placeholder of the same length, {@code "~<n>__"}, where n (base 36)
     *     indexes {@code identifiers}: the parser then cannot split {@code "a.b"} into two names or read escapes
     *     differently from the database
     * @param identifiers every quoted identifier, as written (quotes included), in order (null unless asked for)
     */
    public record Result(int statements, boolean unterminated, int maxDepth, boolean executableComment,
            boolean hintSetsVariable, String code, String parserText, java.util.List<String> identifiers) {}

    /** Marks a placeholder for a quoted identifier in {@link Result#parserText()}. */
    public static final char PLACEHOLDER = '~';

    private SqlLexer() {}

    public static Result scan(String sql, Rules r, boolean wantCode) {
        int n = sql.length();
        StringBuilder code = wantCode ? new StringBuilder(n) : null;
        StringBuilder text = wantCode ? new StringBuilder(n) : null;
        java.util.List<String> identifiers = wantCode ? new java.util.ArrayList<>() : null;
        int statements = 0;
        boolean segmentHasCode = false;
        boolean unterminated = false;
        boolean executable = false;
        boolean setVar = false;
        int depth = 0;
        int maxDepth = 0;
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            char fill;
            if (c == '\'') {
                boolean escapes = r.backslashInStrings || (r.eStrings && isEPrefix(sql, i));
                end = skipQuoted(sql, i, '\'', escapes);
                fill = LITERAL;
                segmentHasCode = true;
            } else if (c == '"') {
                boolean escapes = r.doubleQuoteIsString ? r.backslashInStrings : r.backslashInIdentifiers;
                end = skipQuoted(sql, i, '"', escapes);
                fill = r.doubleQuoteIsString ? LITERAL : IDENTIFIER;
                segmentHasCode = true;
            } else if (c == '`' && r.backtickIdentifiers) {
                end = skipQuoted(sql, i, '`', r.backslashInIdentifiers);
                fill = IDENTIFIER;
                segmentHasCode = true;
            } else if (c == '[' && r.bracketIdentifiers) {
                int close = sql.indexOf(']', i + 1);
                end = close < 0 ? -1 : close + 1;
                fill = IDENTIFIER;
                segmentHasCode = true;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                    && (!r.dashDashNeedsSpace || i + 2 >= n || sql.charAt(i + 2) <= ' ')) {
                end = lineEnd(sql, i);
                fill = ' ';
            } else if (c == '#' && r.hashComments && (!r.clickhouse
                    || (i + 1 < n && (sql.charAt(i + 1) == ' ' || sql.charAt(i + 1) == '!')))) {
                end = lineEnd(sql, i);
                fill = ' ';
            } else if (c == '/' && r.clickhouse && i + 1 < n && sql.charAt(i + 1) == '/') {
                end = lineEnd(sql, i);
                fill = ' ';
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                if (i + 2 < n && (sql.charAt(i + 2) == '!'
                        || ((sql.charAt(i + 2) == 'M' || sql.charAt(i + 2) == 'm') && i + 3 < n
                        && sql.charAt(i + 3) == '!'))) {
                    executable = true;
                }
                end = skipBlockComment(sql, i, r.nestedComments);
                if (i + 2 < n && sql.charAt(i + 2) == '+') {
                    int stop = end < 0 ? n : end;
                    if (sql.substring(i, stop).toUpperCase(java.util.Locale.ROOT).contains("SET_VAR")) {
                        setVar = true;
                    }
                }
                fill = ' ';
            } else if (c == '$' && r.dollarQuotes && (r.clickhouse
                    ? (i == 0 || !isIdentPart(sql.charAt(i - 1))) && heredocEnd(sql, i) > 0
                    : startsDollarQuote(sql, i))) {
                int tagEnd = sql.indexOf('$', i + 1);
                String tag = sql.substring(i, tagEnd + 1);
                int close = sql.indexOf(tag, tagEnd + 1);
                end = close < 0 ? -1 : close + tag.length();
                fill = LITERAL;
                segmentHasCode = true;
            } else {
                if (c == ';') {
                    if (segmentHasCode) {
                        statements++;
                    }
                    segmentHasCode = false;
                } else if (c == '(') {
                    depth++;
                    if (depth > maxDepth) {
                        maxDepth = depth;
                    }
                    segmentHasCode = true;
                } else if (c == ')') {
                    if (depth > 0) {
                        depth--;
                    }
                    segmentHasCode = true;
                } else if (!Character.isWhitespace(c)) {
                    segmentHasCode = true;
                }
                if (code != null) {
                    code.append(c);
                    // MySQL's -- without a blank is code; the parser must not see it as a comment
                    text.append(c == '-' && !text.isEmpty() && text.charAt(text.length() - 1) == '-' ? ' ' : c);
                }
                i++;
                continue;
            }
            if (end < 0) {
                unterminated = true;
                end = n;
            }
            if (code != null) {
                for (int k = i; k < end; k++) {
                    code.append(fill);
                }
                parserText(sql, i, end, fill, text, identifiers);
            }
            i = end;
        }
        if (segmentHasCode) {
            statements++;
        }
        return new Result(statements, unterminated, maxDepth, executable, setVar,
                code == null ? null : code.toString(), text == null ? null : text.toString(), identifiers);
    }

    /** Appends what the parser sees for the token sql[start, end): see {@link Result#parserText()}. */
    private static void parserText(String sql, int start, int end, char fill, StringBuilder text,
            java.util.List<String> identifiers) {
        if (fill == IDENTIFIER) {
            String raw = sql.substring(start, end);
            int index = identifiers.size();
            identifiers.add(raw);
            boolean plain = end - start >= 3;
            for (int k = start + 1; plain && k < end - 1; k++) {
                char c = sql.charAt(k);
                plain = Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == ' ';
            }
            String tag = PLACEHOLDER + Integer.toString(index, 36);
            if (plain || end - start - 2 < tag.length()) {
                // plain names go through as written; a special one too short for a placeholder too (the sweep
                // then finds a name it cannot match to the text and refuses)
                text.append(raw);
                return;
            }
            text.append(sql.charAt(start)).append(tag);
            for (int k = start + 1 + tag.length(); k < end - 1; k++) {
                text.append('_');
            }
            text.append(sql.charAt(end - 1));
        } else if (fill == LITERAL) {
            boolean bits = start > 0 && "BbXx".indexOf(sql.charAt(start - 1)) >= 0
                    && (start < 2 || !isIdentPart(sql.charAt(start - 2)));
            text.append('\'');
            for (int k = start + 1; k < end - 1; k++) {
                text.append(sql.charAt(k) == '\n' ? '\n' : bits ? '0' : ' ');
            }
            if (end - start >= 2) {
                text.append('\'');
            }
        } else {
            for (int k = start; k < end; k++) {
                text.append(sql.charAt(k) == '\n' ? '\n' : ' ');
            }
        }
    }

    /** ClickHouse: the end of a heredoc starting at {@code i} ($tag$ ... $tag$, any tag), or -1 when none closes. */
    private static int heredocEnd(String sql, int i) {
        int tagEnd = sql.indexOf('$', i + 1);
        if (tagEnd < 0) {
            return -1;
        }
        String tag = sql.substring(i, tagEnd + 1);
        int close = sql.indexOf(tag, tagEnd + 1);
        return close < 0 ? -1 : close + tag.length();
    }

    private static int lineEnd(String sql, int from) {
        int n = sql.length();
        for (int i = from; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\n' || c == '\r') {
                return i;
            }
        }
        return n;
    }

    private static boolean isEPrefix(String sql, int quote) {
        if (quote == 0) {
            return false;
        }
        char p = sql.charAt(quote - 1);
        if (p != 'E' && p != 'e') {
            return false;
        }
        return quote < 2 || !isIdentPart(sql.charAt(quote - 2));
    }

    /** Index after the closing quote, or -1 when the text ends first. Doubled quotes stay inside. */
    private static int skipQuoted(String sql, int start, char quote, boolean backslashEscapes) {
        int n = sql.length();
        int i = start + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return -1;
    }

    private static int skipBlockComment(String sql, int start, boolean nested) {
        int n = sql.length();
        int depth = 1;
        int i = start + 2;
        while (i < n) {
            char c = sql.charAt(i);
            if (nested && c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else if (c == '*' && i + 1 < n && sql.charAt(i + 1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    private static boolean startsDollarQuote(String sql, int i) {
        if (i > 0 && (isIdentPart(sql.charAt(i - 1)) || sql.charAt(i - 1) == '$')) {
            return false;
        }
        int j = i + 1;
        while (j < sql.length() && sql.charAt(j) != '$') {
            char c = sql.charAt(j);
            if (!(Character.isLetterOrDigit(c) || c == '_') || (j == i + 1 && Character.isDigit(c))) {
                return false;
            }
            j++;
        }
        return j < sql.length();
    }

    public static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c > 127 && Character.isLetter(c));
    }

    public static boolean isIdentPart(char c) {
        return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$';
    }
}
