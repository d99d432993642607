package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import java.time.Duration;
import java.util.Set;

/** How a call a test runs is to end: normally, failing, by its time limit, or cancelled from another thread. */
public enum Outcome {
    OK, FAILS, TIMES_OUT, CANCELLED;

    /**
     * Runs the call and asserts that it ended this way.
     *
     * @param dialect the dialect
     * @param request the call (for {@link #TIMES_OUT}, with a time limit it exceeds; for {@link #CANCELLED}, slow
     *     enough to be cancelled after 300 ms)
     * @param failures the classes a {@link #FAILS} call may fail with
     * @throws InterruptedException when interrupted while a cancellation is under way
     */
    public void check(Dialect dialect, QueryRequest request, Set<DialectError> failures) throws InterruptedException {
        switch (this) {
            case OK -> dialect.execute(request, new RecordingSink());
            case FAILS -> assertThat(failure(dialect, request).error()).isIn(failures);
            case TIMES_OUT -> assertThat(failure(dialect, request).error()).isEqualTo(DialectError.TIMEOUT);
            case CANCELLED -> {
                DialectException e = RecordingSink.cancelled(dialect, request, Duration.ofMillis(300));
                assertThat(e).as("cancelled").isNotNull();
                assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.CANCELLED);
            }
        }
    }

    private static DialectException failure(Dialect dialect, QueryRequest request) {
        try {
            dialect.execute(request, new RecordingSink());
        } catch (DialectException e) {
            return e;
        }
        throw new AssertionError("expected the call to fail: " + request.sql());
    }
}
