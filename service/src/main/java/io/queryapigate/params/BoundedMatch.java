package io.queryapigate.params;

import java.util.regex.Pattern;

/**
 * A pattern rule checked with a bound on the work: a pattern that backtracks catastrophically on some value
 * ({@code (a+)+$} on {@code aaaa...b}) would otherwise hold a request thread for seconds or minutes per call, for a
 * value any caller can send. The matcher reads the value through a sequence that counts character reads and stops
 * the match past a budget proportional to the value's length; such a value is refused like one that does not match,
 * as is one whose match would overflow the thread's stack (a repeated group over a long value).
 */
final class BoundedMatch {
    static final long BASE_BUDGET = 200_000;
    static final long BUDGET_PER_CHAR = 2_000;

    private BoundedMatch() {}

    static boolean matches(Pattern pattern, String value) {
        try {
            return pattern.matcher(new Counted(value, BASE_BUDGET + BUDGET_PER_CHAR * value.length())).matches();
        } catch (Exhausted | StackOverflowError e) { // java.util.regex recurses per repetition of a group
            return false;
        }
    }

    private static final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exhausted() {
            super(null, null, false, false);
        }
    }

    private static final class Counted implements CharSequence {
        private final String text;
        private final int offset;
        private final int length;
        private final long[] left;

        Counted(String text, long budget) {
            this(text, 0, text.length(), new long[] {budget});
        }

        private Counted(String text, int offset, int length, long[] left) {
            this.text = text;
            this.offset = offset;
            this.length = length;
            this.left = left;
        }

        @Override
        public char charAt(int index) {
            if (--left[0] < 0) {
                throw new Exhausted();
            }
            return text.charAt(offset + index);
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Counted(text, offset + start, end - start, left);
        }

        @Override
        public String toString() {
            return text.substring(offset, offset + length);
        }
    }
}
