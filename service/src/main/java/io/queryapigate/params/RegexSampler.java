package io.queryapigate.params;

import dk.brics.automaton.Automaton;
import dk.brics.automaton.State;
import dk.brics.automaton.Transition;
import io.queryapigate.params.RegexTree.Alt;
import io.queryapigate.params.RegexTree.Anchor;
import io.queryapigate.params.RegexTree.BackRef;
import io.queryapigate.params.RegexTree.Chars;
import io.queryapigate.params.RegexTree.Look;
import io.queryapigate.params.RegexTree.Node;
import io.queryapigate.params.RegexTree.Repeat;
import io.queryapigate.params.RegexTree.Seq;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Strings that a Java regular expression matches in full, of a length in a range: the expression ({@link RegexTree})
 * becomes a finite automaton (dk.brics.automaton) over one character of each kind the pattern tells apart, its
 * lookaheads and end anchors intersected with what follows them; the automaton is searched for the shortest string of
 * a length in range, then walked at random (seeded: the same rules give the same strings) for more. Back references, lookbehinds, word boundaries, atomic groups and
 * possessive quantifiers are followed approximately: the caller checks every string with the pattern itself.
 */
final class RegexSampler {
    /** More states than this and the automaton is not built (a pattern is at most 500 characters). */
    private static final int MAX_STATES = 50_000;
    /** A lookahead is not negated (which needs a deterministic automaton) above this size. */
    private static final int MAX_NEGATED_STATES = 400;
    /** A repetition that contains a lookahead is unrolled up to this count. */
    private static final int MAX_UNROLL = 12;
    /** Work (states visited) allowed to the search for strings of the minimum length. */
    private static final long MAX_SEARCH = 5_000_000;
    private static final int RANDOM_WALKS = 8;
    /** dk.brics numbers the states it makes from one unsynchronised counter: one automaton is built at a time. */
    private static final Object BRICS = new Object();

    private static final char[] LINE_TERMINATORS = {'\n', '\n', '\r', '\r', '\u0085', '\u0085', '\u2028', '\u2029'};

    private final List<String> approximations;
    private final Alphabet alphabet;
    private boolean ignoredLookaround;

    private RegexSampler(List<String> approximations, Alphabet alphabet) {
        this.approximations = new ArrayList<>(approximations);
        this.alphabet = alphabet;
    }

    /**
     * Candidates for a full match of {@code pattern} with {@code minLength} to {@code maxLength} characters, best
     * first (the shortest, of letters and digits where the pattern lets it choose).
     *
     * @return the candidates (empty when none was found) and what the pattern uses that was only approximated
     */
    static Samples sample(Pattern pattern, int minLength, int maxLength) {
        synchronized (BRICS) {
            return sampleAlone(pattern, minLength, maxLength);
        }
    }

    private static Samples sampleAlone(Pattern pattern, int minLength, int maxLength) {
        RegexTree.Read read;
        try {
            read = RegexTree.read(pattern);
        } catch (RuntimeException unreadable) {
            return new Samples(List.of(), List.of(), "the pattern has a construct the example generator cannot read");
        }
        List<char[]> sets = new ArrayList<>();
        sets.add(LINE_TERMINATORS);
        sets.add(new char[] {'\r', '\r'}); // for \r\n
        collect(read.root(), sets);
        RegexSampler s = new RegexSampler(read.approximations(), new Alphabet(sets));
        Automaton a;
        try {
            a = s.follow(read.root(), Automaton.makeEmptyString());
        } catch (TooLarge e) {
            return new Samples(List.of(), List.of(), "the pattern's repetitions are too large to derive an example");
        }
        if (s.ignoredLookaround) {
            s.approximations.add("lookarounds inside repetitions");
        }
        Search search = new Search(a, minLength, maxLength);
        List<String> out = new ArrayList<>(new LinkedHashSet<>(search.candidates()));
        String problem = null;
        if (out.isEmpty()) {
            problem = search.exhausted ? "the pattern is too complex to derive an example from"
                    : search.shortest > maxLength ? "the shortest match has more than " + maxLength
                            + " characters"
                    : "no text of the allowed length matches the pattern (only characters of the Basic Multilingual"
                            + " Plane are tried)";
        }
        return new Samples(out, List.copyOf(new LinkedHashSet<>(s.approximations)), problem);
    }

    /**
     * Candidate strings, best first; the features followed approximately; why there is no candidate (null when
     * there are some).
     */
    record Samples(List<String> candidates, List<String> approximations, String problem) {}

    /** The automaton of {@code n} followed by {@code k}, the assertions in {@code n} checked against {@code k}. */
    private Automaton follow(Node n, Automaton k) {
        if (!asserts(n)) {
            return checked(plain(n).concatenate(k));
        }
        return switch (n) {
            case Seq s -> {
                Automaton rest = k;
                for (int j = s.items().size() - 1; j >= 0; j--) {
                    rest = follow(s.items().get(j), rest);
                }
                yield rest;
            }
            case Alt a -> {
                List<Automaton> branches = new ArrayList<>();
                for (Node b : a.branches()) {
                    branches.add(follow(b, k));
                }
                yield checked(Automaton.union(branches));
            }
            case Repeat r -> repeatFollowed(r, k);
            case Look l -> lookahead(l, k);
            case Anchor a -> checked(k.intersection(switch (a.kind()) {
                case END_ABSOLUTE -> Automaton.makeEmptyString();
                case END -> Automaton.makeEmptyString().union(lineTerminators());
                default -> lineTerminators().concatenate(Automaton.makeAnyString()).union(Automaton.makeEmptyString());
            }));
            default -> throw new IllegalStateException(n.toString());
        };
    }

    /** {@code x{min,max}} then {@code k}, unrolled when small: {@code x·x·(k | x·(k | x·k))}. */
    private Automaton repeatFollowed(Repeat r, Automaton k) {
        if (Math.max(r.min(), r.max()) > MAX_UNROLL) {
            ignoredLookaround = true;
            return checked(plain(r).concatenate(k));
        }
        Automaton rest;
        if (r.max() < 0) {
            ignoredLookaround = true; // the unbounded part: its lookarounds are not followed
            rest = checked(plain(r.inner()).repeat().concatenate(k));
        } else {
            rest = k;
            for (int j = r.min(); j < r.max(); j++) {
                rest = checked(follow(r.inner(), rest).union(k));
            }
        }
        for (int j = 0; j < r.min(); j++) {
            rest = follow(r.inner(), rest);
        }
        return rest;
    }

    private Automaton lookahead(Look l, Automaton k) {
        if (!l.ahead()) {
            approximations.add("lookbehinds");
            return k;
        }
        Automaton inner = follow(l.inner(), Automaton.makeAnyString());
        if (!l.negative()) {
            return checked(k.intersection(inner));
        }
        if (inner.getNumberOfStates() > MAX_NEGATED_STATES) {
            approximations.add("large negative lookaheads");
            return k;
        }
        return checked(k.intersection(inner.complement()));
    }

    /** The automaton of {@code n} with every assertion in it taken as always true. */
    private Automaton plain(Node n) {
        return switch (n) {
            case Chars c -> chars(alphabet.restrict(c.ranges()));
            case Seq s -> {
                List<Automaton> items = new ArrayList<>();
                for (Node item : s.items()) {
                    items.add(plain(item));
                }
                yield checked(Automaton.concatenate(items));
            }
            case Alt a -> {
                List<Automaton> branches = new ArrayList<>();
                for (Node b : a.branches()) {
                    branches.add(plain(b));
                }
                yield checked(Automaton.union(branches));
            }
            case Repeat r -> {
                if ((long) size(r.inner()) * Math.max(r.min(), r.max()) > MAX_STATES) {
                    throw new TooLarge();
                }
                Automaton inner = plain(r.inner());
                yield checked(r.max() < 0 ? inner.repeat(r.min()) : inner.repeat(r.min(), r.max()));
            }
            case Look l -> {
                ignoredLookaround = true;
                yield Automaton.makeEmptyString();
            }
            case Anchor a -> Automaton.makeEmptyString();
            case BackRef b -> b.group() == null ? Automaton.makeEmptyString() : plain(b.group());
        };
    }

    /** Whether {@code n} holds a lookaround or an end anchor, which need what follows them. */
    private static boolean asserts(Node n) {
        return switch (n) {
            case Seq s -> s.items().stream().anyMatch(RegexSampler::asserts);
            case Alt a -> a.branches().stream().anyMatch(RegexSampler::asserts);
            case Repeat r -> asserts(r.inner());
            case Look l -> true;
            case Anchor a -> a.kind() == RegexTree.AnchorKind.END || a.kind() == RegexTree.AnchorKind.END_ABSOLUTE
                    || a.kind() == RegexTree.AnchorKind.LINE_END;
            default -> false;
        };
    }

    /** A rough count of the states {@code n} needs, to refuse a pattern such as {@code (a{1000}){1000}} early. */
    private static long size(Node n) {
        long s = switch (n) {
            case Chars c -> 2;
            case Seq q -> q.items().stream().mapToLong(RegexSampler::size).sum();
            case Alt a -> a.branches().stream().mapToLong(RegexSampler::size).sum();
            case Repeat r -> size(r.inner()) * Math.max(1, Math.max(r.min(), r.max()));
            case Look l -> size(l.inner());
            case Anchor a -> 1;
            case BackRef b -> b.group() == null ? 1 : size(b.group());
        };
        return Math.min(s, Integer.MAX_VALUE);
    }

    private static Automaton chars(char[] ranges) {
        Automaton a = new Automaton();
        State start = new State();
        State end = new State();
        end.setAccept(true);
        for (int j = 0; j < ranges.length; j += 2) {
            start.addTransition(new Transition(ranges[j], ranges[j + 1], end));
        }
        a.setInitialState(start);
        return a;
    }

    private Automaton lineTerminators() {
        return chars(alphabet.restrict(LINE_TERMINATORS)).union(Automaton.makeString("\r\n"));
    }

    private static void collect(Node n, List<char[]> sets) {
        switch (n) {
            case Chars c -> sets.add(c.ranges());
            case Seq s -> s.items().forEach(item -> collect(item, sets));
            case Alt a -> a.branches().forEach(b -> collect(b, sets));
            case Repeat r -> collect(r.inner(), sets);
            case Look l -> collect(l.inner(), sets);
            case Anchor a -> { }
            case BackRef b -> { }
        }
    }

    /**
     * The pattern's characters, one per kind: characters that every set of the pattern either holds or lacks alike
     * are interchangeable, so the automaton is built over one of each kind (the best: a letter, a digit, ...).
     * Strings over them are strings of the pattern, and a pattern that matches anything matches one of them, with
     * a few transitions where a class such as {@code \p{L}} has hundreds of ranges.
     */
    private static final class Alphabet {
        private static final char[] PREFERENCE = preference();
        private final char[] representatives;

        Alphabet(List<char[]> sets) {
            int[] kind = new int[0x10000];
            int kinds = 1;
            Set<String> distinct = new LinkedHashSet<>();
            sets.forEach(set -> distinct.add(new String(set)));
            for (String set : distinct) {
                int[] split = new int[kinds];
                java.util.Arrays.fill(split, -1);
                for (int r = 0; r < set.length(); r += 2) {
                    for (int c = set.charAt(r); c <= set.charAt(r + 1); c++) {
                        if (split[kind[c]] < 0) {
                            split[kind[c]] = kinds++;
                        }
                        kind[c] = split[kind[c]];
                    }
                }
            }
            boolean[] seen = new boolean[kinds];
            StringBuilder reps = new StringBuilder();
            for (char c : PREFERENCE) {
                if (!seen[kind[c]]) {
                    seen[kind[c]] = true;
                    reps.append(c);
                }
            }
            representatives = reps.toString().toCharArray();
            java.util.Arrays.sort(representatives);
        }

        /** The representatives in {@code ranges}, as ranges of one character each. */
        char[] restrict(char[] ranges) {
            StringBuilder out = new StringBuilder();
            for (char c : representatives) {
                if (contains(ranges, c)) {
                    out.append(c).append(c);
                }
            }
            return out.toString().toCharArray();
        }

        private static boolean contains(char[] ranges, char c) {
            int lo = 0;
            int hi = ranges.length / 2 - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (c < ranges[2 * mid]) {
                    hi = mid - 1;
                } else if (c > ranges[2 * mid + 1]) {
                    lo = mid + 1;
                } else {
                    return true;
                }
            }
            return false;
        }

        /** Every character but surrogates, letters first, then digits, other printable ASCII, and the rest. */
        private static char[] preference() {
            StringBuilder out = new StringBuilder(0x10000);
            boolean[] taken = new boolean[0x10000];
            for (char[] band : Search.BANDS) {
                for (int c = band[0]; c <= band[1]; c++) {
                    if (!taken[c] && !Character.isSurrogate((char) c)) {
                        taken[c] = true;
                        out.append((char) c);
                    }
                }
            }
            for (int c = 0; c < 0x10000; c++) {
                if (!taken[c] && !Character.isSurrogate((char) c)) {
                    out.append((char) c);
                }
            }
            return out.toString().toCharArray();
        }
    }

    private static Automaton checked(Automaton a) {
        if (a.getNumberOfStates() > MAX_STATES) {
            throw new TooLarge();
        }
        return a;
    }

    private static final class TooLarge extends RuntimeException {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    /**
     * Strings the automaton accepts, of a length in range. It works on sets of states (as the automaton runs), so
     * the strings depend only on the language and the preferences, never on the order in which states are stored.
     */
    private static final class Search {
        private final int min;
        private final int max;
        private final int start;
        private final boolean[] accept;
        private final char[][] low;
        private final char[][] high;
        private final int[][] dest;
        private final List<BitSet> exact = new ArrayList<>();
        private final int size;
        private long work;
        boolean exhausted;
        /** The length of the shortest string of at least the minimum length; -1 when there is none. */
        int shortest = -1;

        Search(Automaton a, int min, int max) {
            this.min = min;
            this.max = max;
            List<State> states = new ArrayList<>(a.getStates());
            size = states.size();
            Map<State, Integer> index = new IdentityHashMap<>();
            for (int s = 0; s < size; s++) {
                index.put(states.get(s), s);
            }
            start = index.get(a.getInitialState());
            accept = new boolean[size];
            low = new char[size][];
            high = new char[size][];
            dest = new int[size][];
            for (int s = 0; s < size; s++) {
                State state = states.get(s);
                accept[s] = state.isAccept();
                List<int[]> ts = new ArrayList<>();
                for (Transition t : state.getTransitions()) {
                    int to = index.get(t.getDest());
                    // no lone surrogates: split a range around them
                    if (t.getMin() < 0xD800) {
                        ts.add(new int[] {t.getMin(), Math.min(t.getMax(), 0xD7FF), to});
                    }
                    if (t.getMax() > 0xDFFF) {
                        ts.add(new int[] {Math.max(t.getMin(), 0xE000), t.getMax(), to});
                    }
                }
                low[s] = new char[ts.size()];
                high[s] = new char[ts.size()];
                dest[s] = new int[ts.size()];
                for (int k = 0; k < ts.size(); k++) {
                    low[s][k] = (char) ts.get(k)[0];
                    high[s][k] = (char) ts.get(k)[1];
                    dest[s][k] = ts.get(k)[2];
                }
            }
        }

        List<String> candidates() {
            List<String> out = new ArrayList<>();
            shortest = shortestLength();
            if (shortest < 0 || shortest > max) {
                return out;
            }
            int longest = (int) Math.min(max, (long) shortest + 8);
            if (!exactUpTo(longest)) {
                return out;
            }
            out.add(build(shortest, null));
            Random random = new Random(31L * shortest + size);
            for (int w = 0; w < RANDOM_WALKS && !exhausted; w++) {
                int target = shortest + random.nextInt(longest - shortest + 1);
                if (exact.get(target).get(start)) {
                    out.add(build(target, random));
                }
            }
            return out;
        }

        /** The length of the shortest accepted string of at least {@code min} characters; -1 when there is none. */
        private int shortestLength() {
            int[] distance = new int[size];
            java.util.Arrays.fill(distance, -1);
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            List<List<Integer>> incoming = new ArrayList<>();
            for (int s = 0; s < size; s++) {
                incoming.add(new ArrayList<>());
            }
            for (int s = 0; s < size; s++) {
                for (int to : dest[s]) {
                    incoming.get(to).add(s);
                }
                if (accept[s]) {
                    distance[s] = 0;
                    queue.add(s);
                }
            }
            while (!queue.isEmpty()) {
                int s = queue.poll();
                for (int from : incoming.get(s)) {
                    if (distance[from] < 0) {
                        distance[from] = distance[s] + 1;
                        queue.add(from);
                    }
                }
            }
            BitSet layer = new BitSet(size);
            if (distance[start] < 0) {
                return -1;
            }
            layer.set(start);
            for (int len = 0; len < min; len++) {
                BitSet next = new BitSet(size);
                for (int s = layer.nextSetBit(0); s >= 0; s = layer.nextSetBit(s + 1)) {
                    for (int to : dest[s]) {
                        if (distance[to] >= 0) {
                            next.set(to);
                        }
                    }
                    if ((work += dest[s].length) > MAX_SEARCH) {
                        exhausted = true;
                        return -1;
                    }
                }
                if (next.isEmpty()) {
                    return -1;
                }
                layer = next;
            }
            int best = Integer.MAX_VALUE;
            for (int s = layer.nextSetBit(0); s >= 0; s = layer.nextSetBit(s + 1)) {
                best = Math.min(best, distance[s]);
            }
            return (int) Math.min(Integer.MAX_VALUE, (long) min + best);
        }

        /** {@code exact.get(r)}: the states from which some string of exactly {@code r} characters is accepted. */
        private boolean exactUpTo(int r) {
            if ((long) (r + 1) * size > MAX_SEARCH * 8) {
                exhausted = true;
                return false;
            }
            BitSet zero = new BitSet(size);
            for (int s = 0; s < size; s++) {
                if (accept[s]) {
                    zero.set(s);
                }
            }
            exact.add(zero);
            for (int len = 1; len <= r; len++) {
                BitSet previous = exact.get(len - 1);
                BitSet now = new BitSet(size);
                for (int s = 0; s < size; s++) {
                    for (int to : dest[s]) {
                        if (previous.get(to)) {
                            now.set(s);
                            break;
                        }
                    }
                }
                if ((work += size) > MAX_SEARCH * 8) {
                    exhausted = true;
                    return false;
                }
                exact.add(now);
            }
            return true;
        }

        /**
         * An accepted string of exactly {@code length} characters, each the best character that still allows one
         * ({@code random} null), or one picked at random among them.
         */
        private String build(int length, Random random) {
            StringBuilder out = new StringBuilder(length);
            BitSet current = new BitSet(size);
            current.set(start);
            for (int i = 0; i < length; i++) {
                BitSet allowed = exact.get(length - i - 1);
                List<Character> options = new ArrayList<>();
                for (int s = current.nextSetBit(0); s >= 0; s = current.nextSetBit(s + 1)) {
                    for (int k = 0; k < dest[s].length; k++) {
                        if (allowed.get(dest[s][k])) {
                            options.add(random != null && random.nextInt(4) == 0
                                    ? any(low[s][k], high[s][k], random) : representative(low[s][k], high[s][k]));
                        }
                    }
                }
                options.sort(Comparator.comparingInt(Search::rank).thenComparing(c -> c));
                char c = random == null ? options.get(0) : options.get(random.nextInt(options.size()));
                BitSet next = new BitSet(size);
                for (int s = current.nextSetBit(0); s >= 0; s = current.nextSetBit(s + 1)) {
                    for (int k = 0; k < dest[s].length; k++) {
                        if (low[s][k] <= c && c <= high[s][k] && allowed.get(dest[s][k])) {
                            next.set(dest[s][k]);
                        }
                    }
                }
                out.append(c);
                current = next;
            }
            return out.toString();
        }

        /** The best character of a range: a letter, then a digit, then other printable ASCII, then any. */
        private static char representative(char min, char max) {
            for (char[] band : BANDS) {
                char lo = (char) Math.max(min, band[0]);
                char hi = (char) Math.min(max, band[1]);
                if (lo <= hi) {
                    return lo;
                }
            }
            return min;
        }

        private static int rank(char c) {
            for (int b = 0; b < BANDS.length; b++) {
                if (c >= BANDS[b][0] && c <= BANDS[b][1]) {
                    return b;
                }
            }
            return BANDS.length;
        }

        private static char any(char min, char max, Random random) {
            char c = (char) (min + random.nextInt(max - min + 1));
            return Character.isISOControl(c) ? representative(min, max) : c;
        }

        static final char[][] BANDS = {{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'!', '~'}, {' ', ' '},
            {'\u00A1', '\u024F'}, {'\u0250', '\uD7FF'}, {'\uE000', '\uFFFD'}};
    }
}
