package io.queryapigate.http;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.ws.rs.WebApplicationException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;

/**
 * Caps bodies sent without a Content-Length (chunked): reading past the limit fails with 413. A body arriving slower
 * than the minimum rate, or not at all until the connection's idle timeout, fails with 408; one whose client went away
 * before its end with 400: never the 500 of an unexpected error.
 */
final class LimitedBodyRequest extends HttpServletRequestWrapper {
    private final long limit;
    private final long minBytesPerSecond;
    private ServletInputStream wrapped;

    LimitedBodyRequest(HttpServletRequest request, long limit, long minBytesPerSecond) {
        super(request);
        this.limit = limit;
        this.minBytesPerSecond = minBytesPerSecond;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (wrapped == null) {
            wrapped = new Counting(super.getInputStream(), limit, minBytesPerSecond);
        }
        return wrapped;
    }

    /** The refusal for a failed read of the body: 408 when it was too slow, 400 when it ended early. */
    static WebApplicationException refusal(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return new WebApplicationException("The request body did not arrive in time.", 408);
            }
            if (t instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
                return new WebApplicationException(http.getCode() == 408
                        ? "The request body did not arrive in time." : "The request body could not be read.",
                        http.getCode());
            }
        }
        return new WebApplicationException("The request body ended before its end.", 400);
    }

    private static final class Counting extends ServletInputStream {
        /** A body may take this long before the minimum rate applies: a client's first packets, a slow start. */
        private static final long GRACE_NANOS = 2_000_000_000L;
        private final ServletInputStream in;
        private final long limit;
        private final long minBytesPerSecond;
        private long seen;
        private long started = -1;

        Counting(ServletInputStream in, long limit, long minBytesPerSecond) {
            this.in = in;
            this.limit = limit;
            this.minBytesPerSecond = minBytesPerSecond;
        }

        private void count(long n) {
            if (n > 0) {
                seen += n;
                if (seen > limit) {
                    throw new WebApplicationException("request body larger than " + limit + " bytes", 413);
                }
            }
            if (minBytesPerSecond > 0 && n >= 0) {
                long elapsed = System.nanoTime() - started;
                if (elapsed > GRACE_NANOS && seen < minBytesPerSecond * (elapsed / 1_000_000) / 1000) {
                    throw new WebApplicationException("The request body arrived slower than " + minBytesPerSecond
                            + " bytes a second.", 408);
                }
            }
        }

        private void start() {
            if (started < 0) {
                started = System.nanoTime();
            }
        }

        @Override
        public int read() throws IOException {
            start();
            int b;
            try {
                b = in.read();
            } catch (IOException | RuntimeException e) {
                throw failed(e);
            }
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            start();
            int n;
            try {
                n = in.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                throw failed(e);
            }
            count(n);
            return n;
        }

        private static RuntimeException failed(Exception e) {
            return e instanceof IOException || e instanceof HttpException ? refusal(e) : (RuntimeException) e;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
