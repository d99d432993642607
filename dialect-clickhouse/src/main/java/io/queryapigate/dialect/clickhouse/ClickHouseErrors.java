package io.queryapigate.dialect.clickhouse;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ClickHouse error texts to {@link DialectError}s, by the server's exception code ({@code Code: N} at the start of
 * the error body; 18.16 sends no {@code X-ClickHouse-Exception-Code} header), then by HTTP status.
 */
final class ClickHouseErrors {
    /** Longest server message kept in an exception. */
    static final int MAX_MESSAGE = 2000;

    private static final Pattern CODE = Pattern.compile("Code: (\\d+)[.,]");
    /** 18.x to 20.x: {@code Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception}. */
    private static final Pattern DISPLAY_TEXT = Pattern.compile("e\\.displayText\\(\\) = (.*?)(?:, e\\.what\\(\\) = .*)?$",
            Pattern.DOTALL);

    private static final Map<Integer, DialectError> BY_CODE = Map.ofEntries(
            Map.entry(159, DialectError.TIMEOUT), // TIMEOUT_EXCEEDED
            Map.entry(164, DialectError.NOT_READ_ONLY), // READONLY
            Map.entry(396, DialectError.ROW_LIMIT), // TOO_MANY_ROWS_OR_BYTES (max_result_rows, throw mode)
            Map.entry(158, DialectError.ROW_LIMIT), // TOO_MANY_ROWS (max_rows_to_read and similar)
            Map.entry(394, DialectError.CANCELLED), // QUERY_WAS_CANCELLED
            Map.entry(497, DialectError.PERMISSION_DENIED), // ACCESS_DENIED
            Map.entry(192, DialectError.PERMISSION_DENIED), // UNKNOWN_USER
            Map.entry(193, DialectError.PERMISSION_DENIED), // WRONG_PASSWORD
            Map.entry(194, DialectError.PERMISSION_DENIED), // REQUIRED_PASSWORD
            Map.entry(195, DialectError.PERMISSION_DENIED), // IP_ADDRESS_NOT_ALLOWED
            Map.entry(291, DialectError.PERMISSION_DENIED), // DATABASE_ACCESS_DENIED
            Map.entry(516, DialectError.PERMISSION_DENIED), // AUTHENTICATION_FAILED
            Map.entry(60, DialectError.SYNTAX), // UNKNOWN_TABLE
            Map.entry(62, DialectError.SYNTAX), // SYNTAX_ERROR
            Map.entry(47, DialectError.SYNTAX), // UNKNOWN_IDENTIFIER
            Map.entry(46, DialectError.SYNTAX), // UNKNOWN_FUNCTION
            Map.entry(81, DialectError.SYNTAX), // UNKNOWN_DATABASE
            Map.entry(16, DialectError.SYNTAX), // NO_SUCH_COLUMN_IN_TABLE
            Map.entry(10, DialectError.SYNTAX), // NOT_FOUND_COLUMN_IN_BLOCK
            Map.entry(36, DialectError.SYNTAX), // BAD_ARGUMENTS
            Map.entry(42, DialectError.SYNTAX), // NUMBER_OF_ARGUMENTS_DOESNT_MATCH
            Map.entry(43, DialectError.SYNTAX), // ILLEGAL_TYPE_OF_ARGUMENT
            Map.entry(44, DialectError.SYNTAX), // ILLEGAL_COLUMN
            Map.entry(53, DialectError.SYNTAX), // TYPE_MISMATCH
            Map.entry(70, DialectError.SYNTAX), // CANNOT_CONVERT_TYPE
            Map.entry(386, DialectError.SYNTAX), // NO_COMMON_TYPE
            Map.entry(6, DialectError.SYNTAX), // CANNOT_PARSE_TEXT
            Map.entry(27, DialectError.SYNTAX), // CANNOT_PARSE_INPUT_ASSERTION_FAILED
            Map.entry(38, DialectError.SYNTAX), // CANNOT_PARSE_DATE
            Map.entry(41, DialectError.SYNTAX), // CANNOT_PARSE_DATETIME
            Map.entry(69, DialectError.SYNTAX), // ARGUMENT_OUT_OF_BOUND
            Map.entry(72, DialectError.SYNTAX), // CANNOT_PARSE_NUMBER
            Map.entry(73, DialectError.SYNTAX), // UNKNOWN_FORMAT
            Map.entry(115, DialectError.SYNTAX), // UNKNOWN_SETTING
            Map.entry(179, DialectError.SYNTAX), // MULTIPLE_EXPRESSIONS_FOR_ALIAS
            Map.entry(184, DialectError.SYNTAX), // ILLEGAL_AGGREGATION
            Map.entry(215, DialectError.SYNTAX), // NOT_AN_AGGREGATE
            Map.entry(352, DialectError.SYNTAX), // AMBIGUOUS_COLUMN_NAME
            Map.entry(57, DialectError.SYNTAX), // TABLE_ALREADY_EXISTS
            Map.entry(113, DialectError.SYNTAX), // THERE_IS_NO_SESSION (SET, temporary tables: the dialect is stateless)
            Map.entry(241, DialectError.RESOURCE_LIMIT), // MEMORY_LIMIT_EXCEEDED
            Map.entry(469, DialectError.CONSTRAINT), // VIOLATED_CONSTRAINT (newer servers)
            Map.entry(202, DialectError.UNAVAILABLE), // TOO_MANY_SIMULTANEOUS_QUERIES
            Map.entry(209, DialectError.UNAVAILABLE), // SOCKET_TIMEOUT
            Map.entry(210, DialectError.UNAVAILABLE), // NETWORK_ERROR
            Map.entry(279, DialectError.UNAVAILABLE)); // ALL_CONNECTION_TRIES_FAILED

    private ClickHouseErrors() {}

    /**
     * The exception code at the start of an error text.
     *
     * @param body the error text
     * @return the code, or -1 when there is none
     */
    static int code(String body) {
        Matcher m = CODE.matcher(body);
        return m.lookingAt() ? parse(m.group(1)) : (m.find() && m.start() < 200 ? parse(m.group(1)) : -1);
    }

    private static int parse(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLong) {
            return -1;
        }
    }

    /**
     * The class of a server error.
     *
     * @param code the exception code, or -1
     * @param status the HTTP status
     * @return the class
     */
    static DialectError classify(int code, int status) {
        if (code >= 0) {
            DialectError byCode = BY_CODE.get(code);
            if (byCode != null) {
                return byCode;
            }
            return DialectError.INTERNAL;
        }
        return switch (status) {
            case 401, 403 -> DialectError.PERMISSION_DENIED;
            case 502, 503, 504 -> DialectError.UNAVAILABLE;
            default -> DialectError.INTERNAL;
        };
    }

    /**
     * The server's message without the exception boilerplate, shortened to {@value #MAX_MESSAGE} characters.
     *
     * @param body the error text
     * @return the message
     */
    static String message(String body) {
        String text = body.strip();
        Matcher m = DISPLAY_TEXT.matcher(text);
        if (m.find()) {
            text = m.group(1).strip();
        }
        int stack = text.indexOf("\nStack trace:");
        if (stack >= 0) {
            text = text.substring(0, stack).strip();
        }
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "...";
    }

    /**
     * A server error as an exception.
     *
     * @param connection the connection name
     * @param body the error text
     * @param status the HTTP status (200 when the error came after the rows began)
     * @return the exception
     */
    static DialectException fromServer(String connection, String body, int status) {
        int code = code(body);
        DialectError error = classify(code, status);
        String what = code >= 0 ? "ClickHouse error " + code : "HTTP " + status;
        return new DialectException(error, "connection '" + connection + "': " + what + ": " + message(body),
                code >= 0 ? Integer.toString(code) : null, null);
    }
}
