package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.time.Duration;
import java.util.List;

/** Short forms for the tests' calls. */
final class Calls {

    static final Duration LIMIT = Duration.ofSeconds(30);

    private Calls() {}

    static QueryRequest read(String sql, Parameter... parameters) {
        return QueryRequest.read(sql, List.of(parameters), LIMIT, 1_000_000);
    }

    static QueryRequest write(String sql, Parameter... parameters) {
        return read(sql, parameters).withMode(AccessMode.WRITE);
    }

    static QueryRequest stream(String sql, long maxRows, Parameter... parameters) {
        return new QueryRequest(sql, List.of(parameters), AccessMode.READ, LIMIT, maxRows, true, "stream");
    }

    static RecordingSink run(Dialect dialect, QueryRequest request) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        return sink;
    }

    static Object value(Dialect dialect, String sql) {
        return run(dialect, read(sql)).singleValue();
    }

    static String text(Dialect dialect, String sql) {
        Object value = value(dialect, sql);
        return value == null ? null : value.toString();
    }

    static long number(Dialect dialect, String sql) {
        return ((Number) value(dialect, sql)).longValue();
    }

    static DialectException failure(Dialect dialect, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as("expected %s to fail", request.sql()).isNotNull();
        return e;
    }
}
