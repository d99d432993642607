package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * JSON pointers (RFC 6901) with {@code *} for any one segment, as the corpus and the registry write them
 * ({@code /items/*}{@code /name}), and globs over ids and difference fields.
 */
final class Pointers {
    private Pointers() {}

    /** One segment of a pointer, escaped. */
    static String segment(String s) {
        return s.replace("~", "~0").replace("/", "~1");
    }

    /** Every node the pattern selects in {@code root}, by its concrete pointer (the root itself for ""). */
    static Map<String, JsonNode> select(JsonNode root, String pattern) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (root == null) {
            return out;
        }
        List<String> segments = segments(pattern);
        walk(root, "", segments, 0, out);
        return out;
    }

    private static void walk(JsonNode n, String at, List<String> segments, int i, Map<String, JsonNode> out) {
        if (i == segments.size()) {
            out.put(at, n);
            return;
        }
        String s = segments.get(i);
        if (s.equals("*")) {
            if (n.isArray()) {
                for (int k = 0; k < n.size(); k++) {
                    walk(n.get(k), at + "/" + k, segments, i + 1, out);
                }
            } else if (n.isObject()) {
                for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                    String f = it.next();
                    walk(n.get(f), at + "/" + segment(f), segments, i + 1, out);
                }
            }
            return;
        }
        JsonNode child = n.isArray() && s.chars().allMatch(Character::isDigit) ? n.get(Integer.parseInt(s)) : n.get(s);
        if (child != null) {
            walk(child, at + "/" + segment(s), segments, i + 1, out);
        }
    }

    /** The unescaped segments of a pointer ("" has none). */
    static List<String> segments(String pointer) {
        List<String> out = new ArrayList<>();
        if (pointer.isEmpty()) {
            return out;
        }
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("a JSON pointer starts with '/': " + pointer);
        }
        for (String s : pointer.substring(1).split("/", -1)) {
            out.add(s.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    /** A glob: {@code *} matches any run of characters but '/', {@code **} any run at all. */
    static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                    re.append(".*");
                    i++;
                } else {
                    re.append("[^/]*");
                }
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }
}
