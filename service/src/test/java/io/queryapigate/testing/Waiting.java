package io.queryapigate.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting in a test for something a background thread does (a delivery, a stream's event), with a deadline. */
public final class Waiting {
    private static final Duration LIMIT = Duration.ofSeconds(20);

    private Waiting() {}

    /** Returns once {@code condition} holds; fails naming {@code what} after 20 s. */
    public static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
