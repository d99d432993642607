package io.queryapigate.bench;

/**
 * The options of the per-call cost measurements (issue 14), next to {@link Runner.Options}: how a QueryAPIGate start
 * is warmed (at least {@code Options.startWarmup} seconds, then until {@code stableWindows} consecutive windows of
 * {@code windowSeconds} agree within {@code tolerance}, at most {@code startWarmupMax} seconds), how long the warmup
 * block loads its fresh gateway, and how long each profile runs (0: no profiles).
 */
record CostOptions(int startWarmupMax, int windowSeconds, int stableWindows, double tolerance,
        int warmupBlockSeconds, int profileSeconds) {

    CostOptions {
        if (stableWindows < 2) {
            throw new IllegalArgumentException("--stable-windows: at least 2 windows to compare, not " + stableWindows);
        }
        if (windowSeconds < 1 || startWarmupMax < windowSeconds) {
            throw new IllegalArgumentException("--start-warmup-max (" + startWarmupMax + " s) must hold at least one"
                    + " window of " + windowSeconds + " s");
        }
        if (tolerance <= 0 || tolerance >= 1) {
            throw new IllegalArgumentException("--stable-tolerance: a fraction such as 0.05, not " + tolerance);
        }
    }
}
