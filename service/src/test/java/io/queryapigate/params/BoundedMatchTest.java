package io.queryapigate.params;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A pattern rule cannot hold a thread: catastrophic backtracking is cut off and the value refused. */
class BoundedMatchTest {
    @Test
    void ordinaryPatternsMatchAsTheyDo() {
        Pattern p = Pattern.compile("[A-Z]{2}-\\d{4}");
        assertThat(BoundedMatch.matches(p, "AB-1234")).isTrue();
        assertThat(BoundedMatch.matches(p, "AB-123")).isFalse();
        String long1 = "x".repeat(60_000);
        assertThat(BoundedMatch.matches(Pattern.compile("x*"), long1)).isTrue();
        assertThat(BoundedMatch.matches(Pattern.compile("(x|y)+"), "xy".repeat(100))).isTrue();
    }

    @Test
    void aMatchThatWouldOverflowTheStackIsARefusalNotACrash() {
        assertThat(BoundedMatch.matches(Pattern.compile("(x|y)+"), "x".repeat(60_000))).isFalse();
    }

    @Test
    void catastrophicBacktrackingIsCutOffQuickly() {
        Pattern evil = Pattern.compile("(a+)+$");
        String value = "a".repeat(40) + "!";
        long start = System.nanoTime();
        assertThat(BoundedMatch.matches(evil, value)).isFalse();
        long millis = (System.nanoTime() - start) / 1_000_000;
        // unbounded, this match takes longer than the age of the universe; bounded, a few million reads at most
        assertThat(millis).as("milliseconds").isLessThan(5_000);
    }
}
