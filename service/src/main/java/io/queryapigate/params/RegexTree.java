package io.queryapigate.params;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A Java regular expression read into a tree, for {@link RegexSampler} to find strings it matches. Everything that
 * matches one character (a literal, {@code .}, a class, {@code \d}, {@code \p{Lu}}, with the flags in force) becomes
 * the exact set of characters of the Basic Multilingual Plane it matches, found by asking {@link Pattern} itself
 * about each one; characters outside that plane (and lone surrogates) are never used.
 */
final class RegexTree {
    /** A node of the tree. */
    sealed interface Node permits Chars, Seq, Alt, Repeat, Look, Anchor, BackRef {}

    /** One character out of {@code ranges}: sorted, disjoint, inclusive pairs. */
    record Chars(char[] ranges) implements Node {}

    /** The items one after the other. */
    record Seq(List<Node> items) implements Node {}

    /** One of the branches. */
    record Alt(List<Node> branches) implements Node {}

    /** {@code min} to {@code max} times ({@code max} -1: unbounded). */
    record Repeat(Node inner, int min, int max) implements Node {}

    /** A lookaround: {@code (?=)}, {@code (?!)}, {@code (?<=)}, {@code (?<!)}. */
    record Look(Node inner, boolean ahead, boolean negative) implements Node {}

    /** A zero-width assertion other than a lookaround. */
    record Anchor(AnchorKind kind) implements Node {}

    /** {@code \1}, {@code \k<name>}: {@code group} is the referenced group's tree (null: not closed yet). */
    record BackRef(Node group) implements Node {}

    /** What a zero-width assertion asserts. */
    enum AnchorKind {
        /** {@code ^}, {@code \A}, {@code \G}: the start of the input. */
        START,
        /** {@code ^} in multiline mode: the start of a line. */
        LINE_START,
        /** {@code $}, {@code \Z}: the end, or before a final line terminator. */
        END,
        /** {@code \z}: the very end. */
        END_ABSOLUTE,
        /** {@code $} in multiline mode: the end, or before a line terminator. */
        LINE_END,
        /** {@code \b}, {@code \B}, {@code \b{g}}: a boundary between characters. */
        BOUNDARY
    }

    private static final int FLAG_MASK = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL
            | Pattern.UNIX_LINES | Pattern.MULTILINE | Pattern.COMMENTS | Pattern.UNICODE_CHARACTER_CLASS;
    private static final int CACHE_LIMIT = 4096;
    private static final Map<String, char[]> CHAR_SETS = new ConcurrentHashMap<>();

    private final String p;
    private final List<String> approximations = new ArrayList<>();
    private final List<Node> groups = new ArrayList<>();
    private final Map<String, Integer> named = new HashMap<>();
    private int groupCount;
    private int flags;
    private int i;

    private RegexTree(String pattern, int flags) {
        this.p = pattern;
        this.flags = flags & FLAG_MASK;
        groups.add(null);
    }

    /** The tree of a compiled pattern; what it reads only approximately is named in {@link Read#approximations}. */
    static Read read(Pattern pattern) {
        if ((pattern.flags() & Pattern.LITERAL) != 0) {
            RegexTree t = new RegexTree("", pattern.flags());
            return new Read(t.literal(pattern.pattern()), List.of());
        }
        RegexTree t = new RegexTree(pattern.pattern(), pattern.flags());
        Node root = t.alternation();
        if (t.i < t.p.length()) {
            throw new IllegalArgumentException("unbalanced ')' at " + t.i);
        }
        return new Read(root, List.copyOf(t.approximations));
    }

    /** A tree and the features it follows only approximately (empty when it is exact). */
    record Read(Node root, List<String> approximations) {}

    private Node alternation() {
        List<Node> branches = new ArrayList<>();
        branches.add(sequence());
        while (i < p.length() && p.charAt(i) == '|') {
            i++;
            branches.add(sequence());
        }
        return branches.size() == 1 ? branches.get(0) : new Alt(branches);
    }

    private Node sequence() {
        List<Node> items = new ArrayList<>();
        while (true) {
            skipComments();
            if (i >= p.length() || p.charAt(i) == '|' || p.charAt(i) == ')') {
                break;
            }
            int before = items.size();
            atom(items);
            if (items.size() > before) {
                quantifiers(items);
            }
        }
        return items.size() == 1 ? items.get(0) : new Seq(items);
    }

    /** Reads one atom into {@code items}: nothing for a flag group or an empty quote, several for a quote. */
    private void atom(List<Node> items) {
        char c = p.charAt(i);
        switch (c) {
            case '(' -> group(items);
            case '[' -> {
                int end = classEnd(i);
                items.add(probe(p.substring(i, end)));
                i = end;
            }
            case '.' -> {
                i++;
                items.add(probe("."));
            }
            case '^' -> {
                i++;
                items.add(new Anchor(has(Pattern.MULTILINE) ? AnchorKind.LINE_START : AnchorKind.START));
            }
            case '$' -> {
                i++;
                items.add(new Anchor(has(Pattern.MULTILINE) ? AnchorKind.LINE_END : AnchorKind.END));
            }
            case '\\' -> escape(items);
            default -> {
                int cp = p.codePointAt(i);
                i += Character.charCount(cp);
                items.add(literalChar(cp));
            }
        }
    }

    private void group(List<Node> items) {
        i++; // (
        int saved = flags;
        Node inner;
        if (p.startsWith("?", i)) {
            i++;
            if (p.startsWith(":", i) || p.startsWith(">", i)) {
                if (p.charAt(i) == '>') {
                    approximations.add("atomic groups");
                }
                i++;
                inner = alternation();
            } else if (p.startsWith("=", i) || p.startsWith("!", i)) {
                boolean negative = p.charAt(i) == '!';
                i++;
                inner = new Look(alternation(), true, negative);
            } else if (p.startsWith("<=", i) || p.startsWith("<!", i)) {
                boolean negative = p.charAt(i + 1) == '!';
                i += 2;
                inner = new Look(alternation(), false, negative);
            } else if (p.startsWith("<", i)) {
                int close = p.indexOf('>', i);
                String name = p.substring(i + 1, close);
                i = close + 1;
                int index = ++groupCount;
                named.put(name, index);
                groups.add(null);
                inner = alternation();
                groups.set(index, inner);
            } else {
                boolean on = true;
                while (i < p.length() && p.charAt(i) != ')' && p.charAt(i) != ':') {
                    char f = p.charAt(i++);
                    if (f == '-') {
                        on = false;
                        continue;
                    }
                    int bit = switch (f) {
                        case 'i' -> Pattern.CASE_INSENSITIVE;
                        case 'd' -> Pattern.UNIX_LINES;
                        case 'm' -> Pattern.MULTILINE;
                        case 's' -> Pattern.DOTALL;
                        case 'u' -> Pattern.UNICODE_CASE;
                        case 'x' -> Pattern.COMMENTS;
                        case 'U' -> Pattern.UNICODE_CHARACTER_CLASS | Pattern.UNICODE_CASE;
                        default -> 0;
                    };
                    flags = on ? flags | bit : flags & ~bit;
                }
                if (i < p.length() && p.charAt(i) == ')') {
                    i++;
                    return; // (?i): the flags hold to the end of the enclosing group
                }
                i++; // :
                inner = alternation();
            }
        } else {
            int index = ++groupCount;
            groups.add(null);
            inner = alternation();
            groups.set(index, inner);
        }
        expect(')');
        flags = saved;
        items.add(inner);
    }

    private void escape(List<Node> items) {
        int start = i;
        char e = p.charAt(i + 1);
        switch (e) {
            case 'Q' -> {
                int end = p.indexOf("\\E", i + 2);
                String text = p.substring(i + 2, end < 0 ? p.length() : end);
                i = end < 0 ? p.length() : end + 2;
                for (int k = 0; k < text.length(); ) {
                    int cp = text.codePointAt(k);
                    k += Character.charCount(cp);
                    items.add(literalChar(cp));
                }
            }
            case 'E' -> i += 2;
            case 'b' -> {
                i += p.startsWith("{g}", i + 2) ? 5 : 2;
                items.add(boundary());
            }
            case 'B' -> {
                i += 2;
                items.add(boundary());
            }
            case 'A', 'G' -> {
                i += 2;
                items.add(new Anchor(AnchorKind.START));
            }
            case 'Z' -> {
                i += 2;
                items.add(new Anchor(AnchorKind.END));
            }
            case 'z' -> {
                i += 2;
                items.add(new Anchor(AnchorKind.END_ABSOLUTE));
            }
            case 'R' -> {
                i += 2;
                items.add(new Alt(List.of(new Seq(List.of(single('\r'), single('\n'))),
                        probe("[\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}]"))));
            }
            case 'k' -> {
                int close = p.indexOf('>', i);
                Integer index = named.get(p.substring(i + 3, close));
                i = close + 1;
                items.add(backReference(index == null ? 0 : index));
            }
            default -> {
                if (e >= '1' && e <= '9') {
                    int n = e - '0';
                    i += 2;
                    while (i < p.length() && Character.isDigit(p.charAt(i))
                            && n * 10 + (p.charAt(i) - '0') <= groupCount) {
                        n = n * 10 + (p.charAt(i++) - '0');
                    }
                    items.add(backReference(n));
                } else if (Character.isLetterOrDigit(e)) {
                    i = escapeEnd(start);
                    items.add(probe(p.substring(start, i)));
                } else {
                    i += 2;
                    items.add(literalChar(e));
                }
            }
        }
    }

    /** Where the one-character escape at {@code start} ends: {@code \x{..}}, {@code \p{..}}, {@code \0nnn}, ... */
    private int escapeEnd(int start) {
        char e = p.charAt(start + 1);
        int j = start + 2;
        switch (e) {
            case 'x', 'p', 'P', 'N' -> {
                if (j < p.length() && p.charAt(j) == '{') {
                    return p.indexOf('}', j) + 1;
                }
                return e == 'x' ? j + 2 : e == 'N' ? j : j + 1;
            }
            case 'u' -> {
                return j + 4;
            }
            case 'c' -> {
                return j + 1;
            }
            case '0' -> {
                int max = j < p.length() && p.charAt(j) <= '3' ? 3 : 2;
                int k = j;
                while (k < p.length() && k - j < max && p.charAt(k) >= '0' && p.charAt(k) <= '7') {
                    k++;
                }
                return k;
            }
            default -> {
                return j;
            }
        }
    }

    private Node boundary() {
        approximations.add("word boundaries (\\b, \\B)");
        return new Anchor(AnchorKind.BOUNDARY);
    }

    private Node backReference(int index) {
        approximations.add("back references");
        return new BackRef(index > 0 && index < groups.size() ? groups.get(index) : null);
    }

    /** The end (exclusive) of the character class opening at {@code start}. */
    private int classEnd(int start) {
        int j = start + 1;
        if (j < p.length() && p.charAt(j) == '^') {
            j++;
        }
        if (j < p.length() && p.charAt(j) == ']') {
            j++; // a ']' first is a literal
        }
        int depth = 1;
        while (j < p.length()) {
            char c = p.charAt(j);
            if (c == '\\') {
                if (p.startsWith("Q", j + 1)) {
                    int end = p.indexOf("\\E", j + 2);
                    j = end < 0 ? p.length() : end + 2;
                } else {
                    j = escapeEnd(j);
                }
                continue;
            }
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return j + 1;
            }
            j++;
        }
        throw new IllegalArgumentException("unterminated character class at " + start);
    }

    private void quantifiers(List<Node> items) {
        while (true) {
            skipComments();
            if (i >= p.length()) {
                return;
            }
            char c = p.charAt(i);
            int min;
            int max;
            if (c == '*' || c == '+' || c == '?') {
                min = c == '+' ? 1 : 0;
                max = c == '?' ? 1 : -1;
                i++;
            } else if (c == '{') {
                int close = p.indexOf('}', i);
                String body = p.substring(i + 1, close);
                int comma = body.indexOf(',');
                min = Integer.parseInt(comma < 0 ? body.strip() : body.substring(0, comma).strip());
                max = comma < 0 ? min : body.substring(comma + 1).isBlank() ? -1
                        : Integer.parseInt(body.substring(comma + 1).strip());
                i = close + 1;
            } else {
                return;
            }
            if (i < p.length() && p.charAt(i) == '?') {
                i++; // reluctant: the same strings
            } else if (i < p.length() && p.charAt(i) == '+') {
                i++;
                approximations.add("possessive quantifiers");
            }
            int last = items.size() - 1;
            items.set(last, new Repeat(items.get(last), min, max));
        }
    }

    private void skipComments() {
        if (!has(Pattern.COMMENTS)) {
            return;
        }
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r') {
                i++;
            } else if (c == '#') {
                while (i < p.length() && !isLineEnd(p.charAt(i))) {
                    i++;
                }
            } else {
                return;
            }
        }
    }

    private static boolean isLineEnd(char c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    private void expect(char c) {
        if (i >= p.length() || p.charAt(i) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + i);
        }
        i++;
    }

    private boolean has(int flag) {
        return (flags & flag) != 0;
    }

    private Node literal(String text) {
        List<Node> items = new ArrayList<>();
        text.codePoints().forEach(cp -> items.add(literalChar(cp)));
        return new Seq(items);
    }

    private Node literalChar(int cp) {
        if (cp > 0xFFFF || Character.isSurrogate((char) cp)) {
            return new Chars(new char[0]);
        }
        if (has(Pattern.CASE_INSENSITIVE)) {
            return probe("\\x{" + Integer.toHexString(cp) + "}");
        }
        return single((char) cp);
    }

    private static Node single(char c) {
        return new Chars(new char[] {c, c});
    }

    /** The characters {@code text} (one character's worth of regular expression) matches under the flags. */
    private Node probe(String text) {
        int f = flags & ~Pattern.MULTILINE;
        String key = f + ":" + text;
        char[] ranges = CHAR_SETS.get(key);
        if (ranges == null) {
            ranges = matching(Pattern.compile(text, f));
            if (CHAR_SETS.size() >= CACHE_LIMIT) {
                CHAR_SETS.clear();
            }
            CHAR_SETS.put(key, ranges);
        }
        return new Chars(ranges);
    }

    private static char[] matching(Pattern one) {
        OneChar probe = new OneChar();
        java.util.regex.Matcher m = one.matcher(probe);
        char[] out = new char[16];
        int n = 0;
        int open = -1;
        for (int c = 0; c <= 0x10000; c++) {
            boolean in = false;
            if (c <= 0xFFFF && !Character.isSurrogate((char) c)) {
                probe.c = (char) c;
                in = m.reset(probe).matches();
            }
            if (in && open < 0) {
                open = c;
            } else if (!in && open >= 0) {
                if (n + 2 > out.length) {
                    out = java.util.Arrays.copyOf(out, out.length * 2);
                }
                out[n++] = (char) open;
                out[n++] = (char) (c - 1);
                open = -1;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** A one-character text, reused for each character probed. */
    private static final class OneChar implements CharSequence {
        char c;

        @Override
        public int length() {
            return 1;
        }

        @Override
        public char charAt(int index) {
            return c;
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return start == end ? "" : String.valueOf(c);
        }

        @Override
        public String toString() {
            return String.valueOf(c);
        }
    }
}
