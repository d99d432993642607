package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WarmupTest {
    @Test
    void stableWhenTheLastWindowsAgreeWithinTheTolerance() {
        assertThat(Warmup.stable(List.of(500.0, 1500.0, 2000.0, 2050.0, 2020.0), 3, 0.05)).isTrue();
        // still climbing: 1500 -> 2000 is 33%
        assertThat(Warmup.stable(List.of(500.0, 1500.0, 2000.0, 2050.0), 3, 0.05)).isFalse();
        // too few windows to compare
        assertThat(Warmup.stable(List.of(2000.0, 2000.0), 3, 0.05)).isFalse();
        // a dip among the last three
        assertThat(Warmup.stable(List.of(2000.0, 1800.0, 2000.0), 3, 0.05)).isFalse();
        assertThat(Warmup.stable(List.of(2000.0, 2099.0), 2, 0.05)).isTrue();
        assertThat(Warmup.stable(List.of(0.0, 0.0, 0.0), 3, 0.05)).isFalse();
    }

    @Test
    void theFirstWindowIsCutToTheRunAndACutLastOneDropped() {
        Map<Long, Long> perSecond = new TreeMap<>(Map.of(100L, 50L, 101L, 1000L, 102L, 2000L, 103L, 300L));
        // the run began at 100.5 and lasted 3.1 s: ends at 103.6
        List<WarmupBlock.Window> ws = WarmupBlock.windows(perSecond, 100.5, 3.1);
        assertThat(ws).hasSize(3);
        assertThat(ws.get(0).start()).isEqualTo(0.0);
        assertThat(ws.get(0).end()).isCloseTo(0.5, within(1e-9));
        assertThat(ws.get(0).rps()).isCloseTo(100.0, within(1e-6));
        assertThat(ws.get(1).full()).isTrue();
        assertThat(ws.get(2).end()).isCloseTo(2.5, within(1e-9));
        assertThat(ws.get(2).rps()).isCloseTo(2000.0, within(1e-6));
        // a first sliver of 0.1 s is no rate
        assertThat(WarmupBlock.windows(Map.of(100L, 10L, 101L, 1000L, 102L, 5L), 100.9, 1.5)).hasSize(1);
    }

    @Test
    void timeToNinetyPercentOfTheWarmMedian() {
        List<WarmupBlock.Window> ws = new java.util.ArrayList<>();
        long[] rates = {200, 600, 1200, 1700, 1850, 1900, 2000, 1950, 2000, 2050, 2000, 1990};
        for (int i = 0; i < rates.length; i++) {
            ws.add(new WarmupBlock.Window(i, i + 1, rates[i]));
        }
        WarmupBlock.Analysis a = WarmupBlock.analyse(ws);
        // last quarter of 12 windows = 3: 2050, 2000, 1990 -> 2000; 90% = 1800, first reached in window 5 (ends at 5)
        assertThat(a.warmRps()).isEqualTo(2000.0);
        assertThat(a.warmWindows()).isEqualTo(3);
        assertThat(a.t90()).isEqualTo(5.0);
        assertThat(WarmupBlock.analyse(ws.subList(0, 2)).t90()).isNaN();
    }
}
