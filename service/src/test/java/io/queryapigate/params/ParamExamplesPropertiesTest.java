package io.queryapigate.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * Examples against the rules a call applies, over many generated rule combinations. Each generated rule is built
 * around a witness (a value the rule accepts, checked by {@link ParamRules} itself), so an example must exist: the
 * property fails when none is found (unless the pattern uses a feature examples follow only approximately, and then
 * the problem must say so), and whenever an example is offered that {@link ParamRules#resolve} refuses, as query
 * text or as a JSON body value. A second property takes arbitrary (often unsatisfiable) rules: an offered example is
 * always accepted, a missing one always says why.
 */
class ParamExamplesPropertiesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Property(tries = 1500)
    void anExampleExistsForRulesSomeValueMeetsAndACallAcceptsIt(@ForAll long seed) {
        Random r = new Random(seed);
        int count = 1 + r.nextInt(4);
        ObjectNode declared = MAPPER.createObjectNode();
        Map<String, Boolean> approximate = new LinkedHashMap<>();
        for (int k = 0; k < count; k++) {
            Generated g = generate(r);
            declared.set("p" + k, g.rule);
            approximate.put("p" + k, g.approximate);
            Statistics.label("kind").collect(g.kind);
            Statistics.label("type").collect(g.kind.split(" \\+ ")[0]);
        }
        ParamRules rules = parse(declared);
        Map<String, String> texts = new LinkedHashMap<>();
        ObjectNode body = MAPPER.createObjectNode();
        Map<String, Object> values = new LinkedHashMap<>();
        for (ParamSpec spec : rules.specs().values()) {
            ParamExamples.Example e = ParamExamples.of(spec);
            if (!e.valid()) {
                assertThat(approximate.get(spec.name()))
                        .as("no example for %s (a witness exists): %s", declared.get(spec.name()), e.problem())
                        .isTrue();
                assertThat(e.problem()).startsWith("the pattern uses ");
                Statistics.label("approximated pattern").collect("no example");
                assertOneRefused(spec, e);
                continue;
            }
            if (approximate.get(spec.name())) {
                Statistics.label("approximated pattern").collect("example");
            }
            texts.put(spec.name(), e.text());
            body.set(spec.name(), e.json());
            values.put(spec.name(), e.value());
        }
        if (texts.size() == count) {
            // exactly as a call: every parameter at once, from the query string, then from a JSON body
            assertThat(rules.resolve(texts, null)).as("%s with %s", declared, texts).isEqualTo(values);
            assertThat(rules.resolve(Map.of(), body)).as("%s with %s", declared, body).isEqualTo(values);
        } else {
            for (String name : texts.keySet()) {
                ParamRules one = parse(MAPPER.createObjectNode().set(name, declared.get(name)));
                assertThat(one.resolve(Map.of(name, texts.get(name)), null).get(name)).isEqualTo(values.get(name));
            }
        }
        Statistics.label("all examples found").collect(texts.size() == count);
        // the generator must reach every kind of rule and pattern feature, or the property proves little
        Statistics.label("type").coverage(c -> {
            for (String t : List.of("int", "float", "decimal", "bool", "date", "timestamp", "str", "str with pattern")) {
                c.check(t).count(n -> n >= 100);
            }
        });
        Statistics.label("kind").coverage(c -> {
            c.checkQuery(k -> ((String) k.get(0)).endsWith(" + enum")).count(n -> n >= 100);
            c.checkQuery(k -> ((String) k.get(0)).endsWith(" + default")).count(n -> n >= 100);
            c.checkQuery(k -> ((String) k.get(0)).endsWith(" + null default")).count(n -> n >= 100);
        });
        Statistics.label("pattern feature").coverage(c -> {
            for (String f : List.of("group", "alternation", "quantifier", "lazy", "possessive", "lookahead",
                    "lookbehind", "back reference", "anchor", "flag", "boundary")) {
                c.check(f).count(n -> n >= 10);
            }
        });
    }

    @Property(tries = 1500)
    void anyRulesGetAnExampleTheyAcceptOrAReason(@ForAll long seed) {
        Random r = new Random(seed);
        ObjectNode rule = arbitrary(r);
        ParamRules rules;
        try {
            rules = ParamRules.parse(MAPPER.createObjectNode().set("p", rule));
        } catch (ApiException refusedAtSave) {
            Statistics.label("rules").collect("refused when saved");
            return;
        }
        ParamSpec spec = rules.specs().get("p");
        ParamExamples.Example e = ParamExamples.of(spec);
        Statistics.label("rules").collect(e.valid() ? "example" : "no example");
        if (e.valid()) {
            assertThat(rules.resolve(Map.of("p", e.text()), null).get("p")).as("%s: %s", rule, e.text())
                    .isEqualTo(e.value());
            assertThat(rules.resolve(Map.of(), MAPPER.createObjectNode().set("p", e.json())).get("p"))
                    .isEqualTo(e.value());
        } else {
            assertThat(e.problem()).as(rule.toString()).isNotBlank();
            assertThat(e.value()).isNull();
            assertOneRefused(spec, e);
        }
    }

    /** Edge cases by name: each has a value, so each must get an example a call accepts. */
    @Test
    void edgeCasesAllGetAcceptedExamples() {
        List<String> edges = List.of(
                "{\"type\": \"int\", \"min\": 7, \"max\": 7}",
                "{\"type\": \"int\", \"min\": 9223372036854775807}",
                "{\"type\": \"int\", \"max\": -9223372036854775808}",
                "{\"type\": \"int\", \"min\": 0.5, \"max\": 1.5}",
                "{\"type\": \"float\", \"min\": -0.25, \"max\": -0.25}",
                "{\"type\": \"float\", \"max\": 1e-300}",
                "{\"type\": \"float\", \"min\": 1.7976931348623157e308}",
                "{\"type\": \"decimal\", \"min\": 12.345, \"max\": 12.345}",
                "{\"type\": \"decimal\", \"max\": -1000000}",
                "{\"type\": \"str\", \"max_length\": 1}",
                "{\"type\": \"str\", \"min_length\": 1, \"max_length\": 1}",
                "{\"type\": \"str\", \"min_length\": 0, \"max_length\": 0}",
                "{\"type\": \"str\", \"pattern\": \"[a-z]\", \"max_length\": 1}",
                "{\"type\": \"str\", \"pattern\": \"^[A-Z]{2}-\\\\d{3,5}$\"}",
                "{\"type\": \"str\", \"pattern\": \"(red|green|blue)(-(light|dark))?\", \"min_length\": 6}",
                "{\"type\": \"str\", \"pattern\": \"[^\\\\s,]+(,[^\\\\s,]+)*\", \"min_length\": 3}",
                "{\"type\": \"str\", \"pattern\": \"\\\\A[\\\\p{Alpha}&&[^aeiou]]+\\\\z\"}",
                "{\"type\": \"str\", \"pattern\": \"(?i)(?:ab)+?c{2,}\"}",
                "{\"type\": \"str\", \"pattern\": \"\\\\d+(\\\\.\\\\d{1,2})?\", \"min_length\": 4, \"max_length\": 4}",
                "{\"type\": \"str\", \"pattern\": \"(?=[a-z]*\\\\d)[a-z\\\\d]{4}\"}",
                "{\"type\": \"str\", \"pattern\": \"(?![0-9])\\\\w+\", \"max_length\": 1}",
                "{\"type\": \"str\", \"pattern\": \"[\\\\u00C0-\\\\u00FF]{2}\"}",
                "{\"type\": \"str\", \"pattern\": \"\\\\w+@\\\\w+\\\\.(com|org)\"}",
                "{\"type\": \"str\", \"pattern\": \"(?s).\\\\R.\"}",
                "{\"type\": \"str\", \"pattern\": \"[]a]+\", \"min_length\": 2}",
                "{\"type\": \"str\", \"enum\": [\"\", \"a\"]}",
                "{\"type\": \"str\", \"enum\": [\"cd\", \"ab\"], \"pattern\": \"[a-z]+\"}",
                "{\"type\": \"int\", \"enum\": [-3, 4], \"max\": 10}",
                "{\"type\": \"float\", \"enum\": [0.5, 1e-7]}",
                "{\"type\": \"decimal\", \"enum\": [\"3.14159\", 2]}",
                "{\"type\": \"bool\", \"enum\": [false]}",
                "{\"type\": \"date\", \"enum\": [\"1999-12-31\"]}",
                "{\"type\": \"timestamp\", \"enum\": [\"2024-02-29 23:59:59\"]}",
                "{\"type\": \"timestamp\", \"default\": \"2024-01-31T12:00:00Z\"}",
                "{\"type\": \"str\", \"default\": \"PG\", \"enum\": [\"G\", \"PG\"]}",
                "{\"type\": \"int\", \"default\": null, \"min\": 5}",
                "{\"type\": \"str\", \"default\": null, \"pattern\": \"[a-z]+\"}",
                "{\"type\": \"bool\", \"required\": false}");
        for (String edge : edges) {
            ParamRules rules;
            try {
                rules = ParamRules.parse(MAPPER.readTree("{\"p\": " + edge + "}"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            ParamExamples.Example e = ParamExamples.of(rules.specs().get("p"));
            assertThat(e.valid()).as(edge + ": " + e.problem()).isTrue();
            assertThat(rules.resolve(Map.of("p", e.text()), null).get("p")).as(edge).isEqualTo(e.value());
            assertThat(rules.resolve(Map.of(), MAPPER.createObjectNode().set("p", e.json())).get("p")).as(edge)
                    .isEqualTo(e.value());
        }
    }

    /** When there is no valid example, the closest one is refused by the rules (it is never silently valid). */
    private static void assertOneRefused(ParamSpec spec, ParamExamples.Example e) {
        try {
            ParamRules.of(spec).resolve(Map.of(spec.name(), e.text()), null);
            fail("%s: '%s' is accepted but reported invalid (%s)", spec, e.text(), e.problem());
        } catch (ApiException expected) {
            assertThat(expected.code()).isIn("param_invalid", "param_required");
        }
    }

    private static ParamRules parse(JsonNode declared) {
        try {
            return ParamRules.parse(declared);
        } catch (ApiException e) {
            throw new AssertionError("the generator made rules that are refused: " + declared + " " + e.errors(), e);
        }
    }

    // ---- rules around a witness --------------------------------------------------------------------------------

    private record Generated(ObjectNode rule, String kind, boolean approximate) {}

    private static Generated generate(Random r) {
        ObjectNode rule = MAPPER.createObjectNode();
        String kind;
        Object witness;
        boolean approximate = false;
        switch (r.nextInt(8)) {
            case 0 -> {
                kind = "int";
                long w = r.nextInt(10) > 0 ? r.nextInt(2001) - 1000
                        : r.nextBoolean() ? Long.MAX_VALUE - r.nextInt(3) : Long.MIN_VALUE + r.nextInt(3);
                witness = w;
                rule.put("type", "int");
                bounds(r, rule, new BigDecimal(w), true);
            }
            case 1 -> {
                kind = "float";
                double w = switch (r.nextInt(4)) {
                    case 0 -> r.nextGaussian() * 1000;
                    case 1 -> r.nextInt(100) / 8.0;
                    case 2 -> r.nextDouble() * 1e-200;
                    default -> -r.nextDouble();
                };
                witness = w;
                rule.put("type", "float");
                bounds(r, rule, BigDecimal.valueOf(w), false);
            }
            case 2 -> {
                kind = "decimal";
                BigDecimal w = BigDecimal.valueOf(r.nextInt(2_000_000) - 1_000_000, r.nextInt(5));
                witness = w;
                rule.put("type", "decimal");
                bounds(r, rule, w, false);
            }
            case 3 -> {
                kind = "bool";
                witness = r.nextBoolean();
                rule.put("type", "bool");
            }
            case 4 -> {
                kind = "date";
                witness = LocalDate.of(1900 + r.nextInt(300), 1 + r.nextInt(12), 1 + r.nextInt(28));
                rule.put("type", "date");
            }
            case 5 -> {
                kind = "timestamp";
                LocalDateTime t = LocalDateTime.of(1970 + r.nextInt(100), 1 + r.nextInt(12), 1 + r.nextInt(28),
                        r.nextInt(24), r.nextInt(60), r.nextInt(60));
                witness = r.nextBoolean() ? t : OffsetDateTime.of(t, ZoneOffset.ofHours(r.nextInt(25) - 12));
                rule.put("type", "timestamp");
            }
            case 6 -> {
                kind = "str";
                String w = "xyzAB 9-é".substring(0, r.nextInt(10));
                witness = w;
                rule.put("type", "str");
                lengths(r, rule, w);
            }
            default -> {
                Regex g = new Regex(r);
                kind = "str with pattern";
                witness = g.witness;
                approximate = g.approximate;
                rule.put("type", "str").put("pattern", g.pattern);
                lengths(r, rule, g.witness);
                g.features.stream().distinct().forEach(f -> Statistics.label("pattern feature").collect(f));
            }
        }
        int extra = r.nextInt(5);
        if (extra == 0) {
            List<JsonNode> list = new ArrayList<>(others(r, rule, witness));
            list.add(json(witness));
            Collections.shuffle(list, r);
            list.forEach(rule.putArray("enum")::add);
            kind += " + enum";
        }
        if (extra == 1) {
            rule.set("default", json(witness));
            kind += " + default";
        } else if (extra == 2) {
            rule.putNull("default");
            kind += " + null default";
        } else if (extra == 3) {
            rule.put("required", false);
        }
        return new Generated(rule, kind, approximate);
    }

    /** min and max around the witness: equal to it, either side, fractional for integers; sometimes none. */
    private static void bounds(Random r, ObjectNode rule, BigDecimal w, boolean integer) {
        int kinds = integer && w.abs().compareTo(new BigDecimal("1e15")) > 0 ? 2 : 4; // doubles lose the unit
        if (r.nextInt(3) > 0) {
            BigDecimal below = switch (r.nextInt(kinds)) {
                case 0 -> w;
                case 1 -> w.subtract(BigDecimal.valueOf(r.nextInt(50)));
                case 2 -> w.subtract(new BigDecimal("0.5"));
                default -> w.subtract(BigDecimal.valueOf(r.nextDouble()));
            };
            rule.set("min", number(below));
        }
        if (r.nextInt(3) > 0) {
            BigDecimal above = switch (r.nextInt(kinds)) {
                case 0 -> w;
                case 1 -> w.add(BigDecimal.valueOf(r.nextInt(50)));
                case 2 -> w.add(new BigDecimal("0.25"));
                default -> w.add(BigDecimal.valueOf(r.nextDouble()));
            };
            rule.set("max", number(above));
        }
    }

    /** A bound as JSON reads it back (a double unless it is whole): never past the witness by rounding. */
    private static JsonNode number(BigDecimal b) {
        try {
            return MAPPER.getNodeFactory().numberNode(b.longValueExact());
        } catch (ArithmeticException notALong) {
            return MAPPER.getNodeFactory().numberNode(b.doubleValue());
        }
    }

    private static void lengths(Random r, ObjectNode rule, String w) {
        int n = w.codePointCount(0, w.length());
        if (r.nextInt(3) == 0) {
            rule.put("min_length", r.nextBoolean() ? n : r.nextInt(n + 1));
        }
        if (r.nextInt(3) == 0) {
            rule.put("max_length", r.nextBoolean() ? n : n + r.nextInt(5));
        }
    }

    private static JsonNode json(Object v) {
        return switch (v) {
            case Long l -> MAPPER.getNodeFactory().numberNode(l);
            case Double d -> MAPPER.getNodeFactory().numberNode(d);
            case BigDecimal b -> MAPPER.getNodeFactory().textNode(b.toPlainString());
            case Boolean b -> MAPPER.getNodeFactory().booleanNode(b);
            default -> MAPPER.getNodeFactory().textNode(v.toString());
        };
    }

    /** Other enum values: candidates kept only when the rule without an enum accepts them. */
    private static List<JsonNode> others(Random r, ObjectNode rule, Object witness) {
        List<JsonNode> out = new ArrayList<>();
        ParamRules bare = parse(MAPPER.createObjectNode().set("p", rule.deepCopy()));
        for (int k = 0; k < r.nextInt(4); k++) {
            JsonNode candidate = switch (witness) {
                case Long l -> MAPPER.getNodeFactory().numberNode(l + r.nextInt(5) - 2);
                case Double d -> MAPPER.getNodeFactory().numberNode(d + r.nextInt(3) - 1);
                case BigDecimal b -> MAPPER.getNodeFactory().textNode(b.add(BigDecimal.ONE).toPlainString());
                case Boolean b -> MAPPER.getNodeFactory().booleanNode(!b);
                case LocalDate d -> MAPPER.getNodeFactory().textNode(d.plusDays(k + 1).toString());
                case String s -> MAPPER.getNodeFactory().textNode(s + "x".repeat(k));
                default -> MAPPER.getNodeFactory().textNode(witness.toString());
            };
            try {
                bare.resolve(Map.of(), MAPPER.createObjectNode().set("p", candidate));
                if (!out.contains(candidate) && !candidate.equals(json(witness))) {
                    out.add(candidate);
                }
            } catch (ApiException refused) {
                // not a value the rule accepts
            }
        }
        return out;
    }

    // ---- patterns with a witness -------------------------------------------------------------------------------

    /** A random pattern and a string it matches (checked with java.util.regex: the generator may retry). */
    private static final class Regex {
        private static final String[][] ATOMS = {
            {"a"}, {"Z"}, {"7"}, {"-"}, {"\\."}, {"@"}, {"é"}, {" "},
            {"[a-z]"}, {"[A-Z0-9]"}, {"[^a-z]"}, {"[abc]"}, {"[\\w&&[^\\d]]"}, {"[a-c[x-z]]"}, {"[\\p{Lu}]"},
            {"\\d"}, {"\\w"}, {"\\s"}, {"\\D"}, {"\\W"}, {"\\p{L}"}, {"\\p{Alpha}"}, {"."}, {"\\x41"},
            {"\\u00e9"}, {"\\t"}, {"\\Qa+b\\E"}, {"[.]"}, {"[-_]"}, {"\\h"}};
        private static final char[] POOL = "aZz7-.@é \tA_bBxX0;+~ä\u00a0".toCharArray();

        final Random r;
        final List<String> features = new ArrayList<>();
        String pattern;
        String witness;
        boolean approximate;
        private int groups;

        Regex(Random r) {
            this.r = r;
            for (int attempt = 0; ; attempt++) {
                features.clear();
                approximate = false;
                groups = 0;
                StringBuilder p = new StringBuilder();
                StringBuilder w = new StringBuilder();
                if (r.nextInt(6) == 0) {
                    p.append("(?i)");
                    features.add("flag");
                }
                boolean anchored = r.nextInt(4) == 0;
                if (anchored) {
                    p.append(r.nextBoolean() ? "^" : "\\A");
                    features.add("anchor");
                }
                if (r.nextInt(4) == 0) {
                    lookahead(p);
                }
                sequence(p, w, 0);
                if (anchored) {
                    p.append(r.nextBoolean() ? "$" : "\\z");
                }
                if (r.nextInt(6) == 0) {
                    p.append("\\b");
                    features.add("boundary");
                    approximate = true;
                }
                // matched as the server matches (BoundedMatch): a witness only a catastrophic backtrack finds is no witness
                if (p.length() <= 200 && w.length() <= 60 && BoundedMatch.matches(Pattern.compile(p.toString()),
                        w.toString())) {
                    pattern = p.toString();
                    witness = w.toString();
                    return;
                }
                if (attempt > 200) {
                    throw new AssertionError("no witness found for generated patterns, last " + p + " / " + w);
                }
            }
        }

        private void sequence(StringBuilder p, StringBuilder w, int depth) {
            int n = 1 + r.nextInt(4);
            for (int k = 0; k < n; k++) {
                element(p, w, depth);
            }
        }

        private void element(StringBuilder p, StringBuilder w, int depth) {
            StringBuilder ep = new StringBuilder();
            int choice = depth < 2 ? r.nextInt(10) : 0;
            List<Runnable> walks = new ArrayList<>();
            if (choice <= 5) {
                String atom = ATOMS[r.nextInt(ATOMS.length)][0];
                ep.append(atom);
                walks.add(() -> w.append(atom.startsWith("\\Q") ? "a+b" : String.valueOf(sampleOf(atom))));
            } else if (choice <= 7) {
                // a group: capturing, non-capturing or named, with alternation
                String open = switch (r.nextInt(3)) {
                    case 0 -> "(";
                    case 1 -> "(?:";
                    default -> "(?<g" + (groups + 1) + ">"; // unique within the pattern: Java refuses a name twice
                };
                if (!open.equals("(?:")) {
                    groups++;
                }
                features.add("group");
                int branches = 1 + r.nextInt(3);
                List<String> ps = new ArrayList<>();
                List<String> ws = new ArrayList<>();
                for (int b = 0; b < branches; b++) {
                    StringBuilder bp = new StringBuilder();
                    StringBuilder bw = new StringBuilder();
                    sequence(bp, bw, depth + 1);
                    ps.add(bp.toString());
                    ws.add(bw.toString());
                }
                if (branches > 1) {
                    features.add("alternation");
                }
                ep.append(open).append(String.join("|", ps)).append(')');
                String chosen = ws.get(r.nextInt(ws.size()));
                walks.add(() -> w.append(chosen));
                if (groups == 1 && !open.equals("(?:") && r.nextInt(3) == 0) {
                    // a back reference to this group, same text
                    ep.append("\\1");
                    walks.add(() -> w.append(chosen));
                    features.add("back reference");
                    approximate = true;
                }
            } else if (choice == 8) {
                ep.append("[0-9]{2}");
                walks.add(() -> w.append(sampleOf("[0-9]")).append(sampleOf("[0-9]")));
            } else {
                ep.append("(?=[a-z])[a-z]\\w?");
                walks.add(() -> w.append('q'));
                features.add("lookahead");
            }
            int min = 1;
            int max = 1;
            String q = "";
            switch (r.nextInt(8)) {
                case 0 -> { q = "*"; min = 0; max = 3; }
                case 1 -> { q = "+"; max = 3; }
                case 2 -> { q = "?"; min = 0; }
                case 3 -> { min = r.nextInt(3); max = min + r.nextInt(3); q = "{" + min + "," + max + "}"; }
                case 4 -> { min = 1 + r.nextInt(2); max = min; q = "{" + min + "}"; }
                case 5 -> { min = r.nextInt(2); max = min + 2; q = "{" + min + ",}"; }
                default -> { }
            }
            if (!q.isEmpty()) {
                features.add("quantifier");
                int roll = r.nextInt(10);
                if (roll == 0) {
                    q += "?";
                    features.add("lazy");
                } else if (roll == 1) {
                    q += "+";
                    features.add("possessive");
                    approximate = true;
                }
                p.append("(?:").append(ep).append(')').append(q);
            } else {
                p.append(ep);
            }
            int times = min + r.nextInt(max - min + 1);
            for (int t = 0; t < times; t++) {
                walks.forEach(Runnable::run);
            }
        }

        private void lookahead(StringBuilder p) {
            features.add("lookahead");
            switch (r.nextInt(3)) {
                case 0 -> p.append("(?=.)");
                case 1 -> p.append("(?!\\s)");
                default -> {
                    p.append("(?<!x)");
                    features.add("lookbehind");
                    approximate = true;
                }
            }
        }

        private char sampleOf(String atom) {
            Pattern one = Pattern.compile(atom);
            List<Character> fits = new ArrayList<>();
            for (char c : POOL) {
                if (one.matcher(String.valueOf(c)).matches()) {
                    fits.add(c);
                }
            }
            return fits.isEmpty() ? '?' : fits.get(r.nextInt(fits.size()));
        }
    }

    // ---- arbitrary rules ---------------------------------------------------------------------------------------

    private static ObjectNode arbitrary(Random r) {
        ObjectNode rule = MAPPER.createObjectNode();
        String[] types = {"int", "float", "decimal", "str", "bool", "date", "timestamp"};
        String type = types[r.nextInt(types.length)];
        rule.put("type", type);
        boolean number = type.equals("int") || type.equals("float") || type.equals("decimal");
        if (number && r.nextBoolean()) {
            rule.put("min", (r.nextInt(40) - 20) / (r.nextBoolean() ? 1.0 : 4.0));
        }
        if (number && r.nextBoolean()) {
            rule.put("max", (r.nextInt(40) - 20) / (r.nextBoolean() ? 1.0 : 4.0));
        }
        if (type.equals("str")) {
            if (r.nextBoolean()) {
                rule.put("min_length", r.nextInt(6));
            }
            if (r.nextBoolean()) {
                rule.put("max_length", r.nextInt(6));
            }
            if (r.nextBoolean()) {
                String[] patterns = {"[a-z]{3}", "a*+a", "(\\w)\\1{2}", "(?<=a)b", "\\bx\\B", "[0-9]+|none",
                    "\\p{Lu}{2,4}", "(?!abc)...", "x{2}{3}", "\\x{1F600}", "(a|b){1,8}c", ".*\\d.*"};
                rule.put("pattern", patterns[r.nextInt(patterns.length)]);
            }
        }
        if (r.nextInt(4) == 0) {
            ArrayNode values = rule.putArray("enum");
            for (int k = 0; k <= r.nextInt(3); k++) {
                switch (type) {
                    case "int" -> values.add(r.nextInt(20) - 10);
                    case "float", "decimal" -> values.add((r.nextInt(40) - 20) / 4.0);
                    case "bool" -> values.add(r.nextBoolean());
                    case "date" -> values.add("2024-01-0" + (1 + r.nextInt(9)));
                    case "timestamp" -> values.add("2024-01-01T0" + r.nextInt(10) + ":00:00");
                    default -> values.add("abc".substring(0, r.nextInt(4)));
                }
            }
        }
        if (r.nextInt(4) == 0) {
            rule.putNull("default");
        }
        return rule;
    }
}
