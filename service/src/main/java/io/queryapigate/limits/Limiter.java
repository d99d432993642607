package io.queryapigate.limits;

/**
 * Counts calls against a budget. {@link #tryAcquire} answers how many calls remain, or how long to wait.
 * Implementations are thread-safe.
 */
public interface Limiter {
    /** The outcome of one attempt. {@code retryAfterMillis} is 0 when allowed. */
    record Decision(boolean allowed, long limit, long remaining, long retryAfterMillis) {}

    /**
     * A token-bucket attempt: the bucket holds {@code rate.count()} tokens and refills at that many per period.
     *
     * @param bucket the bucket's identity (key id, client address)
     */
    Decision tryAcquire(String bucket, Rate rate);
}
