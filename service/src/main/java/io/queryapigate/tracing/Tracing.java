package io.queryapigate.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Traces, by the OpenTelemetry SDK: off (no SDK object, every method a constant answer) unless {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} is set and {@code OTEL_SDK_DISABLED}
 * is not {@code true}; then the SDK is configured from the standard {@code OTEL_*} variables (autoconfigure), with
 * spans exported as OTLP over HTTP in the background, metrics and logs not exported.
 *
 * <p>Spans are written by hand, each with attributes chosen for it: route templates, query names, versions,
 * dialects, row counts, statuses and error codes. Never a parameter value, SQL text, a row, a header or a credential
 * (the spans leave the server for a collector whose readers have no data access), and never an exception's message
 * (a database's can carry values): a failed span has {@code error.type}, a code or a class name.
 */
public final class Tracing implements AutoCloseable {
    /** Tracing off: nothing is created, every span is {@link Span#getInvalid()}. */
    public static final Tracing OFF = new Tracing(null, null, false);

    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final String[] ENDPOINTS = {"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"};

    private final Tracer tracer;
    private final AutoCloseable sdk;
    private final Runnable flush;
    private final boolean acceptTraceparent;

    private Tracing(Tracer tracer, SdkHolder sdk, boolean acceptTraceparent) {
        this.tracer = tracer;
        this.sdk = sdk == null ? null : sdk.close;
        this.flush = sdk == null ? null : sdk.flush;
        this.acceptTraceparent = acceptTraceparent;
    }

    private record SdkHolder(AutoCloseable close, Runnable flush) {}

    /** Whether the environment asks for traces: an OTLP endpoint set, the SDK not disabled. */
    public static boolean wanted(Map<String, String> environment) {
        if ("true".equalsIgnoreCase(environment.getOrDefault("OTEL_SDK_DISABLED", "").strip())) {
            return false;
        }
        for (String name : ENDPOINTS) {
            if (!environment.getOrDefault(name, "").isBlank()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tracing as the environment says: {@link #OFF}, or the SDK configured from its {@code OTEL_*} variables.
     *
     * @param version the gateway's version ({@code service.version})
     * @param acceptTraceparent whether a caller's W3C {@code traceparent} continues its trace
     */
    public static Tracing fromEnvironment(Map<String, String> environment, String version,
            boolean acceptTraceparent) {
        if (!wanted(environment)) {
            return OFF;
        }
        Map<String, String> given = new HashMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                given.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        Map<String, String> defaults = Map.of(
                "otel.service.name", "queryapigate",
                "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.metrics.exporter", "none",
                "otel.logs.exporter", "none");
        Attributes ours = Attributes.builder().put("service.version", version)
                .put("service.instance.id", UUID.randomUUID().toString()).build();
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> defaults)
                .addPropertiesCustomizer(config -> given)
                .addResourceCustomizer((resource, config) -> Resource.create(ours).merge(resource))
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        SdkTracerProvider provider = sdk.getSdkTracerProvider();
        return new Tracing(sdk.getTracer("queryapigate", version),
                new SdkHolder(sdk, () -> provider.forceFlush().join(5, TimeUnit.SECONDS)), acceptTraceparent);
    }

    /** Tracing into {@code provider} (tests: an in-memory exporter), whatever the environment says. */
    public static Tracing into(SdkTracerProvider provider, boolean acceptTraceparent) {
        return new Tracing(provider.get("queryapigate"),
                new SdkHolder(() -> { }, () -> provider.forceFlush().join(5, TimeUnit.SECONDS)), acceptTraceparent);
    }

    /** Whether spans are made at all. */
    public boolean on() {
        return tracer != null;
    }

    /** Whether a caller's {@code traceparent} continues its trace. */
    boolean acceptsTraceparent() {
        return acceptTraceparent;
    }

    /** An internal span, child of the current one; {@link Span#getInvalid()} when off. */
    public Span start(String name) {
        return tracer == null ? Span.getInvalid() : tracer.spanBuilder(name).startSpan();
    }

    /** A span named {@code prefix + " " + subject}, the name built only when tracing is on. */
    public Span start(String prefix, String subject) {
        return tracer == null ? Span.getInvalid() : tracer.spanBuilder(prefix + " " + subject).startSpan();
    }

    /** A client span (a call to a database), child of the current one. */
    public Span startClient(String prefix, String subject) {
        return tracer == null ? Span.getInvalid()
                : tracer.spanBuilder(prefix + " " + subject).setSpanKind(SpanKind.CLIENT).startSpan();
    }

    /** The request's span: a server span, child of {@code parent} (a caller's trace, or none). */
    Span startServer(String name, Context parent) {
        return tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setParent(parent).startSpan();
    }

    /** Makes {@code span} current until the scope closes; a no-op scope when off. */
    public Scope enter(Span span) {
        return tracer == null ? Scope.noop() : span.makeCurrent();
    }

    /** Marks {@code span} failed: status ERROR and {@code error.type}, never a message. */
    public static void failed(Span span, String errorType) {
        if (span.isRecording()) {
            span.setAttribute(ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR);
        }
    }

    /** The current span's trace id as 32 hex digits, or null when tracing is off or no span is current. */
    public String currentTraceId() {
        if (tracer == null) {
            return null;
        }
        Span current = Span.current();
        return current.getSpanContext().isValid() ? current.getSpanContext().getTraceId() : null;
    }

    /** Sends what is waiting now rather than with the next batch (tests, stopping). */
    public void flush() {
        if (flush != null) {
            flush.run();
        }
    }

    @Override
    public void close() throws Exception {
        if (sdk != null) {
            sdk.close();
        }
    }
}
