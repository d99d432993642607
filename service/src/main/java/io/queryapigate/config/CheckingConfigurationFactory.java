package io.queryapigate.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationFactoryFactory;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dropwizard's YAML configuration factory, reporting every problem of a file at once, each with its key's full path
 * and line: malformed YAML, keys written twice, unknown keys (with the nearest known one), values of the wrong type
 * (one at a time from Jackson: each failing node is reported, taken out of the tree, and the file bound again, up to
 * {@link #MAX_PROBLEMS}), bean-validation violations, and {@code checks}: the configuration's own rules, as
 * {@code "key: message"} lines. Any problem throws a {@link ConfigProblemsException}, which the command line prints
 * without a stack trace.
 *
 * @param <T> the configuration class
 */
public final class CheckingConfigurationFactory<T> extends YamlConfigurationFactory<T> {
    /** Stops binding again after this many problems (a file that is not this configuration at all). */
    public static final int MAX_PROBLEMS = 200;

    private static final Pattern LEADING_KEY = Pattern.compile("^([A-Za-z_][\\w.\\-\\[\\]]*): (.*)$", Pattern.DOTALL);
    private static final Pattern KNOWN_TYPE_IDS = Pattern.compile("known type ids = \\[([^\\]]*)\\]");

    private final Class<T> klass;
    private final Validator validator;
    private final Function<T, List<String>> checks;

    public CheckingConfigurationFactory(Class<T> klass, Validator validator, ObjectMapper mapper,
            String propertyPrefix, Function<T, List<String>> checks) {
        super(klass, validator, mapper, propertyPrefix);
        this.klass = klass;
        this.validator = validator;
        this.checks = checks;
    }

    /** The factory of factories to give Dropwizard's bootstrap. */
    public static <C> ConfigurationFactoryFactory<C> factories(Function<C, List<String>> checks) {
        // as Dropwizard's own factory: a key this configuration does not have is a mistake
        return (klass, validator, mapper, prefix) -> new CheckingConfigurationFactory<>(klass, validator,
                mapper.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), prefix, checks);
    }

    @Override
    public T build(ConfigurationSourceProvider provider, String path) throws IOException, ConfigurationException {
        String text;
        try (InputStream input = provider.open(path)) {
            text = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        }
        return build(text, path);
    }

    /** Reads {@code text}, the file {@code path} (named in the messages). */
    public T build(String text, String path) throws IOException, ConfigurationException {
        YAMLFactory yaml = new YAMLFactory();
        JsonNode node;
        YamlLines lines;
        try {
            node = mapper.readTree(yaml.createParser(text));
            lines = YamlLines.read(yaml, text);
        } catch (JsonParseException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new ConfigProblemsException(path, List.of(new ConfigProblem("", line,
                    "not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse(""))));
        }
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new ConfigProblemsException(path, List.of(new ConfigProblem("", 0, "is empty")));
        }
        for (Map.Entry<Object, Object> property : System.getProperties().entrySet()) {
            String name = String.valueOf(property.getKey());
            if (name.startsWith("dw.")) {
                addOverride(node, name.substring(3), String.valueOf(property.getValue()));
            }
        }
        Problems problems = new Problems(lines);
        problems.all.addAll(lines.duplicates());
        T config = bind(node, problems);
        if (config != null) {
            if (validator != null) {
                for (ConstraintViolation<T> v : validator.validate(config)) {
                    String key = key(v.getPropertyPath());
                    problems.add(key, lines.has(key) ? v.getMessage() : "is missing (" + v.getMessage() + ")");
                }
            }
            for (String line : checks.apply(config)) {
                Matcher m = LEADING_KEY.matcher(line);
                if (m.matches()) {
                    problems.add(m.group(1), m.group(2));
                } else {
                    problems.add("", line);
                }
            }
        }
        if (!problems.all.isEmpty()) {
            List<ConfigProblem> sorted = new ArrayList<>(problems.all);
            sorted.sort(Comparator.comparingInt(p -> p.line() == 0 ? Integer.MAX_VALUE : p.line()));
            throw new ConfigProblemsException(path, sorted);
        }
        return config;
    }

    private T bind(JsonNode root, Problems problems) throws IOException {
        for (int round = 0; round < MAX_PROBLEMS; round++) {
            try {
                return mapper.readValue(new TreeTraversingParser(root, mapper), klass);
            } catch (JsonMappingException e) {
                List<JsonMappingException.Reference> refs = e.getPath();
                String key = key(refs);
                if (e instanceof InvalidTypeIdException && at(root, refs) instanceof ObjectNode o && o.has("type")) {
                    problems.add(key + ".type", describe(e, root, refs));
                } else {
                    problems.add(key, describe(e, root, refs));
                }
                if (refs.isEmpty() || !remove(root, refs)) {
                    return null;
                }
                problems.removed.add(key);
            }
        }
        return null;
    }

    /** Whether the binding took out {@code key} or a block around it (its consequences are not reported again). */
    private static boolean under(Collection<String> removed, String key) {
        for (String r : removed) {
            if (key.equals(r) || key.startsWith(r + ".") || key.startsWith(r + "[")) {
                return true;
            }
        }
        return false;
    }

    private static String key(List<JsonMappingException.Reference> refs) {
        StringBuilder key = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                key.append(key.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                key.append('[').append(r.getIndex()).append(']');
            }
        }
        return key.toString();
    }

    private static String key(Path path) {
        StringBuilder key = new StringBuilder();
        for (Path.Node n : path) {
            if (n.isInIterable()) {
                if (n.getIndex() != null) {
                    key.append('[').append(n.getIndex()).append(']');
                } else if (n.getKey() != null) {
                    key.append(key.isEmpty() ? "" : ".").append(n.getKey());
                }
            }
            String name = n.getName();
            if (name != null && !name.startsWith("<")) {
                key.append(key.isEmpty() ? "" : ".").append(name);
            }
        }
        return key.toString();
    }

    private static JsonNode at(JsonNode root, List<JsonMappingException.Reference> refs) {
        JsonNode node = root;
        for (JsonMappingException.Reference r : refs) {
            if (node == null) {
                return null;
            }
            node = r.getFieldName() != null ? node.get(r.getFieldName()) : node.get(r.getIndex());
        }
        return node;
    }

    private static boolean remove(JsonNode root, List<JsonMappingException.Reference> refs) {
        JsonNode parent = at(root, refs.subList(0, refs.size() - 1));
        JsonMappingException.Reference last = refs.get(refs.size() - 1);
        if (parent instanceof ObjectNode o && last.getFieldName() != null && o.has(last.getFieldName())) {
            o.remove(last.getFieldName());
            return true;
        }
        if (parent instanceof ArrayNode a && last.getFieldName() == null && last.getIndex() >= 0
                && last.getIndex() < a.size()) {
            a.remove(last.getIndex());
            return true;
        }
        return false;
    }

    private static String describe(JsonMappingException e, JsonNode root, List<JsonMappingException.Reference> refs) {
        if (e instanceof UnrecognizedPropertyException u) {
            List<String> known = u.getKnownPropertyIds() == null ? List.of()
                    : u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            String nearest = nearest(u.getPropertyName(), known);
            if (nearest != null) {
                return "unknown key (did you mean " + nearest + "?)";
            }
            return known.isEmpty() ? "unknown key" : "unknown key (known here: " + String.join(", ", known) + ")";
        }
        if (e instanceof InvalidTypeIdException t) {
            Matcher m = KNOWN_TYPE_IDS.matcher(e.getOriginalMessage());
            return "unknown type '" + t.getTypeId() + "'" + (m.find() ? " (known: " + m.group(1) + ")" : "");
        }
        JsonNode value = at(root, refs);
        Class<?> target = e instanceof MismatchedInputException mi ? mi.getTargetType()
                : e instanceof ValueInstantiationException vi ? vi.getType().getRawClass() : null;
        if (target != null && value != null) {
            String cause = e.getCause() != null && e.getCause().getMessage() != null
                    && !(e.getCause() instanceof JsonMappingException) ? " (" + e.getCause().getMessage() + ")" : "";
            return shown(value) + ": expected " + expected(target) + cause;
        }
        Throwable cause = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause() : e;
        String message = cause instanceof JsonMappingException j ? j.getOriginalMessage() : cause.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    private static String shown(JsonNode value) {
        if (value.isObject()) {
            return "got a block of keys";
        }
        if (value.isArray()) {
            return "got a list";
        }
        if (value.isNull()) {
            return "got nothing (null)";
        }
        String text = value.asText();
        return "'" + (text.length() > 60 ? text.substring(0, 57) + "..." : text) + "'";
    }

    static String expected(Class<?> type) {
        if (type == int.class || type == long.class || type == short.class || type == Integer.class
                || type == Long.class || type == Short.class || type == java.math.BigInteger.class) {
            return "a whole number";
        }
        if (type == double.class || type == float.class || type == Double.class || type == Float.class
                || type == java.math.BigDecimal.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class || type == char.class || type == Character.class) {
            return "a text value";
        }
        if (type == Duration.class || type == java.time.Duration.class) {
            return "a duration such as 500ms, 30s or 5m";
        }
        if (type == DataSize.class) {
            return "a size such as 64KiB or 10MiB";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> c.toString().toLowerCase(Locale.ROOT))
                    .toList();
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "a block of named entries";
        }
        return "a block of keys";
    }

    /** The known key closest to {@code name} (case first, then at most a third of its letters changed), or null. */
    static String nearest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = k.equalsIgnoreCase(name) ? 0 : distance(name.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= Math.max(2, name.length() / 3) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    /** The problems found so far: the first one of each key. */
    private static final class Problems {
        final YamlLines lines;
        final List<ConfigProblem> all = new ArrayList<>();
        final Set<String> removed = new HashSet<>();
        final Set<String> keys = new HashSet<>();

        Problems(YamlLines lines) {
            this.lines = lines;
        }

        void add(String key, String message) {
            if (under(removed, key) || !keys.add(key)) {
                return;
            }
            all.add(new ConfigProblem(key, lines.line(key), message));
        }
    }
}
