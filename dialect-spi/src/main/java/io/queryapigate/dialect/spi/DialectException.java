package io.queryapigate.dialect.spi;

import java.util.Objects;

/**
 * A failed dialect operation, classified. Unchecked, so that {@link RowSink} implementations and lambdas need no
 * wrapping.
 *
 * <p>The message is written for the operator and may contain the database's own error text (which the service
 * shows only to callers allowed to see details); it never contains credentials.
 */
public class DialectException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final DialectError error;
    private final String sqlState;

    /**
     * A classified failure.
     *
     * @param error the class
     * @param message what happened
     * @param sqlState the SQLSTATE (or engine error code) when known, else null
     * @param cause the driver's exception, or null
     */
    public DialectException(DialectError error, String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.error = Objects.requireNonNull(error, "error is null");
        this.sqlState = sqlState;
    }

    /**
     * A classified failure without a driver cause.
     *
     * @param error the class
     * @param message what happened
     */
    public DialectException(DialectError error, String message) {
        this(error, message, null, null);
    }

    /**
     * The failure class.
     *
     * @return the class
     */
    public DialectError error() {
        return error;
    }

    /**
     * The SQLSTATE or engine code, when the driver gave one.
     *
     * @return the code, or null
     */
    public String sqlState() {
        return sqlState;
    }
}
