package io.queryapigate.limits;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This process's rate-limit refusals of the last hour, per key: a key refused by its own {@code rate_limit} is turned
 * away before its call starts, so the event log never sees it. Sixty one-minute counts per key that has been refused,
 * no allocation once a key has its slots; only refusals pay for it.
 */
public final class Refusals {
    private static final int MINUTES = 60;

    private final Clock clock;
    private final Map<Long, long[]> byKey = new ConcurrentHashMap<>();

    public Refusals(Clock clock) {
        this.clock = clock;
    }

    /** One refusal of {@code keyId}. */
    public void note(long keyId) {
        long minute = clock.millis() / 60_000;
        long[] slots = byKey.computeIfAbsent(keyId, k -> new long[MINUTES * 2]);
        synchronized (slots) {
            int i = (int) (minute % MINUTES) * 2;
            if (slots[i] != minute) {
                slots[i] = minute;
                slots[i + 1] = 0;
            }
            slots[i + 1]++;
        }
    }

    /** Refusals in the last hour, by key (keys without any are left out). */
    public Map<Long, Long> lastHour() {
        long minute = clock.millis() / 60_000;
        Map<Long, Long> out = new HashMap<>();
        byKey.forEach((key, slots) -> {
            long n = 0;
            synchronized (slots) {
                for (int i = 0; i < slots.length; i += 2) {
                    if (minute - slots[i] < MINUTES) {
                        n += slots[i + 1];
                    }
                }
            }
            if (n > 0) {
                out.put(key, n);
            }
        });
        return out;
    }
}
