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

    /**
     * A fixed-window quota attempt: at most {@code quota.count()} calls per calendar window of the quota's period
     * (UTC days, 30-day months counted from the epoch).
     */
    Decision tryQuota(String bucket, Rate quota);
}
