package io.queryapigate.live;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One open stream's place in the fan-out: who it is for, and the events waiting for its writer. A writer that falls
 * {@code capacity} events behind is ended (its client reconnects with {@code Last-Event-ID} and catches up from the
 * store) rather than holding memory or silently missing events; the reader never blocks on it.
 */
final class Subscriber {
    /** Put in the queue to wake the writer when the stream must end. */
    static final LiveEvent END = new LiveEvent(-1, 0, null, null, null, false, 0, new byte[0]);

    final Audience audience;
    final Filters filters;
    private final LinkedBlockingQueue<LiveEvent> queue;
    /** The reader's position when this subscribed: live events are after it, a resume replays up to it. */
    long from;
    private volatile boolean ended;
    private volatile boolean tooSlow;

    Subscriber(Audience audience, Filters filters, int capacity) {
        this.audience = audience;
        this.filters = filters;
        this.queue = new LinkedBlockingQueue<>(capacity);
    }

    boolean wants(LiveEvent e) {
        return e.id() > from && audience.sees(e) && filters.pass(e);
    }

    /** Queues an event for the writer; false when this made the stream too slow. */
    boolean offer(LiveEvent e) {
        if (ended) {
            return true;
        }
        if (queue.offer(e)) {
            return true;
        }
        tooSlow = true;
        end();
        return false;
    }

    /** The next event, or null after {@code millis} without one, or {@link #END}. */
    LiveEvent next(long millis) throws InterruptedException {
        return ended ? END : queue.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** The next event already waiting, or null. */
    LiveEvent nextNow() {
        return ended ? END : queue.poll();
    }

    /** Ends the stream: its writer wakes and returns. */
    void end() {
        ended = true;
        queue.clear();
        queue.offer(END);
    }

    boolean tooSlow() {
        return tooSlow;
    }
}
