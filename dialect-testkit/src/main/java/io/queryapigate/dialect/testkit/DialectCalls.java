package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import java.time.Duration;
import java.util.List;

/** One-line calls of a dialect for attack tests: a statement that must fail, a query's single value. */
public final class DialectCalls {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private DialectCalls() {}

    /**
     * Sends {@code sql} without parameters in {@code mode} and fails the test unless the dialect refuses it.
     *
     * @param dialect the dialect under test
     * @param sql the statement
     * @param mode read or write
     * @return the refusal
     */
    public static DialectException refused(Dialect dialect, String sql, AccessMode mode) {
        QueryRequest request = QueryRequest.read(sql, List.of(), LIMIT, 1000).withMode(mode);
        RecordingSink sink = new RecordingSink();
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(request, sink));
        assertThat(e).as("%s (%s) must fail, got %s", sql, mode, sink.rows()).isNotNull();
        return e;
    }

    /**
     * Reads {@code sql} and returns its single value.
     *
     * @param dialect the dialect under test
     * @param sql a query of one row and one column
     * @return the value
     */
    public static Object value(Dialect dialect, String sql) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read(sql, List.of(), LIMIT, 1000), sink);
        return sink.singleValue();
    }
}
