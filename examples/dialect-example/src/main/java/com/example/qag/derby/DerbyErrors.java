package com.example.qag.derby;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.sql.SQLException;

/**
 * Derby's SQLSTATEs as the service's error classes: Derby's own codes ({@code X...}) where it has them, then the
 * standard classes; anything else is {@code INTERNAL}.
 */
final class DerbyErrors {

    private DerbyErrors() {}

    /**
     * Translates a Derby failure.
     *
     * @param e what Derby threw
     * @param stopped why the dialect stopped the statement, or null if it did not: Derby reports a statement stopped
     *     by an interrupt as a lost connection (08000), so only the dialect knows whether that was the time limit or a
     *     caller's cancel
     * @return the exception to throw
     */
    static DialectException map(SQLException e, DialectError stopped) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        DialectError error = stopped != null ? stopped : classify(state);
        return new DialectException(error, "Derby: " + e.getMessage(), state.isEmpty() ? null : state, e);
    }

    static DialectError classify(String state) {
        if (state.equals("25502") || state.equals("25503") || state.equals("25505")) {
            return DialectError.NOT_READ_ONLY; // a data change, DDL or a write in a read-only connection
        }
        if (state.equals("XCL52")) {
            return DialectError.TIMEOUT; // Derby's own query timeout
        }
        if (state.startsWith("08") || state.equals("XJ004") || state.equals("XJ040") || state.startsWith("XBM")
                || state.equals("XJ015")) {
            return DialectError.UNAVAILABLE; // connection lost, database not found or not bootable, engine down
        }
        if (state.startsWith("425")) {
            return DialectError.PERMISSION_DENIED; // SQL authorization: no privilege
        }
        if (state.startsWith("42") || state.startsWith("22") || state.equals("21000") || state.startsWith("07")) {
            return DialectError.SYNTAX; // syntax, unknown names, data exceptions, cardinality, bad parameters
        }
        if (state.startsWith("23")) {
            return DialectError.CONSTRAINT;
        }
        if (state.startsWith("40")) {
            return DialectError.CONFLICT; // deadlock (40001), lock timeout (40XL1, 40XL2)
        }
        return DialectError.INTERNAL;
    }
}
