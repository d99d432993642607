package io.queryapigate.configcode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What applying a configuration directory changes: per object, created, changed (field by field) or deleted; what it
 * declares that already matches; what the store holds that it does not declare (left alone). As JSON for the API,
 * as text for a reviewer ({@link #render}).
 *
 * @param changes the objects to create, change and delete, in the order an apply makes them
 * @param unchanged the declared objects the store already matches
 * @param notInDirectory the store's objects the directory does not declare, left alone
 */
public record Plan(List<Change> changes, List<Ref> unchanged, List<Ref> notInDirectory) {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One object to create, change or delete. */
    public record Change(String kind, String name, String file, String action, Map<String, FieldChange> fields,
            List<String> notes) {}

    /** A field's value before and after; null for absent (its default). */
    public record FieldChange(JsonNode from, JsonNode to) {}

    /** An object by kind and name, with its file (or the file a directory applied earlier declared it in), or null. */
    public record Ref(String kind, String name, String file) {}

    /** How many changes take {@code action} ({@code create}, {@code update}, {@code delete}). */
    public long count(String action) {
        return changes.stream().filter(c -> c.action().equals(action)).count();
    }

    /** The plan in the API's shape. */
    public ObjectNode toJson() {
        ObjectNode out = JSON.objectNode();
        ArrayNode list = out.putArray("changes");
        for (Change c : changes) {
            ObjectNode o = list.addObject();
            o.put("kind", c.kind());
            o.put("name", c.name());
            o.put("file", c.file());
            o.put("action", c.action());
            ObjectNode fields = o.putObject("fields");
            c.fields().forEach((field, change) -> {
                ObjectNode f = fields.putObject(field);
                f.set("from", change.from() == null ? JSON.nullNode() : change.from());
                f.set("to", change.to() == null ? JSON.nullNode() : change.to());
            });
            ArrayNode notes = o.putArray("notes");
            c.notes().forEach(notes::add);
        }
        refs(out.putArray("unchanged"), unchanged);
        refs(out.putArray("not_in_directory"), notInDirectory);
        ObjectNode summary = out.putObject("summary");
        summary.put("create", count("create"));
        summary.put("update", count("update"));
        summary.put("delete", count("delete"));
        summary.put("unchanged", unchanged.size());
        return out;
    }

    private static void refs(ArrayNode into, List<Ref> refs) {
        for (Ref r : refs) {
            ObjectNode o = into.addObject();
            o.put("kind", r.kind());
            o.put("name", r.name());
            o.put("file", r.file());
        }
    }

    /**
     * The plan as a reviewer reads it: {@code +} created, {@code ~} changed, {@code -} deleted, each field's old
     * and new value, SQL and other long text as a unified diff.
     */
    public String render() {
        List<String> lines = new ArrayList<>();
        for (Change c : changes) {
            String mark = switch (c.action()) {
                case "create" -> "+";
                case "delete" -> "-";
                default -> "~";
            };
            lines.add(mark + " " + c.kind() + "[" + c.name() + "]" + (c.file() == null ? "" : "  " + c.file()));
            c.notes().forEach(n -> lines.add("    (" + n + ")"));
            c.fields().forEach((field, change) -> field(lines, c.action(), field, change));
        }
        if (!unchanged.isEmpty()) {
            lines.add("");
            lines.add("Unchanged: " + String.join(", ", unchanged.stream()
                    .map(r -> r.kind() + "[" + r.name() + "]").toList()));
        }
        if (!notInDirectory.isEmpty()) {
            lines.add("");
            lines.add("On the server but not in the directory - applying leaves them alone:");
            notInDirectory.forEach(r -> lines.add("    " + r.kind() + "[" + r.name() + "]"
                    + (r.file() == null ? "" : "  (owned by " + r.file() + " since an earlier apply: --prune deletes it)")));
        }
        if (!lines.isEmpty()) {
            lines.add("");
        }
        lines.add(changes.isEmpty() ? "No changes: the server matches the directory."
                : count("create") + " to create, " + count("update") + " to change, " + count("delete")
                        + " to delete, " + unchanged.size() + " unchanged.");
        return String.join("\n", lines) + "\n";
    }

    private static void field(List<String> lines, String action, String field, FieldChange change) {
        if (action.equals("delete")) {
            return;
        }
        JsonNode from = change.from();
        JsonNode to = change.to();
        if (action.equals("create")) {
            if (isLong(to)) {
                lines.add("    " + field + ":");
                for (String l : to.textValue().split("\n", -1)) {
                    lines.add("      " + l);
                }
            } else {
                lines.add("    " + field + ": " + shown(to));
            }
        } else if (isLong(from) || isLong(to)) {
            lines.add("    " + field + ":");
            LineDiff.unified(from == null ? "" : from.asText(), to == null ? "" : to.asText())
                    .forEach(l -> lines.add("      " + l));
        } else {
            lines.add("    " + field + ": " + shown(from) + " -> " + shown(to));
        }
    }

    private static boolean isLong(JsonNode v) {
        return v != null && v.isTextual() && (v.textValue().contains("\n") || v.textValue().length() > 100);
    }

    private static String shown(JsonNode v) {
        return v == null || v.isNull() ? "(none)" : v.toString();
    }
}
