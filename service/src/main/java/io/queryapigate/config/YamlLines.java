package io.queryapigate.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The line of every key of a YAML (or JSON) document, by its path ({@code connections.shop.poolSize},
 * {@code seedQueries[0].name}), and the keys written twice in one block (which a parser otherwise resolves silently,
 * the last one winning).
 */
public final class YamlLines {
    private final Map<String, Integer> lines;
    private final List<ConfigProblem> duplicates;

    private YamlLines(Map<String, Integer> lines, List<ConfigProblem> duplicates) {
        this.lines = lines;
        this.duplicates = duplicates;
    }

    /** Reads {@code text} once, token by token. */
    public static YamlLines read(JsonFactory factory, String text) throws IOException {
        Map<String, Integer> lines = new HashMap<>();
        List<ConfigProblem> duplicates = new ArrayList<>();
        Deque<Frame> stack = new ArrayDeque<>();
        try (JsonParser parser = factory.createParser(text)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                int line = parser.currentTokenLocation().getLineNr();
                Frame top = stack.peek();
                if (token == JsonToken.FIELD_NAME) {
                    String key = join(top.path, parser.currentName());
                    if (!top.names.add(parser.currentName())) {
                        duplicates.add(new ConfigProblem(key, line, "is written twice in this block (line "
                                + lines.get(key) + " and here); remove one"));
                    }
                    // the last one is the one read
                    lines.put(key, line);
                    top.pending = key;
                    continue;
                }
                String here = "";
                if (top != null) {
                    if (top.array) {
                        here = top.path + "[" + top.index++ + "]";
                        lines.putIfAbsent(here, line);
                    } else {
                        here = top.pending;
                    }
                }
                if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                    stack.push(new Frame(here, token == JsonToken.START_ARRAY));
                } else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                    stack.pop();
                }
            }
        }
        return new YamlLines(lines, duplicates);
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /**
     * The line of {@code key}, or of the nearest enclosing block written in the file (a missing key's parent); 0 when
     * none is.
     */
    public int line(String key) {
        String at = key;
        while (!at.isEmpty()) {
            Integer line = lines.get(at);
            if (line != null) {
                return line;
            }
            int cut = Math.max(at.lastIndexOf('.'), at.lastIndexOf('['));
            at = cut < 0 ? "" : at.substring(0, cut);
        }
        return 0;
    }

    /** Whether {@code key} itself is written in the file. */
    public boolean has(String key) {
        return lines.containsKey(key);
    }

    /** The keys written twice in one block. */
    public List<ConfigProblem> duplicates() {
        return duplicates;
    }

    private static final class Frame {
        final String path;
        final boolean array;
        final Set<String> names = new HashSet<>();
        int index;
        String pending = "";

        Frame(String path, boolean array) {
            this.path = path;
            this.array = array;
        }
    }
}
