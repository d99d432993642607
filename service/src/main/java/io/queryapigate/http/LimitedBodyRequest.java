package io.queryapigate.http;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.ws.rs.WebApplicationException;
import java.io.IOException;

/** Caps bodies sent without a Content-Length (chunked): reading past the limit fails with 413. */
final class LimitedBodyRequest extends HttpServletRequestWrapper {
    private final long limit;
    private ServletInputStream wrapped;

    LimitedBodyRequest(HttpServletRequest request, long limit) {
        super(request);
        this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (wrapped == null) {
            wrapped = new Counting(super.getInputStream(), limit);
        }
        return wrapped;
    }

    private static final class Counting extends ServletInputStream {
        private final ServletInputStream in;
        private final long limit;
        private long seen;

        Counting(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        private void count(long n) {
            if (n > 0) {
                seen += n;
                if (seen > limit) {
                    throw new WebApplicationException("request body larger than " + limit + " bytes", 413);
                }
            }
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            count(n);
            return n;
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
