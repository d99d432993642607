package io.queryapigate.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves (UTC); {@link #withZone} answers the same clock. */
public final class TestingClock extends Clock {
    /** Where a clock made without a start begins. */
    public static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private volatile Instant now;

    public TestingClock() {
        this(T0);
    }

    public TestingClock(Instant start) {
        this.now = start;
    }

    public void advance(Duration d) {
        now = now.plus(d);
    }

    public void set(Instant instant) {
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
