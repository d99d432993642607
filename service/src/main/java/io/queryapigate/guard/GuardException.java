package io.queryapigate.guard;

/**
 * A refusal by the {@link SqlGuard}: an HTTP status, a stable code (part of the public API, see
 * {@code docs/security.md}) and a message for the caller. The service maps it to its own {@code ApiException}.
 */
public final class GuardException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** 400: more than one statement (by the parser, by the dialect's lexical rules, or by the driver's own split). */
    public static final String MULTIPLE_STATEMENTS = "multiple_statements";
    /** 400: the SQL could not be read (parser error, unterminated token, too deeply nested, parse time limit). */
    public static final String SQL_NOT_PARSEABLE = "sql_not_parseable";
    /** 413: the SQL is longer than the guard's limit. */
    public static final String SQL_TOO_LONG = "sql_too_long";
    /** 403: a read-only caller sent something that is not a plain read. */
    public static final String READ_ONLY = "read_only";
    /** 403: the statement touches a table (or table function, or file) outside the caller's allowed tables. */
    public static final String TABLE_NOT_ALLOWED = "table_not_allowed";
    /** 403: a restricted caller (tables or masks) called a function outside the engine's pure built-ins. */
    public static final String FUNCTION_NOT_ALLOWED = "function_not_allowed";
    /** 403: a caller with masks sent a statement whose use of a masked column cannot be traced. */
    public static final String COLUMN_MASKED_UNRESOLVABLE = MaskTrace.UNRESOLVABLE;
    /** 403: a strict mask's column is used outside the select list (filter, join, group, order). */
    public static final String COLUMN_MASKED_IN_PREDICATE = MaskTrace.IN_PREDICATE;
    /** 403: a caller allowed to write sent an operation outside its allowed write operations. */
    public static final String WRITE_OP_NOT_ALLOWED = "write_op_not_allowed";

    private final int status;
    private final String code;

    public GuardException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    static GuardException multipleStatements(String message) {
        return new GuardException(400, MULTIPLE_STATEMENTS, message);
    }

    static GuardException notParseable(String message) {
        return new GuardException(400, SQL_NOT_PARSEABLE, message);
    }

    static GuardException readOnly(String message) {
        return new GuardException(403, READ_ONLY, message);
    }

    static GuardException tableNotAllowed(String message) {
        return new GuardException(403, TABLE_NOT_ALLOWED, message);
    }

    static GuardException functionNotAllowed(String message) {
        return new GuardException(403, FUNCTION_NOT_ALLOWED, message);
    }

    static GuardException writeOpNotAllowed(String message) {
        return new GuardException(403, WRITE_OP_NOT_ALLOWED, message);
    }
}
