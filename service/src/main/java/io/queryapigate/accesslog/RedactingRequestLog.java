package io.queryapigate.accesslog;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.component.ContainerLifeCycle;

/**
 * The server's request log, shown each request as {@link RedactedRequest}: whatever the configured format or layout,
 * no query-string values (unless {@code accessLog.queryValues}), no credentials, no {@code Referer}.
 */
public final class RedactingRequestLog extends ContainerLifeCycle implements RequestLog {
    private final RequestLog inner;
    private final boolean keepValues;

    public RedactingRequestLog(RequestLog inner, boolean keepValues) {
        this.inner = inner;
        this.keepValues = keepValues;
        addBean(inner);
    }

    @Override
    public void log(Request request, Response response) {
        inner.log(new RedactedRequest(request, keepValues), response);
    }
}
