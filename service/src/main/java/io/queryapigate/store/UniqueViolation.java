package io.queryapigate.store;

import java.sql.SQLException;

/**
 * Whether a store write was refused by a unique index: two creates of one name raced and the second lost. Decided from
 * the exception alone, because inside a PostgreSQL transaction the failed statement aborts the transaction and a
 * second read to find out would fail too.
 */
public final class UniqueViolation {
    private static final String POSTGRES_UNIQUE = "23505";
    private static final int SQLITE_CONSTRAINT = 19;

    private UniqueViolation() {}

    public static boolean in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException e) {
                if (POSTGRES_UNIQUE.equals(e.getSQLState())) {
                    return true;
                }
                String message = e.getMessage();
                if (e.getErrorCode() == SQLITE_CONSTRAINT && message != null
                        && (message.contains("UNIQUE constraint failed") || message.contains("PRIMARYKEY"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
