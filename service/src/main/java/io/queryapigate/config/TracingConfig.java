package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.queryapigate.tracing.Tracing;
import java.util.Map;

/**
 * Traces (OpenTelemetry): on when {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set, configured by the standard {@code
 * OTEL_*} variables; here only what those do not cover.
 */
public class TracingConfig {
    /** Whether a caller's W3C {@code traceparent} header continues the caller's trace. */
    private boolean acceptTraceparent = true;

    @JsonProperty
    public boolean isAcceptTraceparent() {
        return acceptTraceparent;
    }

    @JsonProperty
    public void setAcceptTraceparent(boolean acceptTraceparent) {
        this.acceptTraceparent = acceptTraceparent;
    }

    /** Tracing as {@code environment} asks for it; {@link Tracing#OFF} without an OTLP endpoint. */
    public Tracing build(Map<String, String> environment, String version) {
        return Tracing.fromEnvironment(environment, version, acceptTraceparent);
    }
}
