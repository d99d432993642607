package io.queryapigate.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * A few callers in a loop for the fault tests: each thread sends {@code call(n)} (n counts up across threads) until
 * {@link #stop}, and every answer is kept with its start and end time; a call that got no answer (refused, reset)
 * is kept with status -1 and the exception's class as its code.
 */
public final class TestingLoad implements AutoCloseable {
    /** One call: when it started and ended (epoch ms), its status and error code (or null). */
    public record Outcome(long startMs, long endMs, int status, String code) {
        /** How long the caller waited. */
        public long millis() {
            return endMs - startMs;
        }
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();

    private TestingLoad(int callers, LongFunction<Http.Reply> call) {
        for (int i = 0; i < callers; i++) {
            threads.add(Thread.ofPlatform().name("qag-test-load-" + i).daemon(true).start(() -> {
                while (running.get()) {
                    long n = sequence.getAndIncrement();
                    long start = System.currentTimeMillis();
                    try {
                        Http.Reply r = call.apply(n);
                        String code = null;
                        if (r.status() >= 400 && r.body() != null && r.body().startsWith("{")) {
                            code = r.json().path("code").asText(null);
                        }
                        outcomes.add(new Outcome(start, System.currentTimeMillis(), r.status(), code));
                    } catch (RuntimeException e) {
                        Throwable t = e.getCause() == null ? e : e.getCause();
                        outcomes.add(new Outcome(start, System.currentTimeMillis(), -1, t.getClass().getSimpleName()));
                    }
                }
            }));
        }
    }

    /** Starts {@code callers} threads sending {@code call(n)}. */
    public static TestingLoad start(int callers, LongFunction<Http.Reply> call) {
        return new TestingLoad(callers, call);
    }

    /** The outcomes so far. */
    public List<Outcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /** Stops the callers (each finishes its call in flight) and returns every outcome. */
    public List<Outcome> stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(120_000);
        }
        return outcomes();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** Outcomes counted by status and code ({@code 200}, {@code 503 store_unavailable}, ...): for messages. */
    public static Map<String, Long> tally(List<Outcome> outcomes) {
        Map<String, Long> counts = new TreeMap<>();
        for (Outcome o : outcomes) {
            counts.merge(o.status() + (o.code() == null ? "" : " " + o.code()), 1L, Long::sum);
        }
        return counts;
    }

    /** How many outcomes match. */
    public static long count(List<Outcome> outcomes, Predicate<Outcome> which) {
        return outcomes.stream().filter(which).count();
    }

    /** The longest wait of the outcomes (ms), 0 for none. */
    public static long longest(List<Outcome> outcomes) {
        return outcomes.stream().mapToLong(Outcome::millis).max().orElse(0);
    }
}
