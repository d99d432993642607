package io.queryapigate.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.TestingClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RefusalsTest {
    @Test
    void countsEachKeysRefusalsOfTheLastHourOnly() {
        TestingClock clock = new TestingClock();
        Refusals refusals = new Refusals(clock);
        refusals.note(7);
        refusals.note(7);
        clock.advance(Duration.ofMinutes(30));
        refusals.note(7);
        refusals.note(8);
        assertThat(refusals.lastHour()).isEqualTo(Map.of(7L, 3L, 8L, 1L));

        clock.advance(Duration.ofMinutes(31)); // the first two are more than an hour old
        assertThat(refusals.lastHour()).isEqualTo(Map.of(7L, 1L, 8L, 1L));

        clock.advance(Duration.ofMinutes(29)); // a minute's slot is used again an hour later: counted afresh
        refusals.note(7);
        assertThat(refusals.lastHour()).isEqualTo(Map.of(7L, 1L));

        clock.advance(Duration.ofHours(5));
        assertThat(refusals.lastHour()).isEmpty();
    }
}
