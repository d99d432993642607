package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.util.regex.Pattern;

/**
 * Refuses text with more than one statement. SQLite compiles the first statement of a string and hands back the
 * rest, which the driver drops without a word: {@code SELECT 1; DELETE FROM t} would answer {@code 1} and look as if
 * it had done both. The check reads the text as SQLite does (strings, quoted names in {@code "}, {@code `} and
 * {@code []}, {@code --} and non-nesting block comments) and fails when anything but blanks, comments and
 * semicolons follows the first statement's semicolon. {@code CREATE TRIGGER}, whose body holds semicolons, is left
 * to SQLite.
 */
final class SqliteStatements {
    private static final Pattern TRIGGER = Pattern.compile(
            "^\\s*create\\s+(temp\\s+|temporary\\s+)?trigger\\b", Pattern.CASE_INSENSITIVE);

    private SqliteStatements() {}

    static void requireSingle(String sql) {
        int end = firstStatementEnd(sql);
        if (end < 0 || TRIGGER.matcher(sql).find()) {
            return;
        }
        int i = end + 1;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == ';') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int line = sql.indexOf('\n', i);
                i = line < 0 ? n : line + 1;
            } else if (sql.startsWith("/*", i)) {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else {
                throw new DialectException(DialectError.SYNTAX, "the sqlite dialect runs one statement per call;"
                        + " found another after the first ';': '" + abbreviate(sql.substring(i).strip()) + "'");
            }
        }
    }

    /** The index of the semicolon that ends the first statement, or -1 when there is none. */
    private static int firstStatementEnd(String sql) {
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            switch (c) {
                case '\'', '"', '`' -> i = closing(sql, i, c);
                case '[' -> {
                    int close = sql.indexOf(']', i + 1);
                    i = close < 0 ? n : close + 1;
                }
                case '-' -> {
                    if (sql.startsWith("--", i)) {
                        int line = sql.indexOf('\n', i);
                        i = line < 0 ? n : line + 1;
                    } else {
                        i++;
                    }
                }
                case '/' -> {
                    if (sql.startsWith("/*", i)) {
                        int close = sql.indexOf("*/", i + 2);
                        i = close < 0 ? n : close + 2;
                    } else {
                        i++;
                    }
                }
                case ';' -> {
                    return i;
                }
                default -> i++;
            }
        }
        return -1;
    }

    /** Past the quote that closes the one at {@code start} (a doubled quote stands for itself). */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        int n = sql.length();
        while (i < n) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return n;
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
