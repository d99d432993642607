package io.queryapigate.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Dropwizard metrics in Prometheus' text exposition format (version 0.0.4), for scrapers, on the admin port.
 * Names are sanitised ({@code queries.film} becomes {@code queries_film}); timers are summaries in seconds with
 * their quantiles, meters and counters are counters, histograms summaries.
 */
public final class PrometheusServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.99, 0.999};

    private final transient MetricRegistry registry;

    public PrometheusServlet(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain; version=0.0.4; charset=utf-8");
        resp.setHeader("Cache-Control", "must-revalidate,no-cache,no-store");
        PrintWriter out = resp.getWriter();
        for (Map.Entry<String, Gauge> e : registry.getGauges().entrySet()) {
            Object v = e.getValue().getValue();
            if (v instanceof Number n) {
                String name = name(e.getKey());
                out.printf("# TYPE %s gauge%n%s %s%n", name, name, number(n.doubleValue()));
            } else if (v instanceof Boolean b) {
                String name = name(e.getKey());
                out.printf("# TYPE %s gauge%n%s %d%n", name, name, b ? 1 : 0);
            }
        }
        for (Map.Entry<String, Counter> e : registry.getCounters().entrySet()) {
            String name = name(e.getKey()) + "_total";
            out.printf("# TYPE %s counter%n%s %d%n", name, name, e.getValue().getCount());
        }
        for (Map.Entry<String, Meter> e : registry.getMeters().entrySet()) {
            String name = name(e.getKey()) + "_total";
            out.printf("# TYPE %s counter%n%s %d%n", name, name, e.getValue().getCount());
        }
        for (Map.Entry<String, Histogram> e : registry.getHistograms().entrySet()) {
            summary(out, name(e.getKey()), e.getValue().getSnapshot(), e.getValue().getCount(), 1);
        }
        for (Map.Entry<String, Timer> e : registry.getTimers().entrySet()) {
            summary(out, name(e.getKey()) + "_seconds", e.getValue().getSnapshot(), e.getValue().getCount(),
                    1.0 / TimeUnit.SECONDS.toNanos(1));
        }
        out.flush();
    }

    private static void summary(PrintWriter out, String name, Snapshot s, long count, double factor) {
        out.printf("# TYPE %s summary%n", name);
        for (double q : QUANTILES) {
            out.printf("%s{quantile=\"%s\"} %s%n", name, q, number(s.getValue(q) * factor));
        }
        out.printf("%s_count %d%n", name, count);
    }

    static String name(String dropwizardName) {
        StringBuilder sb = new StringBuilder("qag_");
        for (int i = 0; i < dropwizardName.length(); i++) {
            char c = dropwizardName.charAt(i);
            sb.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_');
        }
        return sb.toString();
    }

    private static String number(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(d);
    }
}
