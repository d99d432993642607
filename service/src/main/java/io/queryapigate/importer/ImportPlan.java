package io.queryapigate.importer;

import io.queryapigate.auth.Grants;
import io.queryapigate.importer.PythonStore.Contents;
import io.queryapigate.importer.PythonStore.PyKey;
import io.queryapigate.importer.PythonStore.PyRun;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an import does, decided before anything is written: per saved query and key an {@link Action} with why, what
 * changes on the way (notes) and what the operator should know (warnings); the runs to add; the connections
 * fragment. Printed for the operator, then checked: conflicts and blocked items stop the import unless waived.
 */
final class ImportPlan {
    /** What happens to one saved query or key. */
    enum Action {
        /** Written here. */
        CREATE,
        /** Already here with the same content. */
        UNCHANGED,
        /** Left out: its name (or secret) is taken here by other content, and {@code --on-conflict} says skip. */
        SKIP,
        /** Its name (or secret) is taken here by other content: the import stops. */
        CONFLICT,
        /** It cannot work here (the reason says why): the import stops unless {@code --skip-invalid}. */
        BLOCKED
    }

    /**
     * One version of a saved query as it will be stored here: {@code parameters} our rules' JSON, {@code tags} a JSON
     * array and {@code details} a JSON object (or null), {@code uuid} the original's.
     */
    record VersionDef(int version, String sql, String parameters, String connection, String description,
            String author, int cacheTtl, long createdAt, String uuid, String tags, String details) {}

    /** A saved query: {@code source} is its name in the original, {@code name} its name here. */
    record QueryItem(String source, String name, Action action, String reason, String collection,
            List<VersionDef> versions, Integer published, List<String> notes) {

        boolean here() {
            return action == Action.CREATE || action == Action.UNCHANGED;
        }
    }

    /**
     * An API key: the original's key, and its grants here; {@code previousUntil} (epoch milliseconds) when the secret
     * it had before a rotation still works, until then.
     */
    record KeyItem(String source, String name, Action action, String reason, PyKey key, Grants grants,
            Long previousUntil, List<String> warnings) {}

    private final Contents source;
    private final ConnectionsYaml connections;
    private final List<QueryItem> queries;
    private final List<KeyItem> keys;
    private final List<PyRun> runs;

    ImportPlan(Contents source, ConnectionsYaml connections, List<QueryItem> queries, List<KeyItem> keys,
            List<PyRun> runs) {
        this.source = source;
        this.connections = connections;
        this.queries = List.copyOf(queries);
        this.keys = List.copyOf(keys);
        this.runs = List.copyOf(runs);
    }

    List<QueryItem> queries() {
        return queries;
    }

    List<KeyItem> keys() {
        return keys;
    }

    List<PyRun> runs() {
        return runs;
    }

    ConnectionsYaml connections() {
        return connections;
    }

    /** True when writing it would change nothing: everything is here already, or left out. */
    boolean writesNothing() {
        return queries.stream().noneMatch(q -> q.action() == Action.CREATE)
                && keys.stream().noneMatch(k -> k.action() == Action.CREATE) && runs.isEmpty();
    }

    void print(PrintStream out, PythonImporter.Options o, int historyPerVersion) {
        out.println("Importing from the Python original: " + source.description() + " (store schema "
                + source.schema() + "), workspace '" + o.workspace() + "'" + (o.dryRun() ? " (dry run)" : ""));
        out.println();
        out.println("Saved queries (" + queries.size() + "):");
        for (QueryItem q : queries) {
            String detail = q.reason() != null ? q.reason()
                    : q.versions().size() + (q.versions().size() == 1 ? " version" : " versions") + ", "
                            + (q.published() == null ? "not published" : "publishes version " + q.published())
                            + ", connection " + q.versions().get(q.versions().size() - 1).connection();
            line(out, q.action(), q.name() + (q.name().equals(q.source()) ? "" : " ('" + q.source() + "')"), detail);
            q.notes().forEach(n -> out.println("               - " + n));
        }
        out.println();
        out.println("API keys (" + keys.size() + "):");
        for (KeyItem k : keys) {
            String detail = k.reason() != null ? k.reason() : describe(k);
            line(out, k.action(), k.name() + (k.name().equals(k.source()) ? "" : " ('" + k.source() + "')"), detail);
            k.warnings().forEach(w -> out.println("               ! " + w));
        }
        out.println();
        if (o.withHistory()) {
            out.println("Run history: " + runs.size() + " runs to import (the newest " + historyPerVersion
                    + " per version, events.historyPerVersion; runs already here are left out)");
        } else {
            out.println("Run history: not imported (--with-history imports it)");
        }
        out.println();
        if (o.connectionsOut() != null) {
            out.println("Connections: written to " + o.connectionsOut() + "; review it and add it to this"
                    + " gateway's configuration.");
        } else {
            out.println("Connections, to review and add to this gateway's configuration:");
            out.print(connections.text());
        }
        if (!connections.variables().isEmpty()) {
            out.println("Set before starting: " + String.join(", ", connections.variables().stream()
                    .map(ConnectionsYaml.Variable::name).toList()));
        }
        connections.notes().forEach(n -> out.println("  - " + n));
        out.println();
        out.println("Not imported: roles (keys already hold what they were made from), administrators and admin"
                + " tokens (the administrator key here is auth.adminKey), ad-hoc runs, the audit log, events,"
                + " usage counters, exports and destinations.");
        if (!source.otherWorkspaces().isEmpty()) {
            List<String> others = new ArrayList<>();
            source.otherWorkspaces().forEach((name, n) -> others.add(name + " (" + n + " connections, queries and"
                    + " keys)"));
            out.println("Other workspaces, not imported (--workspace NAME imports one): " + String.join(", ", others));
        }
        out.println();
    }

    private static void line(PrintStream out, Action action, String name, String detail) {
        out.printf("  %-11s  %s: %s%n", action.name().toLowerCase(Locale.ROOT), name, detail);
    }

    private static String describe(KeyItem k) {
        Grants g = k.grants();
        List<String> parts = new ArrayList<>();
        if (!g.connections().isEmpty()) {
            parts.add("connections " + g.connections() + " with ad-hoc SQL");
        }
        if (!g.queries().isEmpty()) {
            parts.add("queries " + g.queries());
        }
        if (parts.isEmpty()) {
            parts.add("no reach");
        }
        if (g.allowWrites()) {
            parts.add("writes" + (g.allowedWriteOps() == null ? "" : " " + g.allowedWriteOps()));
        }
        if (g.allowedTables() != null) {
            parts.add("tables " + g.allowedTables());
        }
        if (!g.mask().isEmpty()) {
            parts.add(g.mask().size() + " mask rules");
        }
        if (g.allowedIps() != null) {
            parts.add("from " + g.allowedIps());
        }
        if (g.rateLimit() != null) {
            parts.add("rate " + g.rateLimit());
        }
        if (g.quota() != null) {
            parts.add("quota " + (g.quota().calls() == null ? "" : g.quota().calls() + " calls")
                    + (g.quota().calls() != null && g.quota().rows() != null ? " and " : "")
                    + (g.quota().rows() == null ? "" : g.quota().rows() + " rows") + " per " + g.quota().per());
        }
        if (g.maxRows() != null) {
            parts.add("max_rows " + g.maxRows());
        }
        if (g.maxConcurrent() != null) {
            parts.add("max_concurrent " + g.maxConcurrent());
        }
        if (g.queryTimeout() != null) {
            parts.add("query_timeout " + g.queryTimeout().toPlainString() + " s");
        }
        if (k.key().expiresAt() != null) {
            parts.add("expires " + k.key().expiresAt());
        }
        if (!k.key().active()) {
            parts.add("revoked");
        }
        if (k.previousUntil() != null) {
            parts.add("its previous secret works until " + java.time.Instant.ofEpochMilli(k.previousUntil()));
        }
        return String.join(", ", parts);
    }

    /**
     * @throws ImportException naming the conflicts, or the blocked items unless {@code skipInvalid}
     */
    void checkCanProceed(boolean skipInvalid) {
        List<String> conflicts = new ArrayList<>();
        List<String> blocked = new ArrayList<>();
        queries.forEach(q -> collect(q.action(), "query '" + q.source() + "'", conflicts, blocked));
        keys.forEach(k -> collect(k.action(), "key '" + k.source() + "'", conflicts, blocked));
        if (!conflicts.isEmpty()) {
            throw new ImportException("Stopped: " + String.join(", ", conflicts) + (conflicts.size() == 1 ? " exists"
                    : " exist") + " here with other content. Nothing was written. --on-conflict skip leaves them as"
                    + " they are here; --on-conflict rename imports them under new names (name-py).");
        }
        if (!blocked.isEmpty() && !skipInvalid) {
            throw new ImportException("Stopped: " + String.join(", ", blocked) + " cannot be imported (see"
                    + " 'blocked' above). Nothing was written. Fix them, or import the rest with --skip-invalid.");
        }
    }

    private static void collect(Action a, String what, List<String> conflicts, List<String> blocked) {
        if (a == Action.CONFLICT) {
            conflicts.add(what);
        } else if (a == Action.BLOCKED) {
            blocked.add(what);
        }
    }
}
