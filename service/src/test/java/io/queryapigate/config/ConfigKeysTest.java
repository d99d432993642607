package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import io.queryapigate.GatewayConfiguration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every key of {@link GatewayConfiguration}, found by walking Jackson's type model of it (the gateway's own blocks to
 * their leaves; Dropwizard's {@code server}, {@code logging}, {@code metrics}, ... as blocks), given a value of the
 * wrong type: reading the file must report exactly that key, on its line, and nothing that the same file without the
 * key does not report. Each outcome is counted and the table printed (docs/RELIABILITY.md, "The configuration").
 */
class ConfigKeysTest {
    private static final String WRONG_SCALAR = "{wrong: 1}";
    private static final String WRONG_BLOCK = "not-a-block";

    private static final TestingConfigFactory factory = new TestingConfigFactory();
    private static final String base = TestingConfigFactory.home();

    @BeforeAll
    static void theBaseHasNoProblems() {
        assertThat(factory.problems(base)).isEmpty();
    }

    /** One key of the configuration: its path segments ({@code "[0]"} for a list's first element) and its type. */
    record Key(List<String> path, JavaType type, boolean block) {
        String name() {
            return String.join(".", path).replace(".[", "[");
        }
    }

    static List<Key> keys() {
        ObjectMapper mapper = Jackson.newObjectMapper();
        List<Key> keys = new ArrayList<>();
        walk(mapper, mapper.constructType(GatewayConfiguration.class), List.of(), keys, new HashSet<>());
        return keys;
    }

    private static void walk(ObjectMapper mapper, JavaType type, List<String> path, List<Key> keys,
            Set<Class<?>> seen) {
        if (!seen.add(type.getRawClass())) {
            return;
        }
        for (BeanPropertyDefinition p : mapper.getDeserializationConfig().introspect(type).findProperties()) {
            if (!p.hasSetter() && !p.hasField() && !p.hasConstructorParameter()) {
                continue;
            }
            if (p.hasField() && !p.hasSetter() && !p.hasConstructorParameter()
                    && !p.getField().hasAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class)) {
                continue;
            }
            JavaType t = p.getPrimaryType();
            List<String> at = new ArrayList<>(path);
            at.add(p.getName());
            if (ours(t)) {
                keys.add(new Key(at, t, true));
                walk(mapper, t, at, keys, seen);
            } else if (t.isCollectionLikeType() && ours(t.getContentType())) {
                keys.add(new Key(at, t, true));
                List<String> element = new ArrayList<>(at);
                element.add("[0]");
                walk(mapper, t.getContentType(), element, keys, seen);
            } else if (t.isMapLikeType() && ours(t.getContentType())) {
                keys.add(new Key(at, t, true));
                List<String> entry = new ArrayList<>(at);
                entry.add("x");
                walk(mapper, t.getContentType(), entry, keys, seen);
            } else {
                keys.add(new Key(at, t, !scalar(t.getRawClass())));
            }
        }
        seen.remove(type.getRawClass());
    }

    private static boolean ours(JavaType t) {
        return t.getRawClass().getName().startsWith("io.queryapigate.") && !t.isEnumType()
                && !t.isCollectionLikeType() && !t.isMapLikeType();
    }

    private static boolean scalar(Class<?> c) {
        return c.isPrimitive() || Number.class.isAssignableFrom(c) || c == Boolean.class || c == String.class
                || c == Duration.class || c == DataSize.class || c.isEnum() || c == java.time.Duration.class;
    }

    /** Block YAML setting {@code path} to {@code value} (raw YAML), with the line the last key is on (1-based). */
    static String yaml(List<String> path, String value) {
        StringBuilder out = new StringBuilder();
        int indent = 0;
        String dash = "";
        for (int i = 0; i < path.size(); i++) {
            String segment = path.get(i);
            boolean last = i == path.size() - 1;
            if (segment.startsWith("[")) {
                if (last) {
                    out.append(" ".repeat(indent)).append("- ").append(value).append('\n');
                } else {
                    dash = "- ";
                }
                continue;
            }
            out.append(" ".repeat(indent)).append(dash).append(segment).append(':');
            int column = indent + dash.length();
            dash = "";
            if (last) {
                out.append(' ').append(value).append('\n');
            } else {
                out.append('\n');
                indent = column + 2;
            }
        }
        return out.toString();
    }

    private static List<String> parent(List<String> path) {
        return path.subList(0, path.size() - 1);
    }

    /** What reading a file with a wrong value at one key came to. */
    enum Outcome {
        NAMED_ON_ITS_LINE, NAMED_ELSEWHERE, OTHER_KEY, ACCEPTED
    }

    record Case(String key, String value, Outcome outcome, String message) {}

    static Case run(Key key) {
        String wrong = key.block() ? WRONG_BLOCK : WRONG_SCALAR;
        String yaml = yaml(key.path(), wrong);
        // the base's one line is its home, which this case then sets itself
        String base = key.name().equals("home") ? "" : ConfigKeysTest.base;
        int line = (int) (base.lines().count() + yaml.lines().count());
        String control = key.path().size() == 1 ? "" : yaml(parent(key.path()), "{}");
        List<ConfigProblem> found = factory.problems(base + yaml);
        Set<String> expected = factory.problems(base + control).stream().map(p -> p.key() + ": " + p.message())
                .collect(Collectors.toSet());
        List<ConfigProblem> added = found.stream().filter(p -> !expected.contains(p.key() + ": " + p.message()))
                .toList();
        if (added.isEmpty()) {
            return new Case(key.name(), wrong, Outcome.ACCEPTED, "");
        }
        ConfigProblem first = added.get(0);
        if (added.size() > 1 || !first.key().equals(key.name())) {
            return new Case(key.name(), wrong, Outcome.OTHER_KEY, added.toString());
        }
        return new Case(key.name(), wrong, first.line() == line ? Outcome.NAMED_ON_ITS_LINE : Outcome.NAMED_ELSEWHERE,
                first.describe("config.yml"));
    }

    @Test
    void everyKeyWithAWrongTypedValueIsNamedOnItsLine() {
        List<Key> keys = keys();
        assertThat(keys).hasSizeGreaterThan(100);
        Map<Outcome, List<Case>> byOutcome = new TreeMap<>();
        for (Key key : keys) {
            Case c = run(key);
            byOutcome.computeIfAbsent(c.outcome(), o -> new ArrayList<>()).add(c);
        }
        StringBuilder table = new StringBuilder("\n| outcome | keys | examples |\n|---|---|---|\n");
        byOutcome.forEach((outcome, cases) -> table.append("| ").append(outcome).append(" | ").append(cases.size())
                .append(" | ").append(cases.stream().limit(3).map(c -> c.key() + " = " + c.value() + " -> "
                        + c.message()).collect(Collectors.joining("; "))).append(" |\n"));
        long blocks = keys.stream().filter(Key::block).count();
        table.append("| total | ").append(keys.size()).append(" | ").append(keys.size() - blocks)
                .append(" values given a block, ").append(blocks).append(" blocks and lists given a word |\n");
        System.out.println(table);
        List<Case> failed = byOutcome.entrySet().stream().filter(e -> e.getKey() != Outcome.NAMED_ON_ITS_LINE)
                .flatMap(e -> e.getValue().stream()).toList();
        assertThat(failed).as(failed.stream().map(Case::toString).collect(Collectors.joining("\n"))).isEmpty();
    }
}
