package io.queryapigate.dialect.mysql;

import java.util.Locale;

/** How the statement time limit reaches the server ({@code mysql.time_limit_mode}). */
public enum TimeLimitMode {
    /** MariaDB: {@link #SET_STATEMENT}; MySQL: {@link #HINT}. */
    AUTO,
    /**
     * MySQL: the {@code MAX_EXECUTION_TIME(ms)} optimizer hint placed after the statement's first {@code SELECT};
     * where it cannot be placed, {@link #SESSION} for that call. MariaDB ignores the hint silently, so this mode is
     * refused there.
     */
    HINT,
    /** MariaDB: {@code SET STATEMENT max_statement_time=<s>, tx_read_only=1 FOR <statement>}. Refused on MySQL. */
    SET_STATEMENT,
    /** Both: a {@code SET SESSION} of the limit (and the read-only default) before every call: one more round trip. */
    SESSION;

    /**
     * The value as written in configuration.
     *
     * @return for example {@code set_statement}
     */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
