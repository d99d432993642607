package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.LexicalRules.Feature;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The service's one SQL lexer: where string literals, quoted identifiers and comments begin and end under one
 * reading ({@link LexicalRules}: which quotes exist, whether backslashes escape, which comments nest, ...). Every
 * other reader of SQL text is a view over its {@link #tokens tokens}: the guard's lexical pass ({@link #scan}), the
 * parameter markers ({@link SqlText}) and the paging tail ({@link SqlTail}). So they cannot disagree about where a
 * literal or a comment ends.
 *
 * <p>{@link #scan} finds how many statements the text holds (segments with code between top-level or nested
 * {@code ;}), the deepest parenthesis nesting, and the comments that a parser would silently drop but a server
 * executes (MySQL {@code /*! ... *}{@code /}, MariaDB {@code /*M! ... *}{@code /}, optimizer hints that set
 * variables). The guard runs it under each of the connection's {@link LexicalRules#readings() readings} and
 * admits a statement only when every reading finds one. When a choice has to be made, comments end early (at
 * {@code \r} as well as {@code \n}) so that less text hides.
 */
public final class SqlLexer {
    /** What {@link Result#code()} shows in place of each character of a string literal. */
    public static final char LITERAL = '\u0001';
    /** What {@link Result#code()} shows in place of each character of a quoted identifier. */
    public static final char IDENTIFIER = '\u0002';
    /** Marks a placeholder for a quoted identifier in {@link Result#parserText()}. */
    public static final char PLACEHOLDER = '~';

    /** What a token is; the text between tokens is code. */
    public enum Kind {
        /** A string literal: {@code '...'}, {@code E'...'}, a dollar quote or heredoc, MySQL's {@code "..."}. */
        STRING,
        /** A quoted identifier: {@code "..."}, {@code `...`}, {@code [...]}. */
        IDENTIFIER,
        /** A comment: {@code --}, {@code #} or {@code //} to the end of the line, or a block comment. */
        COMMENT
    }

    /**
     * A string literal, quoted identifier or comment: the text {@code [start, end)}, quotes and comment markers
     * included. A string's prefix letter ({@code E'..'}, {@code N'..'}, {@code X'..'}) is code, not part of it.
     *
     * @param unterminated the text ends inside the token (then {@code end} is the text's length)
     */
    public record Token(Kind kind, int start, int end, boolean unterminated) {}

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
     *     content, quoted identifiers and code kept (a {@code -} after a {@code -} of code, MySQL's {@code --}
     *     that is no comment, becomes a blank), so that the parser cannot draw a literal's or a comment's boundary
     *     anywhere else than the dialect does (null unless asked for). A quoted identifier whose content is not
     *     plain (letters, digits, {@code _}, {@code $}, spaces) is replaced by a placeholder of the same length,
     *     {@code "~<n>__"}, where n (base 36) indexes {@code identifiers}: the parser then cannot split
     *     {@code "a.b"} into two names or read escapes differently from the database
     * @param identifiers every quoted identifier, as written (quotes included), in order (null unless asked for)
     */
    public record Result(int statements, boolean unterminated, int maxDepth, boolean executableComment,
            boolean hintSetsVariable, String code, String parserText, List<String> identifiers) {}

    private SqlLexer() {}

    /**
     * The string literals, quoted identifiers and comments of a text under one reading, in order.
     *
     * @param sql the text
     * @param rules the reading (only its features count, not its alternatives)
     * @return the tokens; the text between them is code
     */
    public static List<Token> tokens(String sql, LexicalRules rules) {
        Reader reader = new Reader(sql, rules);
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            Token t = reader.tokenAt(i);
            if (t == null) {
                i++;
            } else {
                out.add(t);
                i = t.end();
            }
        }
        return out;
    }

    /** True for a MySQL/MariaDB executable comment ({@code /*!}, {@code /*M!}): the server runs its content. */
    public static boolean isExecutableComment(String sql, Token t) {
        return t.kind() == Kind.COMMENT && (sql.startsWith("/*!", t.start()) || sql.startsWith("/*M!", t.start())
                || sql.startsWith("/*m!", t.start()));
    }

    /** One reading of the text: see {@link Result}. */
    public static Result scan(String sql, LexicalRules rules, boolean wantCode) {
        int n = sql.length();
        StringBuilder code = wantCode ? new StringBuilder(n) : null;
        StringBuilder text = wantCode ? new StringBuilder(n) : null;
        List<String> identifiers = wantCode ? new ArrayList<>() : null;
        int statements = 0;
        boolean segmentHasCode = false;
        boolean unterminated = false;
        boolean executable = false;
        boolean setVar = false;
        int depth = 0;
        int maxDepth = 0;
        List<Token> tokens = tokens(sql, rules);
        int i = 0;
        for (int next = 0; next <= tokens.size(); next++) {
            Token t = next < tokens.size() ? tokens.get(next) : null;
            for (int codeEnd = t == null ? n : t.start(); i < codeEnd; i++) {
                char c = sql.charAt(i);
                if (c == ';') {
                    if (segmentHasCode) {
                        statements++;
                    }
                    segmentHasCode = false;
                } else if (c == '(') {
                    depth++;
                    maxDepth = Math.max(maxDepth, depth);
                    segmentHasCode = true;
                } else if (c == ')') {
                    depth = Math.max(0, depth - 1);
                    segmentHasCode = true;
                } else if (!Character.isWhitespace(c)) {
                    segmentHasCode = true;
                }
                if (code != null) {
                    code.append(c);
                    // MySQL's -- without a blank is code; the parser must not see it as a comment
                    text.append(c == '-' && !text.isEmpty() && text.charAt(text.length() - 1) == '-' ? ' ' : c);
                }
            }
            if (t == null) {
                break;
            }
            char fill;
            if (t.kind() == Kind.COMMENT) {
                fill = ' ';
                executable |= isExecutableComment(sql, t);
                setVar |= sql.startsWith("/*+", t.start())
                        && sql.substring(t.start(), t.end()).toUpperCase(Locale.ROOT).contains("SET_VAR");
            } else {
                fill = t.kind() == Kind.STRING ? LITERAL : IDENTIFIER;
                segmentHasCode = true;
            }
            unterminated |= t.unterminated();
            if (code != null) {
                for (int k = t.start(); k < t.end(); k++) {
                    code.append(fill);
                }
                parserText(sql, t.start(), t.end(), fill, text, identifiers);
            }
            i = t.end();
        }
        if (segmentHasCode) {
            statements++;
        }
        return new Result(statements, unterminated, maxDepth, executable, setVar,
                code == null ? null : code.toString(), text == null ? null : text.toString(), identifiers);
    }

    /** Appends what the parser sees for the token sql[start, end): see {@link Result#parserText()}. */
    private static void parserText(String sql, int start, int end, char fill, StringBuilder text,
            List<String> identifiers) {
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

    /** One text under one reading. */
    private static final class Reader {
        private final String sql;
        private final int n;
        private final LexicalRules rules;

        Reader(String sql, LexicalRules rules) {
            this.sql = sql;
            this.n = sql.length();
            this.rules = rules;
        }

        /** The token that starts at {@code i}, or null when the character there is code. */
        Token tokenAt(int i) {
            char c = sql.charAt(i);
            if (!startsToken(c)) {
                return null;
            }
            char next = i + 1 < n ? sql.charAt(i + 1) : '\0';
            if (c == '\'') {
                boolean escapes = rules.has(Feature.BACKSLASH_IN_STRINGS)
                        || (rules.has(Feature.E_STRINGS) && isEPrefix(i));
                return token(Kind.STRING, i, skipQuoted(i, '\'', escapes));
            } else if (c == '"') {
                boolean string = rules.has(Feature.DOUBLE_QUOTED_STRINGS);
                boolean escapes = rules.has(string ? Feature.BACKSLASH_IN_STRINGS : Feature.BACKSLASH_IN_IDENTIFIERS);
                return token(string ? Kind.STRING : Kind.IDENTIFIER, i, skipQuoted(i, '"', escapes));
            } else if (c == '`' && rules.has(Feature.BACKTICK_IDENTIFIERS)) {
                return token(Kind.IDENTIFIER, i, skipQuoted(i, '`', rules.has(Feature.BACKSLASH_IN_IDENTIFIERS)));
            } else if (c == '[' && rules.has(Feature.BRACKET_IDENTIFIERS)) {
                int close = sql.indexOf(']', i + 1);
                return token(Kind.IDENTIFIER, i, close < 0 ? -1 : close + 1);
            } else if (c == '-' && next == '-' && (!rules.has(Feature.DASH_DASH_NEEDS_BLANK) || i + 2 >= n
                    || sql.charAt(i + 2) <= ' ')) {
                return token(Kind.COMMENT, i, lineEnd(i));
            } else if (c == '#' && rules.has(Feature.HASH_COMMENTS)
                    && (!rules.has(Feature.HASH_COMMENTS_NEED_SPACE_OR_BANG) || next == ' ' || next == '!')) {
                return token(Kind.COMMENT, i, lineEnd(i));
            } else if (c == '/' && next == '/' && rules.has(Feature.SLASH_SLASH_COMMENTS)) {
                return token(Kind.COMMENT, i, lineEnd(i));
            } else if (c == '/' && next == '*') {
                return token(Kind.COMMENT, i, skipBlockComment(i, rules.has(Feature.NESTED_COMMENTS)));
            } else if (c == '$' && rules.has(Feature.DOLLAR_QUOTES) && startsDollarQuote(i)) {
                return token(Kind.STRING, i, dollarQuoteEnd(i));
            } else if (c == '$' && rules.has(Feature.HEREDOCS) && (i == 0 || !isIdentPart(sql.charAt(i - 1)))
                    && dollarQuoteEnd(i) > 0) {
                return token(Kind.STRING, i, dollarQuoteEnd(i));
            }
            return null;
        }

        /** The characters a token can start with: any other is code under every reading. */
        private static boolean startsToken(char c) {
            return switch (c) {
                case '\'', '"', '`', '[', '-', '#', '/', '$' -> true;
                default -> false;
            };
        }

        private Token token(Kind kind, int start, int end) {
            return end < 0 ? new Token(kind, start, n, true) : new Token(kind, start, end, false);
        }

        private int lineEnd(int from) {
            for (int i = from; i < n; i++) {
                char c = sql.charAt(i);
                if (c == '\n' || c == '\r') {
                    return i;
                }
            }
            return n;
        }

        private boolean isEPrefix(int quote) {
            if (quote == 0) {
                return false;
            }
            char p = sql.charAt(quote - 1);
            return (p == 'E' || p == 'e') && (quote < 2 || !isIdentPart(sql.charAt(quote - 2)));
        }

        /** Index after the closing quote, or -1 when the text ends first. Doubled quotes stay inside. */
        private int skipQuoted(int start, char quote, boolean backslashEscapes) {
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

        private int skipBlockComment(int start, boolean nested) {
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

        /** PostgreSQL: a {@code $tag$} opens at {@code i} (the tag a name not starting with a digit, or empty). */
        private boolean startsDollarQuote(int i) {
            if (i > 0 && (isIdentPart(sql.charAt(i - 1)) || sql.charAt(i - 1) == '$')) {
                return false;
            }
            int j = i + 1;
            while (j < n && sql.charAt(j) != '$') {
                char c = sql.charAt(j);
                if (!(Character.isLetterOrDigit(c) || c == '_') || (j == i + 1 && Character.isDigit(c))) {
                    return false;
                }
                j++;
            }
            return j < n;
        }

        /** The end of a dollar quote or heredoc opening at {@code i} (any tag up to the next $), or -1. */
        private int dollarQuoteEnd(int i) {
            int tagEnd = sql.indexOf('$', i + 1);
            if (tagEnd < 0) {
                return -1;
            }
            String tag = sql.substring(i, tagEnd + 1);
            int close = sql.indexOf(tag, tagEnd + 1);
            return close < 0 ? -1 : close + tag.length();
        }
    }

    public static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c > 127 && Character.isLetter(c));
    }

    public static boolean isIdentPart(char c) {
        return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$';
    }
}
