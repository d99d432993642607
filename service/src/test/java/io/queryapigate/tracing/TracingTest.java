package io.queryapigate.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.glassfish.jersey.uri.UriTemplate;
import org.junit.jupiter.api.Test;

class TracingTest {
    @Test
    void offUnlessAnOtlpEndpointIsSetAndTheSdkNotDisabled() {
        assertThat(Tracing.fromEnvironment(Map.of(), "1", true)).isSameAs(Tracing.OFF);
        assertThat(Tracing.fromEnvironment(Map.of("OTEL_SERVICE_NAME", "x"), "1", true)).isSameAs(Tracing.OFF);
        assertThat(Tracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1",
                "OTEL_SDK_DISABLED", "TRUE"), "1", true)).isSameAs(Tracing.OFF);
        assertThat(Tracing.wanted(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:1"))).isTrue();
        assertThat(Tracing.wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  "))).isFalse();
    }

    @Test
    void anEndpointStartsTheSdkOverHttpAndGrpcIsRefused() throws Exception {
        try (Tracing on = Tracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"), "1",
                true)) {
            assertThat(on.on()).isTrue();
        }
        assertThatThrownBy(() -> Tracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), "1", true)).isInstanceOf(RuntimeException.class);
    }

    /** Off, a call's spans cost nothing: no span, scope or name is made (measured in bytes this thread allocated). */
    @Test
    void offAllocatesNothingPerSpan() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Tracing off = Tracing.OFF;
        for (int i = 0; i < 10_000; i++) { // warm up: compiled, escape-analysed
            spans(off, "films");
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            spans(off, "films");
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // one object per call would be 1.6 MB; what is measured is the measuring's own noise
        assertThat(allocated).as("bytes for 100,000 calls' spans: under one per call").isLessThan(100_000);
    }

    private static void spans(Tracing tracing, String query) {
        Span call = tracing.start("query");
        try (Scope ignored = tracing.enter(call)) {
            Span guard = tracing.start("guard");
            guard.end();
            Span database = tracing.startClient("READ", query);
            Tracing.failed(database, "query_failed");
            database.end();
            Span render = tracing.start("render", query);
            render.end();
        } finally {
            call.end();
        }
        if (tracing.currentTraceId() != null) {
            throw new AssertionError();
        }
    }

    @Test
    void onSpansNestAndAFailureCarriesItsCodeNeverAMessage() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        Tracing on = Tracing.into(provider, true);
        assertThat(on.on()).isTrue();
        Span probe = on.start("probe");
        try (Scope ignored = on.enter(probe)) {
            assertThat(on.currentTraceId()).hasSize(32).isEqualTo(probe.getSpanContext().getTraceId());
        } finally {
            probe.end();
        }
        exporter.reset();
        spans(on, "films");
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getName).containsExactly("guard", "READ films", "render films",
                "query");
        SpanData query = spans.get(3);
        assertThat(spans.subList(0, 3)).allSatisfy(s -> assertThat(s.getParentSpanId())
                .isEqualTo(query.getSpanId()));
        SpanData database = spans.get(1);
        assertThat(database.getAttributes().asMap().toString()).contains("error.type=query_failed");
        assertThat(database.getEvents()).isEmpty();
        assertThat(database.getStatus().getDescription()).isEmpty();
        provider.close();
    }

    @Test
    void aRouteIsItsTemplatesJoinedOutermostFirst() {
        assertThat(RouteNames.template(List.of(new UriTemplate("{name}"), new UriTemplate("/q")))).isEqualTo(
                "/q/{name}");
        assertThat(RouteNames.template(List.of(new UriTemplate("/{name}/tokens"),
                new UriTemplate("/api/v1/administrators/")))).isEqualTo("/api/v1/administrators/{name}/tokens");
        assertThat(RouteNames.template(List.of(new UriTemplate("/health")))).isEqualTo("/health");
        assertThat(RouteNames.template(List.of())).isNull();
    }
}
