package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/**
 * Classifies a driver's {@link SQLException} into a {@link DialectError}: by SQLSTATE first, by vendor code or
 * message second (the dialect's {@link #classifyVendor}), by exception type last, else {@link
 * DialectError#INTERNAL}.
 *
 * <p>SQLSTATE table:
 *
 * <table>
 *   <caption>SQLSTATE to DialectError</caption>
 *   <tr><th>SQLSTATE</th><th>error</th></tr>
 *   <tr><td>class 08 (connection exception)</td><td>{@link DialectError#UNAVAILABLE}</td></tr>
 *   <tr><td>57014 (query canceled)</td><td>{@link DialectError#TIMEOUT}</td></tr>
 *   <tr><td>25006 (read-only SQL transaction)</td><td>{@link DialectError#NOT_READ_ONLY}</td></tr>
 *   <tr><td>42501 (insufficient privilege)</td><td>{@link DialectError#PERMISSION_DENIED}</td></tr>
 *   <tr><td>other class 42 (syntax error or access rule violation)</td><td>{@link DialectError#SYNTAX}</td></tr>
 *   <tr><td>class 22 (data exception)</td><td>{@link DialectError#SYNTAX}</td></tr>
 *   <tr><td>class 23 (integrity constraint violation)</td><td>{@link DialectError#CONSTRAINT}</td></tr>
 *   <tr><td>class 40 (transaction rollback: serialization failure, deadlock)</td><td>{@link
 *       DialectError#CONFLICT}</td></tr>
 *   <tr><td>classes 53 (insufficient resources) and 54 (program limit exceeded)</td><td>{@link
 *       DialectError#RESOURCE_LIMIT}</td></tr>
 * </table>
 *
 * <p>Exception types, when neither SQLSTATE nor vendor rules decide: {@link SQLTimeoutException} is {@link
 * DialectError#TIMEOUT}; {@link SQLNonTransientConnectionException} and {@link SQLTransientConnectionException}
 * are {@link DialectError#UNAVAILABLE}.
 *
 * <p>A cancel the dialect itself caused (time limit, caller gone) is not visible in the exception on most
 * drivers; dialects decide that first, with {@link TimeLimit#stopReason()}, and call this class for the rest.
 * Stateless and thread-safe.
 */
public class JdbcErrorMapper {

    /** Creates a mapper with the SQLSTATE table alone. */
    public JdbcErrorMapper() {}

    /**
     * Classifies a driver exception, looking at every exception in its {@link SQLException#getNextException()}
     * chain (the first decisive one wins).
     *
     * @param exception the driver exception
     * @return the class; never null
     */
    public DialectError classify(SQLException exception) {
        requireNonNull(exception, "exception is null");
        for (SQLException e : chain(exception)) {
            DialectError byState = classifySqlState(e.getSQLState());
            if (byState != null) {
                return byState;
            }
        }
        for (SQLException e : chain(exception)) {
            DialectError byVendor = classifyVendor(e);
            if (byVendor != null) {
                return byVendor;
            }
        }
        for (SQLException e : chain(exception)) {
            if (e instanceof SQLTimeoutException) {
                return DialectError.TIMEOUT;
            }
            if (e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException) {
                return DialectError.UNAVAILABLE;
            }
        }
        return DialectError.INTERNAL;
    }

    /**
     * The standard SQLSTATE table.
     *
     * @param sqlState the five-character state, or null
     * @return the class, or null when the state is missing or decides nothing
     */
    protected DialectError classifySqlState(String sqlState) {
        if (sqlState == null || sqlState.length() != 5) {
            return null;
        }
        return switch (sqlState) {
            case "57014" -> DialectError.TIMEOUT;
            case "25006" -> DialectError.NOT_READ_ONLY;
            case "42501" -> DialectError.PERMISSION_DENIED;
            default -> switch (sqlState.substring(0, 2)) {
                case "08" -> DialectError.UNAVAILABLE;
                case "42", "22" -> DialectError.SYNTAX;
                case "23" -> DialectError.CONSTRAINT;
                case "40" -> DialectError.CONFLICT;
                case "53", "54" -> DialectError.RESOURCE_LIMIT;
                default -> null;
            };
        };
    }

    /**
     * The dialect's rules for vendor codes or messages, consulted when no SQLSTATE decided.
     *
     * @param exception one exception of the chain
     * @return the class, or null when the rules decide nothing; the default decides nothing
     */
    protected DialectError classifyVendor(SQLException exception) {
        return null;
    }

    /**
     * The operator-facing message for an exception; dialects strip driver noise here. Never includes
     * credentials: JDBC drivers do not put them into SQLException messages, and dialects must keep it so.
     *
     * @param exception the driver exception
     * @return the message
     */
    protected String message(SQLException exception) {
        String message = exception.getMessage();
        return message == null || message.isBlank() ? exception.getClass().getSimpleName() : message.strip();
    }

    /**
     * Classifies and wraps a driver exception.
     *
     * @param exception the driver exception
     * @return the classified exception, with the driver exception as cause and its SQLSTATE (or vendor code) kept
     */
    public DialectException translate(SQLException exception) {
        return translate(exception, classify(exception));
    }

    /**
     * Wraps a driver exception with a class the caller already decided (for example {@link DialectError#TIMEOUT}
     * after its own time limit fired).
     *
     * @param exception the driver exception
     * @param error the class
     * @return the classified exception
     */
    public DialectException translate(SQLException exception, DialectError error) {
        requireNonNull(exception, "exception is null");
        requireNonNull(error, "error is null");
        String state = exception.getSQLState();
        if (state == null && exception.getErrorCode() != 0) {
            state = Integer.toString(exception.getErrorCode());
        }
        return new DialectException(error, message(exception), state, exception);
    }

    private static Iterable<SQLException> chain(SQLException first) {
        return () -> new java.util.Iterator<>() {
            private SQLException next = first;
            private int seen;

            @Override
            public boolean hasNext() {
                // bounded: some drivers build cyclic chains
                return next != null && seen < 32;
            }

            @Override
            public SQLException next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                SQLException current = next;
                next = current.getNextException();
                seen++;
                return current;
            }
        };
    }
}
