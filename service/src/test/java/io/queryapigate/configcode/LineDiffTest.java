package io.queryapigate.configcode;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LineDiffTest {
    @Test
    void equalTextsHaveNoHunks() {
        assertThat(LineDiff.unified("SELECT 1\nFROM t", "SELECT 1\nFROM t")).isEmpty();
    }

    @Test
    void aChangedLineIsRemovedThenAddedWithTwoLinesOfContext() {
        String before = "a\nb\nc\nd\ne\nf\ng";
        String after = "a\nb\nc\nD\ne\nf\ng";
        assertThat(LineDiff.unified(before, after)).containsExactly("@@ -2,5 +2,5 @@", " b", " c", "-d", "+D", " e",
                " f");
    }

    @Test
    void distantChangesAreSeparateHunksAndAddedLinesCount() {
        String before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10";
        String after = "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11";
        assertThat(LineDiff.unified(before, after)).containsExactly("@@ -1,2 +1,3 @@", "+0", " 1", " 2",
                "@@ -9,2 +10,3 @@", " 9", " 10", "+11");
        assertThat(LineDiff.unified("", "x")).containsExactly("@@ -0,0 +1,1 @@", "+x");
    }
}
