package io.queryapigate.params;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Example values for parameters, derived from their rules, for the Postman export and the OpenAPI document. Every
 * example is checked by {@link ParamRules#resolve} exactly as a call checks it (as query-string text and as a JSON
 * body value) before it is offered: an example is valid, or it says why there is none.
 *
 * <p>The order of preference follows the Python original: the default, else the first {@code enum} value, else a
 * value built from the type and bounds ({@code min}, else 1, else {@code max}; {@code "x"} repeated up to
 * {@code min_length}; {@code true}; {@code 2024-01-01}); where the original's choice is refused by the rules (a
 * {@code pattern}, an integer bound that is not whole, {@code max_length} 0) the next candidate is taken. A
 * {@code pattern}'s example is the shortest string of letters and digits (where the pattern lets it choose) that
 * matches it in full within the length rules, found through a finite automaton ({@link RegexSampler}).
 */
public final class ParamExamples {
    /** Longest example made for a text parameter (a {@code min_length} above it gets none). */
    public static final int MAX_TEXT_EXAMPLE = 1024;
    private static final int MAX_DECIMAL_DIGITS = 400;
    private static final int CACHE_LIMIT = 1024;
    private static final Map<String, RegexSampler.Samples> PATTERNS = new ConcurrentHashMap<>();

    private ParamExamples() {}

    /**
     * An example for one parameter.
     *
     * @param value   the value a call with {@code text} binds (Long, Double, BigDecimal, String, Boolean, LocalDate,
     *                LocalDateTime or OffsetDateTime); null when there is no valid example
     * @param text    the example as a query string carries it (unencoded); when there is no valid example, the
     *                closest one found, or empty
     * @param json    the example as a JSON value ({@code POST /q/{name}} bodies, OpenAPI {@code example}); null when
     *                there is none
     * @param problem null when the example is valid, else why there is none (a sentence without a final period)
     */
    public record Example(Object value, String text, JsonNode json, String problem) {
        /** Whether the rules accept the example (checked, not assumed). */
        public boolean valid() {
            return problem == null;
        }
    }

    /** The example for {@code spec}: the first candidate that the parameter's rules accept. */
    public static Example of(ParamSpec spec) {
        Candidates c = candidates(spec);
        ParamRules rules = ParamRules.of(spec);
        for (String text : c.texts) {
            Object value = accepted(rules, spec.name(), text);
            if (value != NONE) {
                return new Example(value, text, ParamRules.toJsonValue(value), null);
            }
        }
        String closest = c.closest != null ? c.closest : c.texts.isEmpty() ? "" : c.texts.get(0);
        return new Example(null, closest, null, c.problem != null ? c.problem : "no value meets every rule");
    }

    /** The typed example value (see {@link Example#value}), or null when there is none. */
    public static Object example(ParamSpec spec) {
        return of(spec).value();
    }

    /** The example as query-string text (see {@link Example#text}). */
    public static String text(ParamSpec spec) {
        return of(spec).text();
    }

    private static final Object NONE = new Object();

    /** The value a call binds for {@code text}, sent in the query string and again in a JSON body; else NONE. */
    private static Object accepted(ParamRules rules, String name, String text) {
        Object value;
        try {
            value = rules.resolve(Map.of(name, text), null).get(name);
        } catch (ApiException refused) {
            return NONE;
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set(name, ParamRules.toJsonValue(value));
        try {
            rules.resolve(Map.of(), body);
        } catch (ApiException refused) {
            return NONE;
        }
        return value;
    }

    private static final class Candidates {
        final List<String> texts = new ArrayList<>();
        String closest;
        String problem;

        void add(String text) {
            if (text != null) {
                texts.add(text);
            }
        }
    }

    private static Candidates candidates(ParamSpec spec) {
        Candidates c = new Candidates();
        if (spec.hasDefault()) {
            if (spec.defaultValue() == null) {
                c.add(""); // the original's example for a null default: valid for plain text only
            } else {
                texts(spec.defaultValue()).forEach(c::add);
            }
        }
        if (spec.allowed() != null) {
            for (Object v : spec.allowed()) {
                texts(v).forEach(c::add);
            }
            c.problem = "no enum value meets every rule";
            return c;
        }
        switch (spec.type()) {
            case INT -> integers(spec, c);
            case FLOAT, DECIMAL -> numbers(spec, c);
            case BOOL -> {
                c.add("true");
                c.add("false");
            }
            case DATE -> c.add("2024-01-01");
            case TIMESTAMP -> c.add("2024-01-01T00:00:00");
            case STR -> {
                if (spec.pattern() == null) {
                    text(spec, c);
                } else {
                    pattern(spec, c);
                }
            }
        }
        return c;
    }

    /** The original's integer ({@code min} rounded up as Python's {@code int(v) + 1}), then the nearest in range. */
    private static void integers(ParamSpec spec, Candidates c) {
        BigDecimal original = start(spec);
        BigDecimal whole = original.setScale(0, RoundingMode.DOWN);
        c.add((whole.compareTo(original) == 0 ? whole : whole.add(BigDecimal.ONE)).toPlainString());
        BigDecimal low = spec.min() == null ? null : spec.min().setScale(0, RoundingMode.CEILING)
                .max(BigDecimal.valueOf(Long.MIN_VALUE));
        BigDecimal high = spec.max() == null ? null : spec.max().setScale(0, RoundingMode.FLOOR)
                .min(BigDecimal.valueOf(Long.MAX_VALUE));
        BigDecimal value = low != null ? low : high == null || high.compareTo(BigDecimal.ONE) >= 0 ? BigDecimal.ONE
                : high;
        c.add(value.toPlainString());
        c.problem = "no 64-bit integer lies within min and max";
    }

    /** The original's number, then the nearest double in range when min or max has more digits than a double. */
    private static void numbers(ParamSpec spec, Candidates c) {
        BigDecimal value = start(spec);
        c.add(decimalText(value));
        c.add(value.toString());
        if (spec.type() == ParamType.FLOAT) {
            double d = value.doubleValue();
            if (spec.min() != null && BigDecimal.valueOf(d).compareTo(spec.min()) < 0) {
                d = Math.nextUp(d);
            } else if (spec.max() != null && Double.isFinite(d) && BigDecimal.valueOf(d).compareTo(spec.max()) > 0) {
                d = Math.nextDown(d);
            }
            if (Double.isFinite(d)) {
                texts(d).forEach(c::add);
            }
            c.problem = "no finite double lies within min and max";
        }
    }

    /** {@code min}, else 1 when {@code max} allows it, else {@code max}: the original's starting point. */
    private static BigDecimal start(ParamSpec spec) {
        if (spec.min() != null) {
            return spec.min();
        }
        return spec.max() == null || spec.max().compareTo(BigDecimal.ONE) >= 0 ? BigDecimal.ONE : spec.max();
    }

    /** {@code x} repeated {@code max(1, min_length)} times, as the original; fewer when {@code max_length} says so. */
    private static void text(ParamSpec spec, Candidates c) {
        int length = Math.max(1, spec.minLength() == null ? 0 : spec.minLength());
        if (spec.maxLength() != null) {
            length = Math.min(length, spec.maxLength());
        }
        if (length > MAX_TEXT_EXAMPLE) {
            c.problem = "min_length is above " + MAX_TEXT_EXAMPLE + ": no example is made";
            return;
        }
        c.add("x".repeat(length));
    }

    private static void pattern(ParamSpec spec, Candidates c) {
        int min = spec.minLength() == null ? 0 : spec.minLength();
        int max = Math.min(spec.maxLength() == null ? Integer.MAX_VALUE : spec.maxLength(), MAX_TEXT_EXAMPLE);
        if (min > MAX_TEXT_EXAMPLE) {
            c.problem = "min_length is above " + MAX_TEXT_EXAMPLE + ": no example is made";
            return;
        }
        String key = spec.pattern().flags() + "/" + min + "/" + max + "/" + spec.pattern().pattern();
        RegexSampler.Samples samples = PATTERNS.get(key);
        if (samples == null) {
            samples = RegexSampler.sample(spec.pattern(), min, max);
            if (PATTERNS.size() >= CACHE_LIMIT) {
                PATTERNS.clear();
            }
            PATTERNS.put(key, samples);
        }
        samples.candidates().forEach(c::add);
        if (!samples.approximations().isEmpty()) {
            c.problem = "the pattern uses " + String.join(", ", samples.approximations())
                    + ", which examples cannot always follow";
        } else if (samples.problem() != null) {
            c.problem = samples.problem();
        } else {
            c.problem = "the example generator reads the pattern differently from Java";
        }
    }

    /** The ways to write {@code v} in a query string, the plainest first. */
    private static List<String> texts(Object v) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (v instanceof Double d) {
            if (Double.isFinite(d)) {
                out.add(decimalText(BigDecimal.valueOf(d)));
            }
            out.add(Double.toString(d));
        } else if (v instanceof BigDecimal b) {
            out.add(decimalText(b));
            out.add(b.toString());
        } else if (v instanceof Boolean b) {
            out.add(b ? "true" : "false");
        } else {
            out.add(String.valueOf(v));
        }
        return List.copyOf(out);
    }

    /** Plain notation without trailing zeros ({@code 2.50} → {@code 2.5}), scientific when that is too long. */
    private static String decimalText(BigDecimal b) {
        BigDecimal stripped = b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
        if (Math.abs((long) stripped.scale()) > MAX_DECIMAL_DIGITS
                || stripped.precision() - stripped.scale() > MAX_DECIMAL_DIGITS) {
            return stripped.toString();
        }
        return stripped.toPlainString();
    }
}
