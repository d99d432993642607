package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A view of one statement for paging, over the connection's {@link SqlLexer} tokens: where the statement really
 * ends (before trailing comments and semicolons), whether other statements follow, the first keyword, the
 * statement's own trailing row window ({@code LIMIT/OFFSET/FETCH}) with its position, and a copy of the text for
 * the parser with literals and comments blanked (same length, so positions agree).
 */
public final class SqlTail {
    public enum TokKind { WORD, NUMBER, PARAM, PUNCT, STRING, IDENT, COMMENT }

    public record Tok(int start, int end, TokKind kind, int depth, String text) {
        boolean is(String word) {
            return kind == TokKind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isPunct(char c) {
            return kind == TokKind.PUNCT && text.length() == 1 && text.charAt(0) == c;
        }
    }

    /** A LIMIT/OFFSET/FETCH operand. */
    public record Operand(Kind kind, long value) {
        public enum Kind { LITERAL, PARAM, ALL }

        public static final Operand ALL = new Operand(Kind.ALL, 0);
        public static final Operand PARAM = new Operand(Kind.PARAM, 0);

        public static Operand literal(long v) {
            return new Operand(Kind.LITERAL, v);
        }
    }

    /**
     * A statement's own trailing window.
     *
     * @param start where the window clause starts in the text
     * @param limit the row count ({@code null}: no limit; {@link Operand#ALL}: explicitly unlimited)
     * @param offset the rows skipped ({@code null}: none)
     * @param special FETCH ... WITH TIES or PERCENT: the size is not a row count
     */
    public record Window(int start, Operand limit, Operand offset, boolean special) {
        public boolean literal() {
            return !special && (limit == null || limit.kind() != Operand.Kind.PARAM)
                    && (offset == null || offset.kind() == Operand.Kind.LITERAL);
        }
    }

    public final String sql;
    public final List<Tok> tokens;
    /** End of the statement proper (exclusive): trailing whitespace, comments and semicolons excluded. */
    public final int end;
    /** Whether a top-level semicolon is followed by more code (several statements). */
    public final boolean multiple;
    public final boolean unterminated;
    public final int params;

    private SqlTail(String sql, List<Tok> tokens, int end, boolean multiple, boolean unterminated, int params) {
        this.sql = sql;
        this.tokens = tokens;
        this.end = end;
        this.multiple = multiple;
        this.unterminated = unterminated;
        this.params = params;
    }

    /** The statement text proper. */
    public String statement() {
        return sql.substring(0, end);
    }

    /** The first word of the statement ({@code SELECT}, {@code WITH}, ...), upper case, or "(" or "". */
    public String firstKeyword() {
        for (Tok t : tokens) {
            if (t.kind == TokKind.COMMENT) {
                continue;
            }
            if (t.kind == TokKind.WORD) {
                return t.text.toUpperCase(Locale.ROOT);
            }
            return t.isPunct('(') ? "(" : "";
        }
        return "";
    }

    /**
     * The text for the parser, up to {@code upTo}: comments become spaces, string literal contents become
     * {@code x}, dollar-quoted and E'' strings become plain '...' literals of the same length.
     */
    public String parserText(int upTo) {
        StringBuilder b = new StringBuilder(sql.substring(0, upTo));
        for (Tok t : tokens) {
            if (t.start >= upTo) {
                break;
            }
            if (t.kind == TokKind.COMMENT) {
                for (int i = t.start; i < t.end; i++) {
                    char c = b.charAt(i);
                    b.setCharAt(i, c == '\n' || c == '\r' ? c : ' ');
                }
            } else if (t.kind == TokKind.STRING) {
                int s = t.start;
                int e = t.end;
                // keep a prefix letter (N'..', X'..' are not blanked away), but E'..' becomes ' '..'
                while (s < e && sql.charAt(s) != '\'' && sql.charAt(s) != '$' && sql.charAt(s) != '"') {
                    if (Character.toUpperCase(sql.charAt(s)) == 'E') {
                        b.setCharAt(s, ' ');
                    }
                    s++;
                }
                if (e - s >= 2) {
                    b.setCharAt(s, '\'');
                    b.setCharAt(e - 1, '\'');
                    for (int i = s + 1; i < e - 1; i++) {
                        char c = b.charAt(i);
                        b.setCharAt(i, c == '\n' || c == '\r' ? c : 'x');
                    }
                }
            }
        }
        return b.toString();
    }

    /**
     * Whether the statement has top-level clauses that must come after a row window, or that make paging in SQL
     * unwise: {@code FOR UPDATE/SHARE/XML...}, MySQL {@code LOCK IN SHARE MODE}, {@code INTO} (outfile, variables),
     * and ClickHouse {@code SETTINGS} and {@code FORMAT}.
     *
     * @param family the connection's SQL family
     */
    public boolean hasTrailingClauses(SqlDialectFamily family) {
        List<Tok> top = topLevel();
        for (int i = 1; i < top.size(); i++) {
            Tok t = top.get(i);
            if (t.is("FOR") || t.is("LOCK") || t.is("INTO")) {
                return true;
            }
            if (family == SqlDialectFamily.CLICKHOUSE && (t.is("SETTINGS")
                    || t.is("FORMAT") && !(i + 1 < top.size() && top.get(i + 1).isPunct('(')))) {
                return true;
            }
        }
        return false;
    }

    /** Top-level significant tokens of the statement proper. */
    private List<Tok> topLevel() {
        List<Tok> out = new ArrayList<>();
        for (Tok t : tokens) {
            if (t.start >= end) {
                break;
            }
            if (t.depth == 0 && t.kind != TokKind.COMMENT) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The statement's own trailing window, when its operands are literals, {@code ?} markers or {@code ALL};
     * {@code null} when the statement does not end with one this lexer can read (an expression operand, say).
     */
    public Window window() {
        List<Tok> top = topLevel();
        for (int i = 0; i < top.size(); i++) {
            Tok t = top.get(i);
            if (t.is("LIMIT") || t.is("OFFSET") || t.is("FETCH")) {
                Window w = parseWindow(top, i);
                if (w != null) {
                    return w;
                }
            }
        }
        return null;
    }

    private static Window parseWindow(List<Tok> top, int i) {
        int start = top.get(i).start;
        Operand limit = null;
        Operand offset = null;
        boolean sawLimit = false;
        boolean sawOffset = false;
        boolean sawFetch = false;
        boolean special = false;
        int n = top.size();
        while (i < n) {
            Tok t = top.get(i);
            if (t.is("LIMIT") && !sawLimit && !sawFetch) {
                sawLimit = true;
                if (i + 1 >= n) {
                    return null;
                }
                Operand a = operand(top.get(i + 1), true);
                if (a == null) {
                    return null;
                }
                i += 2;
                if (i < n && top.get(i).isPunct(',')) { // LIMIT offset, count
                    if (sawOffset || a == Operand.ALL || i + 1 >= n) {
                        return null;
                    }
                    Operand b = operand(top.get(i + 1), false);
                    if (b == null) {
                        return null;
                    }
                    offset = a;
                    sawOffset = true;
                    limit = b;
                    i += 2;
                } else {
                    limit = a;
                }
            } else if (t.is("OFFSET") && !sawOffset) {
                sawOffset = true;
                if (i + 1 >= n) {
                    return null;
                }
                offset = operand(top.get(i + 1), false);
                if (offset == null) {
                    return null;
                }
                i += 2;
                if (i < n && (top.get(i).is("ROW") || top.get(i).is("ROWS"))) {
                    i++;
                }
            } else if (t.is("FETCH") && !sawFetch && !sawLimit) {
                sawFetch = true;
                i++;
                if (i >= n || !(top.get(i).is("FIRST") || top.get(i).is("NEXT"))) {
                    return null;
                }
                i++;
                limit = Operand.literal(1);
                if (i < n && (top.get(i).kind == TokKind.NUMBER || top.get(i).kind == TokKind.PARAM)) {
                    limit = operand(top.get(i), false);
                    if (limit == null) {
                        return null;
                    }
                    i++;
                }
                if (i < n && top.get(i).is("PERCENT")) {
                    special = true;
                    i++;
                }
                if (i >= n || !(top.get(i).is("ROW") || top.get(i).is("ROWS"))) {
                    return null;
                }
                i++;
                if (i < n && top.get(i).is("ONLY")) {
                    i++;
                } else if (i + 1 < n && top.get(i).is("WITH") && top.get(i + 1).is("TIES")) {
                    special = true;
                    i += 2;
                } else {
                    return null;
                }
            } else {
                return null;
            }
        }
        return new Window(start, limit, offset, special);
    }

    private static Operand operand(Tok t, boolean allowAll) {
        if (t.kind == TokKind.PARAM) {
            return Operand.PARAM;
        }
        if (allowAll && t.is("ALL")) {
            return Operand.ALL;
        }
        if (t.kind == TokKind.NUMBER && t.text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            BigInteger v = new BigInteger(t.text);
            return Operand.literal(v.bitLength() < 63 ? v.longValue() : Long.MAX_VALUE);
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ lexing

    /**
     * Reads a statement under the connection's lexical rules (the primary reading).
     *
     * @param sql the statement, with {@code ?} markers
     * @param rules the connection's lexical rules
     */
    public static SqlTail lex(String sql, LexicalRules rules) {
        List<SqlLexer.Token> lexed = SqlLexer.tokens(sql, rules);
        List<Tok> tokens = new ArrayList<>();
        int n = sql.length();
        int depth = 0;
        boolean unterminated = false;
        int params = 0;
        int next = 0;
        int i = 0;
        while (i < n) {
            int start = i;
            if (next < lexed.size() && lexed.get(next).start() == i) {
                SqlLexer.Token t = lexed.get(next++);
                unterminated |= t.unterminated();
                i = t.end();
                tokens.add(switch (t.kind()) {
                    case COMMENT -> new Tok(start, i, TokKind.COMMENT, depth, "");
                    case STRING -> new Tok(start, i, TokKind.STRING, depth, "");
                    case IDENTIFIER -> new Tok(start, i, TokKind.IDENT, depth, sql.substring(start, i));
                });
                continue;
            }
            int limit = next < lexed.size() ? lexed.get(next).start() : n;
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                while (i < limit && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                // a string with a prefix (E'..', N'..', X'..', B'..') is lexed as a string from the quote
                tokens.add(new Tok(start, i, TokKind.WORD, depth, sql.substring(start, i)));
                continue;
            }
            if (c >= '0' && c <= '9' || c == '.' && i + 1 < limit && Character.isDigit(sql.charAt(i + 1))) {
                while (i < limit && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.'
                        || (sql.charAt(i) == '+' || sql.charAt(i) == '-')
                        && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E'))) {
                    i++;
                }
                tokens.add(new Tok(start, i, TokKind.NUMBER, depth, sql.substring(start, i)));
                continue;
            }
            if (c == '?') {
                params++;
                tokens.add(new Tok(start, i + 1, TokKind.PARAM, depth, "?"));
                i++;
                continue;
            }
            if (c == ')') {
                depth = Math.max(0, depth - 1);
            }
            tokens.add(new Tok(start, i + 1, TokKind.PUNCT, depth, String.valueOf(c)));
            if (c == '(') {
                depth++;
            }
            i++;
        }
        // fold prefixed strings: a WORD immediately followed by a STRING that starts at its end (E'..', N'..')
        List<Tok> folded = new ArrayList<>(tokens.size());
        for (Tok t : tokens) {
            if (t.kind == TokKind.STRING && !folded.isEmpty()) {
                Tok prev = folded.get(folded.size() - 1);
                if (prev.kind == TokKind.WORD && prev.end == t.start && prev.text.length() <= 2) {
                    folded.set(folded.size() - 1, new Tok(prev.start, t.end, TokKind.STRING, t.depth, ""));
                    continue;
                }
            }
            folded.add(t);
        }
        // the statement ends at the last significant token that is not a top-level semicolon
        int end = 0;
        boolean multiple = false;
        boolean afterSemicolon = false;
        for (Tok t : folded) {
            if (t.kind == TokKind.COMMENT) {
                continue;
            }
            if (t.depth == 0 && t.isPunct(';')) {
                afterSemicolon = true;
                continue;
            }
            if (afterSemicolon) {
                multiple = true;
            }
            end = t.end;
        }
        return new SqlTail(sql, List.copyOf(folded), end, multiple, unterminated, params);
    }
}
