package io.queryapigate.compat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The run's outcome: per case, its documented and undocumented differences; a summary table and REPORT.md. */
final class Report {
    /** One case's outcome. */
    record Outcome(Corpus.Step step, List<Differ.Difference> documented, List<Differ.Difference> undocumented) {
        boolean equal() {
            return documented.isEmpty() && undocumented.isEmpty();
        }
    }

    /** A difference seen in at least this many cases is listed once, in its own section. */
    private static final int COMMON = 8;

    private final List<Outcome> outcomes = new ArrayList<>();
    private final List<String> setupFailures = new ArrayList<>();
    private final int setupSteps;
    private final String versions;

    Report(int setupSteps, String versions) {
        this.setupSteps = setupSteps;
        this.versions = versions;
    }

    void add(Outcome o) {
        outcomes.add(o);
    }

    void setupFailed(String what) {
        setupFailures.add(what);
    }

    List<String> setupFailures() {
        return setupFailures;
    }

    List<Differ.Difference> undocumented() {
        return outcomes.stream().flatMap(o -> o.undocumented().stream()).toList();
    }

    /** Per area: cases, equal, with documented differences only, with undocumented ones; and the total. */
    String summary() {
        Map<String, int[]> byArea = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            int[] n = byArea.computeIfAbsent(o.step().area(), a -> new int[4]);
            count(n, o);
        }
        int[] total = new int[4];
        outcomes.forEach(o -> count(total, o));
        StringBuilder s = new StringBuilder();
        s.append("Differential suite against the Python original (").append(versions).append("): ")
                .append(outcomes.size()).append(" cases, ").append(setupSteps).append(" setup steps\n\n");
        s.append("| area | cases | equal | documented differences | undocumented differences |\n");
        s.append("|---|---:|---:|---:|---:|\n");
        byArea.forEach((area, n) -> row(s, area, n));
        row(s, "**total**", total);
        if (!setupFailures.isEmpty()) {
            s.append("\nsetup failures:\n");
            setupFailures.forEach(f -> s.append("- ").append(f).append('\n'));
        }
        return s.toString();
    }

    private static void count(int[] n, Outcome o) {
        n[0]++;
        if (o.equal()) {
            n[1]++;
        } else if (o.undocumented().isEmpty()) {
            n[2]++;
        } else {
            n[3]++;
        }
    }

    private static void row(StringBuilder s, String area, int[] n) {
        s.append("| ").append(area).append(" | ").append(n[0]).append(" | ").append(n[1]).append(" | ")
                .append(n[2]).append(" | ").append(n[3]).append(" |\n");
    }

    /**
     * REPORT.md: the summary; the differences seen in many cases (each once, with how many cases and which areas);
     * then by area every case with other differences, each difference on its own line.
     */
    String markdown() {
        StringBuilder s = new StringBuilder("# Differences between the Python original and the JVM gateway\n\n");
        s.append("Written by `DifferentialIT` (docs/testing.md, \"The differential suite\"). One line per field of one ")
                .append("case: `field`: Python original → JVM (×n: at n places of the answer, first one shown). ")
                .append("Documented differences (entries of `differences.yaml`) are marked as such.\n\n");
        s.append(summary()).append('\n');
        Map<String, List<Outcome>> common = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            o.undocumented().stream().filter(d -> d.field().startsWith("header:") || d.field().startsWith("body:"))
                    .map(Report::key).distinct()
                    .forEach(sig -> common.computeIfAbsent(sig, k -> new ArrayList<>()).add(o));
        }
        common.values().removeIf(cases -> cases.size() < COMMON);
        if (!common.isEmpty()) {
            s.append("## Seen in ").append(COMMON).append(" cases or more\n\n");
            s.append("Header and body differences listed once here, left out of the cases below.\n\n");
            common.forEach((sig, cases) -> s.append("- ").append(sig).append(" — ").append(cases.size())
                    .append(" cases (").append(String.join(", ", cases.stream().map(o -> o.step().area())
                            .distinct().toList())).append(")\n"));
            s.append('\n');
        }
        String area = null;
        for (Outcome o : outcomes) {
            List<Differ.Difference> own = o.undocumented().stream()
                    .filter(d -> !common.containsKey(key(d))).toList();
            if (own.isEmpty() && o.documented().isEmpty()) {
                continue;
            }
            if (!o.step().area().equals(area)) {
                area = o.step().area();
                s.append("\n## ").append(area).append("\n\n");
            }
            s.append("- `").append(o.step().id()).append("` `").append(o.step().request()).append("` (key ")
                    .append(o.step().key()).append(")\n");
            own.forEach(d -> s.append("  - ").append(signature(d)).append('\n'));
            o.documented().forEach(d -> s.append("  - ").append(signature(d)).append(" (documented)\n"));
        }
        return s.toString();
    }

    /** A difference as a report line: field and both values, without its case, nor how often it occurs. */
    private static String key(Differ.Difference d) {
        return "`" + d.field() + "`: " + code(d.python()) + " → " + code(d.jvm());
    }

    private static String signature(Differ.Difference d) {
        return key(d) + (d.count() > 1 ? " (×" + d.count() + ")" : "");
    }

    private static String code(String v) {
        return v.isEmpty() ? "" : "`" + v.replace("`", "'") + "`";
    }
}
