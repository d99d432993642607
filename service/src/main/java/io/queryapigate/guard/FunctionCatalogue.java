package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One engine's built-in functions, each with what it may reach, as generated from the engine's own catalogue and
 * reviewed ({@code scripts/function-catalogues/}, {@code docs/function-catalogues.md}). Loaded once per family from
 * {@code functions/<family>.tsv} next to this class: {@code name<TAB>class[<TAB>note]}, names lower case.
 *
 * <p>The generic family, whose server is unknown, allows a name only when every engine's catalogue allows it, and
 * classifies any other known name by the most severe class any engine gives it.
 */
final class FunctionCatalogue {

    /** What a function may reach, most severe first. */
    enum Reach {
        /** Runs SQL given as text, or reads a table, query or dictionary named by a string. */
        SQL_TEXT,
        /** Files, directories, the network, URLs, external systems, the environment. */
        FILE,
        /** Signals or administers other sessions or the server. */
        ADMIN,
        /** Leaves state in the session that outlives the statement (settings, variables, seeds, locks). */
        SESSION,
        /** Changes persistent data or server state. */
        WRITE,
        /** Takes or resolves a database object's name, or reads another object than its arguments. */
        OBJECT_NAME,
        /** Reads server, session, activity or configuration state beyond the statement's tables. */
        SERVER_STATE,
        /** Not meant to be called from SQL (type I/O, handlers, support functions). */
        INTERNAL,
        /** Computes only from its arguments. */
        ALLOWED;

        static Reach parse(String text) {
            return Reach.valueOf(text.strip().toUpperCase(Locale.ROOT));
        }

        Reach severer(Reach other) {
            return other == null || ordinal() < other.ordinal() ? this : other;
        }
    }

    private static final Map<SqlDialectFamily, FunctionCatalogue> BY_FAMILY = new EnumMap<>(SqlDialectFamily.class);

    static {
        for (SqlDialectFamily f : SqlDialectFamily.values()) {
            if (f != SqlDialectFamily.GENERIC) {
                BY_FAMILY.put(f, load(f));
            }
        }
        BY_FAMILY.put(SqlDialectFamily.GENERIC, generic(BY_FAMILY));
    }

    private final String source;
    private final Map<String, Reach> reach;

    private FunctionCatalogue(String source, Map<String, Reach> reach) {
        this.source = source;
        this.reach = reach;
    }

    static FunctionCatalogue of(SqlDialectFamily family) {
        return BY_FAMILY.get(family == null ? SqlDialectFamily.GENERIC : family);
    }

    /** The reach of a function (lower-case unqualified name), or null when the catalogue does not know it. */
    Reach reach(String name) {
        return reach.get(name);
    }

    /** True when the function is known and computes only from its arguments. */
    boolean allowed(String name) {
        return reach.get(name) == Reach.ALLOWED;
    }

    int size() {
        return reach.size();
    }

    /** Where the catalogue came from (the resource, or "intersection" for the generic family). */
    String source() {
        return source;
    }

    static String resource(SqlDialectFamily family) {
        return "functions/" + family.name().toLowerCase(Locale.ROOT) + ".tsv";
    }

    private static FunctionCatalogue load(SqlDialectFamily family) {
        String name = resource(family);
        Map<String, Reach> out = new HashMap<>();
        try (InputStream in = FunctionCatalogue.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the function catalogue " + name + " is missing from the class path");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] p = line.split("\t", 3);
                if (p.length < 2) {
                    throw new IllegalStateException(name + ":" + n + ": expected name<TAB>class");
                }
                String fn = p[0].strip().toLowerCase(Locale.ROOT);
                Reach reach;
                try {
                    reach = Reach.parse(p[1]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(name + ":" + n + ": unknown class '" + p[1] + "'", e);
                }
                out.merge(fn, reach, Reach::severer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the function catalogue " + name, e);
        }
        return new FunctionCatalogue(name, Map.copyOf(out));
    }

    private static FunctionCatalogue generic(Map<SqlDialectFamily, FunctionCatalogue> engines) {
        Map<String, Reach> out = new HashMap<>();
        for (FunctionCatalogue c : engines.values()) {
            c.reach.forEach((fn, r) -> out.merge(fn, r, Reach::severer));
        }
        // allowed only where every engine knows the name and allows it
        out.replaceAll((fn, r) -> {
            if (r != Reach.ALLOWED) {
                return r;
            }
            for (FunctionCatalogue c : engines.values()) {
                if (!c.allowed(fn)) {
                    return Reach.INTERNAL;
                }
            }
            return r;
        });
        return new FunctionCatalogue("intersection", Map.copyOf(out));
    }
}
