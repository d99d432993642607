package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Compares the two normalised answers to one case. When the statuses differ only the status and the error code are
 * reported (the bodies are different kinds of answer); otherwise the code, each compared header and the body, JSON
 * value by value (one difference per JSON pointer), text by its first differing line.
 */
final class Differ {
    /** At most this many differences are kept per case; the rest are counted in one last entry. */
    static final int LIMIT = 400;
    /** Pointer segments that name one place of many: an array index, an item aligned by its name. */
    private static final Pattern GENERAL = Pattern.compile("/(?:\\d+|name=[^/]*)(?=/|$| )");

    /**
     * One difference: the case, the field ({@code status}, {@code code}, {@code header:<name>}, {@code body} or
     * {@code body:<JSON pointer>}) and what each gateway answered there ({@code (absent)} when it has nothing).
     * The same difference at several places of one answer (every row, every item) is one difference: the
     * pointer's array indexes and item names become {@code *}, the values shown are the first place's, and
     * {@code count} says how many places there are.
     */
    record Difference(String caseId, String area, String field, String python, String jvm, int count) {}

    private final Corpus.Step step;
    private final List<Difference> out = new ArrayList<>();
    private int dropped;

    private Differ(Corpus.Step step) {
        this.step = step;
    }

    static List<Difference> compare(Corpus.Step step, Normaliser.View py, Normaliser.View jvm) {
        Differ d = new Differ(step);
        d.views(py, jvm);
        Map<String, Difference> folded = new LinkedHashMap<>();
        for (Difference x : d.out) {
            String field = GENERAL.matcher(x.field()).replaceAll("/*");
            folded.merge(field, x, (a, b) -> new Difference(a.caseId(), a.area(), field, a.python(), a.jvm(),
                    a.count() + 1));
        }
        List<Difference> out = new ArrayList<>(folded.values());
        if (d.dropped > 0) {
            out.add(new Difference(step.id(), step.area(), "body", "(" + d.dropped + " more differences)", "", 1));
        }
        return out;
    }

    private void views(Normaliser.View py, Normaliser.View jvm) {
        if (py.status() != jvm.status()) {
            add("status", String.valueOf(py.status()), String.valueOf(jvm.status()));
            if (!Objects.equals(py.code(), jvm.code())) {
                add("code", show(py.code()), show(jvm.code()));
            }
            return;
        }
        if (!Objects.equals(py.code(), jvm.code())) {
            add("code", show(py.code()), show(jvm.code()));
        }
        Set<String> headers = new LinkedHashSet<>(py.headers().keySet());
        headers.addAll(jvm.headers().keySet());
        for (String h : Normaliser.HEADERS) {
            if (headers.contains(h) && !Objects.equals(py.headers().get(h), jvm.headers().get(h))) {
                add("header:" + h, show(py.headers().get(h)), show(jvm.headers().get(h)));
            }
        }
        if (py.kind() != jvm.kind()) {
            add("body", py.kind() + ": " + abbreviate(bodyText(py)), jvm.kind() + ": " + abbreviate(bodyText(jvm)));
        } else if (py.kind() == Normaliser.Kind.TEXT) {
            text(py.text(), jvm.text());
        } else if (py.kind() == Normaliser.Kind.JSON) {
            boolean rows = py.status() < 400
                    && (step.path().startsWith("/q/") || step.path().startsWith("/execute_sql"));
            if (step.only().isEmpty()) {
                json("", py.json(), jvm.json(), rows);
            } else {
                for (String p : step.only()) {
                    Set<String> at = new LinkedHashSet<>(Pointers.select(py.json(), p).keySet());
                    at.addAll(Pointers.select(jvm.json(), p).keySet());
                    if (at.isEmpty()) {
                        add("body:" + p, "(absent)", "(absent)");
                    }
                    for (String one : at) {
                        json(one, at(py.json(), one), at(jvm.json(), one), rows);
                    }
                }
            }
        }
    }

    private static JsonNode at(JsonNode root, String pointer) {
        JsonNode n = root.at(pointer);
        return n.isMissingNode() ? null : n;
    }

    private void json(String at, JsonNode py, JsonNode jvm, boolean rows) {
        if (py == null || jvm == null) {
            if (py != jvm) {
                add("body:" + at, py == null ? "(absent)" : abbreviate(py.toString()),
                        jvm == null ? "(absent)" : abbreviate(jvm.toString()));
            }
            return;
        }
        if (at.equals("/code") && py.isTextual() && jvm.isTextual()) {
            return; // compared as the error code
        }
        if (py.isObject() && jvm.isObject()) {
            List<String> common = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = py.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String child = at + "/" + Pointers.segment(e.getKey());
                if (jvm.has(e.getKey())) {
                    common.add(e.getKey());
                    json(child, e.getValue(), jvm.get(e.getKey()), rows);
                } else {
                    add("body:" + child, abbreviate(e.getValue().toString()), "(absent)");
                }
            }
            List<String> jvmOrder = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = jvm.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (py.has(e.getKey())) {
                    jvmOrder.add(e.getKey());
                } else {
                    add("body:" + at + "/" + Pointers.segment(e.getKey()), "(absent)",
                            abbreviate(e.getValue().toString()));
                }
            }
            if (rows && at.matches("/\\d+") && !common.equals(jvmOrder)) {
                add("body:" + at + " (column order)", String.join(",", common), String.join(",", jvmOrder));
            }
            return;
        }
        if (py.isArray() && jvm.isArray()) {
            Map<String, JsonNode> pyNamed = named(py);
            Map<String, JsonNode> jvmNamed = named(jvm);
            if (pyNamed != null && jvmNamed != null) {
                List<String> onlyPy = new ArrayList<>();
                for (Map.Entry<String, JsonNode> e : pyNamed.entrySet()) {
                    if (jvmNamed.containsKey(e.getKey())) {
                        json(at + "/name=" + Pointers.segment(e.getKey()), e.getValue(), jvmNamed.get(e.getKey()),
                                rows);
                    } else {
                        onlyPy.add(e.getKey());
                    }
                }
                List<String> onlyJvm = jvmNamed.keySet().stream().filter(n -> !pyNamed.containsKey(n)).toList();
                if (!onlyPy.isEmpty() || !onlyJvm.isEmpty()) {
                    add("body:" + at + " (names)", onlyPy.isEmpty() ? "(none)" : abbreviate(String.join(", ", onlyPy)),
                            onlyJvm.isEmpty() ? "(none)" : abbreviate(String.join(", ", onlyJvm)));
                }
                List<String> pyOrder = new ArrayList<>(pyNamed.keySet());
                pyOrder.retainAll(jvmNamed.keySet());
                List<String> jvmOrder = new ArrayList<>(jvmNamed.keySet());
                jvmOrder.retainAll(pyNamed.keySet());
                if (!pyOrder.equals(jvmOrder) && !step.unordered().contains(at)) {
                    add("body:" + at + " (order)", abbreviate(String.join(",", pyOrder)),
                            abbreviate(String.join(",", jvmOrder)));
                }
                return;
            }
            if (py.size() != jvm.size()) {
                add("body:" + at + " (length)", String.valueOf(py.size()), String.valueOf(jvm.size()));
            }
            for (int i = 0; i < Math.min(py.size(), jvm.size()); i++) {
                json(at + "/" + i, py.get(i), jvm.get(i), rows);
            }
            return;
        }
        if (!same(py, jvm)) {
            add("body:" + at, abbreviate(py.toString()), abbreviate(jvm.toString()));
        }
    }

    /**
     * The items of an array of objects that each have a distinct text {@code name} (keys, queries, collections),
     * by name, in order; null for any other array. Such items are compared by name, not by position.
     */
    private static Map<String, JsonNode> named(JsonNode array) {
        if (array.isEmpty()) {
            return null;
        }
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode item : array) {
            JsonNode name = item.get("name");
            if (name == null || !name.isTextual() || out.put(name.asText(), item) != null) {
                return null;
            }
        }
        return out;
    }

    /** Equal values of the same JSON kind: {@code 1} and {@code 1.0}, {@code 1.1} and {@code 1.10} differ. */
    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.isIntegralNumber() == b.isIntegralNumber() && a.decimalValue().equals(b.decimalValue());
        }
        return a.equals(b);
    }

    private void text(String py, String jvm) {
        if (py.equals(jvm)) {
            return;
        }
        String[] a = py.split("\n", -1);
        String[] b = jvm.split("\n", -1);
        int i = 0;
        while (i < a.length && i < b.length && a[i].equals(b[i])) {
            i++;
        }
        add("body", "line " + (i + 1) + ": " + abbreviate(i < a.length ? a[i] : "(end)"),
                "line " + (i + 1) + ": " + abbreviate(i < b.length ? b[i] : "(end)"));
    }

    private void add(String field, String py, String jvm) {
        if (out.size() >= LIMIT) {
            dropped++;
            return;
        }
        out.add(new Difference(step.id(), step.area(), field, py, jvm, 1));
    }

    private static String bodyText(Normaliser.View v) {
        return v.kind() == Normaliser.Kind.JSON ? v.json().toString() : v.kind() == Normaliser.Kind.TEXT ? v.text()
                : "";
    }

    private static String show(String s) {
        return s == null ? "(absent)" : s;
    }

    static String abbreviate(String s) {
        String one = s.replace("\n", "\\n");
        return one.length() > 160 ? one.substring(0, 157) + "..." : one;
    }
}
