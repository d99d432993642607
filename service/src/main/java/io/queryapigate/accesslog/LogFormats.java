package io.queryapigate.accesslog;

import ch.qos.logback.classic.PatternLayout;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.logging.common.AbstractAppenderFactory;
import io.dropwizard.logging.common.AppenderFactory;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.dropwizard.logging.common.LoggingFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import java.util.List;

/**
 * The logs' default formats, for appenders whose YAML sets neither {@code logFormat} nor {@code layout} (a JSON
 * layout, {@code type: json} or {@code type: access-json}, is left as configured):
 *
 * <ul>
 *   <li>the application log: Dropwizard's, with the trace and span ids after the logger when tracing is on
 *       ({@link TraceIdsConverter});
 *   <li>the request log: Dropwizard's, without the {@code Referer} (another page's URL and query string), with the
 *       caller (a key's id and name, an administrator's or a signed-in user's name; {@link CallerAttribute}, never a
 *       credential) instead of HTTP's remote user, and the request id. The request line's query string has no values
 *       whatever the format ({@link RedactingRequestLog}).
 * </ul>
 */
public final class LogFormats {
    /** The application log's default pattern. */
    public static final String APPLICATION = "%-5p [%d{ISO8601,UTC}] %c:%traceIds %m%n%dwREx";
    /** The request log's default pattern. */
    public static final String REQUESTS = "%h - %reqAttribute{" + CallerAttribute.ATTRIBUTE
            + "} [%t{dd/MMM/yyyy:HH:mm:ss Z,UTC}] \"%r\" %s %b \"%i{User-Agent}\" %D rid=%responseHeader{X-Request-Id}";

    static {
        PatternLayout.DEFAULT_CONVERTER_MAP.put("traceIds", TraceIdsConverter.class.getName());
    }

    private LogFormats() {}

    /** {@code logging} with the application log's default pattern where no format or layout is configured. */
    public static LoggingFactory application(LoggingFactory logging) {
        if (logging instanceof DefaultLoggingFactory factory) {
            defaultTo(factory.getAppenders(), APPLICATION);
        }
        return logging;
    }

    /** Sets the request log's default pattern where no format or layout is configured. */
    public static void requests(ServerFactory server) {
        if (server instanceof AbstractServerFactory s
                && s.getRequestLogFactory() instanceof LogbackAccessRequestLogFactory requests) {
            defaultTo(requests.getAppenders(), REQUESTS);
        }
    }

    /** Whether the server writes a request log at all (an appender configured). */
    public static boolean requestLogOn(ServerFactory server) {
        return server instanceof AbstractServerFactory s && s.getRequestLogFactory() != null
                && s.getRequestLogFactory().isEnabled();
    }

    private static void defaultTo(List<? extends AppenderFactory<?>> appenders, String pattern) {
        for (AppenderFactory<?> appender : appenders) {
            if (appender instanceof AbstractAppenderFactory<?> a && a.getLogFormat() == null
                    && a.getLayout() == null) {
                a.setLogFormat(pattern);
            }
        }
    }
}
