package io.queryapigate.importer;

/** The import cannot go on: its message says why and what to do; nothing was written. */
public final class ImportException extends RuntimeException {
    public ImportException(String message) {
        super(message);
    }

    public ImportException(String message, Throwable cause) {
        super(message, cause);
    }
}
