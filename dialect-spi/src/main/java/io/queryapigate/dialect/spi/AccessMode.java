package io.queryapigate.dialect.spi;

/** Whether a call may change data. The service decides it; the dialect enforces it in the session where it can. */
public enum AccessMode {
    /** The statement must not change anything; dialects with {@link Capability#SERVER_ENFORCED_READ_ONLY} run it in a session the database keeps read-only. */
    READ,
    /** The statement may change data; the dialect commits it when it succeeds and returns its update count. */
    WRITE
}
