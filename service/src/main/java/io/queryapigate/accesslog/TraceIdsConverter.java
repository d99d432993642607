package io.queryapigate.accesslog;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.Map;

/**
 * {@code %traceIds} in an application log pattern: {@code " trace_id=... span_id=..."} when the line was written
 * while a traced request was under way (tracing on), nothing otherwise.
 */
public final class TraceIdsConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        Map<String, String> mdc = event.getMDCPropertyMap();
        String trace = mdc.get("trace_id");
        return trace == null ? "" : " trace_id=" + trace + " span_id=" + mdc.get("span_id");
    }
}
