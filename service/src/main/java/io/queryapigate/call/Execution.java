package io.queryapigate.call;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.tracing.Tracing;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.limits.Concurrency;
import io.queryapigate.limits.Quotas;
import io.queryapigate.output.format.CeilingRowWriter;
import io.queryapigate.output.format.CountingOutputStream;
import io.queryapigate.output.format.RowWriter;
import io.queryapigate.output.format.OutputFormat;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.paging.PageSink;
import io.queryapigate.paging.PagedSql;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a checked statement on its connection and renders the answer, in one of three ways: one page of a read (the
 * SQL rewritten to fetch it; an empty page answers {@code {"message": "No results returned"}}), a write unpaged
 * (its update count, or its {@code RETURNING} rows), or a stream (rows go to the response as they come, capped by
 * the stream ceiling; it records its own end and releases its concurrent slot). A key's {@code max_rows} lowers the
 * row cap and the stream ceiling.
 */
final class Execution {
    private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");
    private static final AttributeKey<String> DB_OPERATION = AttributeKey.stringKey("db.operation.name");
    private static final AttributeKey<Long> DB_ROWS = AttributeKey.longKey("db.response.returned_rows");
    private static final byte[] NO_RESULTS = "{\"message\":\"No results returned\"}".getBytes(StandardCharsets.UTF_8);
    private final Masking masking;
    private final CallLimits limits;
    private final Quotas quotas;
    private final Counter streamsTruncated;
    private final Tracing tracing;

    Execution(Masking masking, CallLimits limits, Quotas quotas, MetricRegistry metrics, Tracing tracing) {
        this.tracing = tracing;
        this.masking = masking;
        this.limits = limits;
        this.quotas = quotas;
        this.streamsTruncated = metrics.counter("streams.truncated");
    }

    /** Runs the statement; a stream's {@code slot} is released when the stream ends. */
    CallResult run(CheckedStatement s, CallRequest request, CallRecorder.Call call, Concurrency.Slot slot) {
        OutputRequest out = request.output();
        AccessMode mode = s.verdict().isRead() ? AccessMode.READ : AccessMode.WRITE;
        // a table-restricted call resolves unqualified names where the guard resolved them
        String schema = Guarding.restricted(request.caller()) ? s.connection().namespace().schema() : null;
        if (out.stream()) {
            if (mode != AccessMode.READ) {
                throw ApiException.forbidden("read_only", "Streams are reads only.");
            }
            return stream(s, request, schema, call, slot);
        }
        PagedSql paged = null;
        String sql = s.sql();
        PageRequest page = out.page().orElse(null);
        if (page != null && mode == AccessMode.READ && CallRequest.MONGO.equals(s.connection().dialect()
                .queryLanguage())) {
            paged = MongoStatements.page(sql, page);
            sql = paged.sql();
        } else if (page != null && mode == AccessMode.READ) {
            paged = limits.paging().rewriteRead(sql, page, s.connection().family(), s.connection().lexicalRules());
            sql = paged.sql();
        } else if (page != null && page.asked()) {
            throw ApiException.badRequest("invalid_paging", "Only reads can be paged.");
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
        RowWriter writer = out.format().newWriter(buffer, limits.writerOptions());
        SinkChain sink = SinkChain.of(writer, masking, s.mask(), paged);
        QueryStats stats = database(s, mode, new QueryRequest(sql, s.parameters(), mode, s.timeout(),
                paged == null ? rowCap(limits.maxRows(), request) : limits.maxRows(), false, request.requestId(),
                schema, mode == AccessMode.WRITE ? s.maxAffectedRows() : 0), sink);
        if (mode == AccessMode.WRITE && !sink.resultSet()
                && (stats.updateCount() >= 0 || stats.updateCount() == QueryStats.UNKNOWN_UPDATE_COUNT)) {
            String count = stats.updateCount() >= 0 ? Long.toString(stats.updateCount()) : "null";
            return new CallResult(("{\"rows_affected\":" + count + "}").getBytes(StandardCharsets.UTF_8), 0, false,
                    s.connection().name());
        }
        Span render = tracing.start("render", out.format().name().toLowerCase(Locale.ROOT));
        try {
            writer.finish();
        } finally {
            render.end();
        }
        PageSink pager = sink.pager();
        Map<String, String> headers = pager != null ? pager.headers()
                : stats.truncated() ? Map.of("X-Truncated", "true") : Map.of();
        long rows = pager != null ? pager.rows() : stats.rows();
        if (rows == 0) {
            // as the Python original answers an empty page, in every format
            return new CallResult(NO_RESULTS, 0, false, s.connection().name(), null, null, 0,
                    OutputFormat.JSON.contentType(), null, headers, null);
        }
        return new CallResult(buffer.toByteArray(), rows, paged == null && stats.truncated(), s.connection().name(),
                null, null, 0, out.format().contentType(), out.format().contentDisposition(out.baseName(), false),
                headers, null);
    }

    /**
     * The database call, in a client span named by the access mode and the connection ({@code READ demo}): the
     * dialect, the rows returned; never the statement. The rows are rendered as they arrive, within this span.
     */
    private QueryStats database(CheckedStatement s, AccessMode mode, QueryRequest query, RowSink sink) {
        Span span = tracing.startClient(mode.name(), s.connection().name());
        if (span.isRecording()) {
            span.setAttribute(DB_SYSTEM, s.connection().dialectName());
            span.setAttribute(DB_OPERATION, mode.name());
        }
        try {
            QueryStats stats = s.connection().dialect().execute(query, sink);
            if (span.isRecording()) {
                span.setAttribute(DB_ROWS, stats.rows());
            }
            return stats;
        } catch (DialectException e) {
            Tracing.failed(span, DialectErrors.of(e.error()).code());
            throw e;
        } catch (RuntimeException e) {
            Tracing.failed(span, e instanceof ApiException refusal ? refusal.code() : e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    /** The server's row cap, or the key's {@code max_rows} when lower ({@code 0}: no cap). */
    private static long rowCap(long cap, CallRequest request) {
        Integer own = request.caller().grants().maxRows();
        return own == null || (cap > 0 && cap <= own) ? cap : own;
    }

    private CallResult stream(CheckedStatement s, CallRequest request, String schema, CallRecorder.Call call,
            Concurrency.Slot slot) {
        OutputRequest out = request.output();
        long ceiling = rowCap(limits.streamMaxRows(), request);
        QueryRequest query = new QueryRequest(s.sql(), s.parameters(), AccessMode.READ, s.timeout(),
                ceiling > 0 ? ceiling + 1 : Long.MAX_VALUE, true, request.requestId(), schema);
        CallResult.Body body = os -> {
            CountingOutputStream counted = new CountingOutputStream(os);
            RowWriter writer = out.format().newWriter(counted, limits.writerOptions());
            RowWriter top = ceiling > 0 ? CeilingRowWriter.capped(writer, ceiling) : writer;
            try {
                QueryStats stats = database(s, AccessMode.READ, query, SinkChain.streamed(top, masking,
                        s.mask()));
                top.finish();
                if (top instanceof CeilingRowWriter capped && capped.truncated()) {
                    streamsTruncated.inc();
                }
                call.succeeded(stats.rows(), counted.count());
                quotas.count(request.caller(), 0, Math.min(stats.rows(), ceiling > 0 ? ceiling : stats.rows()));
            } catch (DialectException e) {
                top.abort("query failed: " + e.error().name().toLowerCase(Locale.ROOT));
                call.streamFailed(e, counted.count());
            } catch (RuntimeException e) {
                call.streamFailed(e, counted.count());
                throw e;
            } finally {
                slot.release();
                s.connection().exit();
            }
        };
        return new CallResult(null, 0, false, s.connection().name(), null, null, 0, out.format().contentType(),
                out.format().contentDisposition(out.baseName(), true), Map.of(), body);
    }
}
