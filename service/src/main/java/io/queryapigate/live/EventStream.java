package io.queryapigate.live;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.glassfish.jersey.server.ChunkedOutput;

/**
 * One open {@code GET /events} stream, written by a virtual thread of its own into the response Jersey committed at
 * once: the reconnection delay, the events missed since {@code Last-Event-ID}, then each live event as the tail hands
 * it over (what waits is written as one chunk), a comment line when nothing happened for a heartbeat interval (so
 * proxies keep the connection), the caller checked again every recheck interval (a revoked or expired key's stream
 * ends). A client that went away is noticed at the next write; the stream then leaves the tail.
 */
final class EventStream implements Runnable {
    private static final byte[] RETRY = "retry: 3000\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.US_ASCII);

    private final LiveTail tail;
    private final Subscriber subscriber;
    private final Long lastEventId;
    private final Recheck recheck;
    private final LiveTail.Settings settings;
    private final ChunkedOutput<byte[]> out = new ChunkedOutput<>(byte[].class);

    EventStream(LiveTail tail, Subscriber subscriber, Long lastEventId, Recheck recheck, LiveTail.Settings settings) {
        this.tail = tail;
        this.subscriber = subscriber;
        this.lastEventId = lastEventId;
        this.recheck = recheck;
        this.settings = settings;
    }

    /** The response body. */
    ChunkedOutput<byte[]> output() {
        return out;
    }

    @Override
    public void run() {
        Subscriber s = subscriber;
        try {
            out.write(RETRY);
            if (lastEventId != null) {
                ByteArrayOutputStream missed = new ByteArrayOutputStream();
                tail.replay(s, lastEventId, e -> {
                    missed.writeBytes(e.frame());
                    if (missed.size() >= 64 * 1024) {
                        write(missed);
                    }
                });
                write(missed);
            }
            long nextRecheck = System.nanoTime() + settings.recheckMillis() * 1_000_000;
            while (true) {
                LiveEvent e = s.next(settings.heartbeatMillis());
                if (e == Subscriber.END) {
                    return;
                }
                if (e == null) {
                    out.write(KEEPALIVE);
                } else {
                    LiveEvent more = s.nextNow();
                    if (more == null) {
                        out.write(e.frame()); // the usual case: the frame every stream shares, as it is
                    } else {
                        // a burst: one chunk, in a buffer that is not kept (a stream holds no memory between events)
                        ByteArrayOutputStream waiting = new ByteArrayOutputStream();
                        waiting.writeBytes(e.frame());
                        for (; more != null && more != Subscriber.END; more = s.nextNow()) {
                            waiting.writeBytes(more.frame());
                        }
                        write(waiting);
                        if (more == Subscriber.END) {
                            return;
                        }
                    }
                }
                if (System.nanoTime() - nextRecheck >= 0) {
                    if (!recheck.stillValid()) {
                        return;
                    }
                    nextRecheck = System.nanoTime() + settings.recheckMillis() * 1_000_000;
                }
            }
        } catch (IOException | UncheckedIOException gone) {
            // the client went away: nothing more to say to it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            tail.unsubscribe(s);
            try {
                out.close();
            } catch (IOException ignored) {
                // the client is gone already
            }
        }
    }

    private void write(ByteArrayOutputStream frames) {
        if (frames.size() == 0) {
            return;
        }
        try {
            out.write(frames.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        frames.reset();
    }
}
