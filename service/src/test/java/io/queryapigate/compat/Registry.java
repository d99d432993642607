package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The known differences ({@code compat/differences.yaml}): each one deliberate, and written as a row of a table in
 * {@code docs/migrating-from-python.md}. An entry names the cases it covers and the fields (globs over the
 * {@link Differ.Difference#field()} names), and the doc's heading and the exact text of the row's first cell.
 */
final class Registry {
    record Entry(String id, List<Pattern> cases, List<Pattern> fields, String heading, String row) {}

    private final List<Entry> entries;
    private final Set<String> used = new HashSet<>();

    private Registry(List<Entry> entries) {
        this.entries = entries;
    }

    static Registry load(String resource) {
        JsonNode root;
        try (InputStream in = Registry.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + resource);
            }
            root = new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (JsonNode e : root.path("differences")) {
            String id = e.path("id").asText();
            if (id.isEmpty() || !ids.add(id)) {
                throw new IllegalArgumentException("a difference without an id, or a duplicate one: " + e);
            }
            List<Pattern> cases = new ArrayList<>();
            e.path("cases").forEach(c -> cases.add(Pointers.glob(c.asText())));
            List<Pattern> fields = new ArrayList<>();
            e.path("fields").forEach(f -> fields.add(Pointers.glob(f.asText())));
            String heading = e.path("doc").path("heading").asText();
            String row = e.path("doc").path("row").asText();
            if (cases.isEmpty() || fields.isEmpty() || heading.isEmpty() || row.isEmpty()) {
                throw new IllegalArgumentException(id + ": needs cases, fields, doc.heading and doc.row");
            }
            entries.add(new Entry(id, List.copyOf(cases), List.copyOf(fields), heading, row));
        }
        return new Registry(List.copyOf(entries));
    }

    List<Entry> entries() {
        return entries;
    }

    /** The entry that documents this difference, or null; a match marks the entry as used. */
    Entry match(Differ.Difference d) {
        for (Entry e : entries) {
            if (e.cases().stream().anyMatch(p -> p.matcher(d.caseId()).matches())
                    && e.fields().stream().anyMatch(p -> p.matcher(d.field()).matches())) {
                used.add(e.id());
                return e;
            }
        }
        return null;
    }

    /** Entries that matched no difference in this run. */
    List<Entry> stale() {
        return entries.stream().filter(e -> !used.contains(e.id())).toList();
    }

    /** Entries whose heading, or whose row under that heading, the migration doc does not have. */
    List<String> missingFromDoc(Path doc) {
        Map<String, Set<String>> rows = tableRows(doc);
        List<String> problems = new ArrayList<>();
        for (Entry e : entries) {
            Set<String> section = rows.get(e.heading());
            if (section == null) {
                problems.add(e.id() + ": no heading '" + e.heading() + "' in " + doc.getFileName());
            } else if (!section.contains(e.row())) {
                problems.add(e.id() + ": no row '" + e.row() + "' under '" + e.heading() + "' in "
                        + doc.getFileName());
            }
        }
        return problems;
    }

    /** Each heading's table rows, by the text of their first cell (header and separator rows left out). */
    static Map<String, Set<String>> tableRows(Path doc) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        String heading = null;
        List<String> lines;
        try {
            lines = Files.readAllLines(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines) {
            if (line.startsWith("#")) {
                heading = line.replaceFirst("^#+\\s*", "").trim();
                out.putIfAbsent(heading, new LinkedHashSet<>());
            } else if (heading != null && line.startsWith("|") && !line.matches("\\|[\\s|:-]*\\|\\s*")) {
                String[] cells = line.split("(?<!\\\\)\\|");
                String first = cells.length > 1 ? cells[1].trim() : "";
                if (!first.isEmpty()) {
                    out.get(heading).add(first);
                }
            }
        }
        return out;
    }
}
