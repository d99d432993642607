package io.queryapigate.descriptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.TableName;
import io.queryapigate.http.ServerTime;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.store.DescriptionDao;
import io.queryapigate.store.DescriptionRow;
import io.queryapigate.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;

/**
 * What a connection's tables and columns mean, for the people and agents that query them, as the Python original
 * keeps them: one description per table, per column, and the connection's own notes; written by people
 * ({@code written}) or imported from the database's own comments on request ({@code database}), an import never
 * replacing a written one unless asked to. Names are kept lower case and matched without regard to case; a table in
 * the connection's default schema is kept without its schema, as a bare name in a grant means it.
 */
public final class Descriptions {
    /** The longest description of a table or a column. */
    public static final int MAX_DESCRIPTION = 2000;
    /** The longest notes of a connection. */
    public static final int MAX_NOTES = 20_000;
    /** The longest schema, table or column name. */
    public static final int MAX_NAME = 128;
    /** The most items one request may change. */
    public static final int MAX_ITEMS = 2000;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> ITEM_FIELDS = Set.of("schema", "table", "column", "description");

    /** Who wrote a description. */
    public enum Source {
        /** A person, through the API (or a configuration file). */
        WRITTEN("written"),
        /** The database's own comment, imported. */
        DATABASE("database");

        private final String word;

        Source(String word) {
            this.word = word;
        }

        /** As stored and shown. */
        public String word() {
            return word;
        }
    }

    /**
     * One description to set, or to remove ({@code text} null); names lower case, {@code schema} empty for the
     * connection's default schema, {@code table} empty for the connection's notes, {@code column} empty for the
     * table's own.
     */
    public record Item(String schema, String table, String column, String text) {}

    private final Jdbi jdbi;
    private final ConnectionRegistry connections;
    private final Clock clock;
    private final ManagedObjects managed;

    private final AuditLog audit;

    public Descriptions(Store store, ConnectionRegistry connections, Clock clock, AuditLog audit) {
        this.audit = audit;
        this.jdbi = store.jdbi();
        this.managed = new ManagedObjects(store.managed());
        this.connections = connections;
        this.clock = clock;
    }

    /**
     * A request's {@code items} as the original reads them: {@code {"table", "column", "description"}} (and, here,
     * an optional {@code "schema"}); {@code table} null is the connection's notes, {@code column} null the table's
     * own description, a null or blank {@code description} removes one. 400 {@code invalid_body} otherwise.
     */
    public List<Item> parse(String connection, JsonNode items) {
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw invalid("items must be a non-empty list of {\"table\", \"column\", \"description\"}");
        }
        if (items.size() > MAX_ITEMS) {
            throw invalid("At most " + MAX_ITEMS + " descriptions in one request");
        }
        String defaultSchema = defaultSchema(require(connection));
        List<Item> out = new ArrayList<>();
        Set<List<String>> seen = new HashSet<>();
        for (JsonNode item : items) {
            if (!item.isObject() || !item.has("description") || !fieldsWithin(item)) {
                throw invalid("Each item is {\"table\": ..., \"column\": ..., \"description\": ...} (and an optional"
                        + " \"schema\"): nothing else");
            }
            String schema = name(item.get("schema"), "schema");
            String table = name(item.get("table"), "table");
            String column = name(item.get("column"), "column");
            if (!column.isEmpty() && table.isEmpty()) {
                throw invalid("A column description needs its table");
            }
            if (!schema.isEmpty() && table.isEmpty()) {
                throw invalid("A schema needs a table: the connection's notes have none");
            }
            schema = schema.equals(defaultSchema) ? "" : schema;
            JsonNode d = item.get("description");
            if (!d.isNull() && !d.isTextual()) {
                throw invalid("description must be text, or null to remove it");
            }
            String text = d.isNull() || d.textValue().isBlank() ? null : d.textValue().strip();
            int limit = table.isEmpty() ? MAX_NOTES : MAX_DESCRIPTION;
            if (text != null && text.length() > limit) {
                throw invalid("A description may be at most " + limit + " characters");
            }
            if (!seen.add(List.of(schema, table, column))) {
                throw invalid(label(schema, table, column) + " is listed twice");
            }
            out.add(new Item(schema, table, column, text));
        }
        return out;
    }

    /** Every description of a connection, its notes first, then by schema, table and column. */
    public ArrayNode list(String connection) {
        require(connection);
        ArrayNode out = JSON.arrayNode();
        for (DescriptionRow r : dao().list(connection)) {
            ObjectNode o = out.addObject();
            o.put("schema", r.schemaName().isEmpty() ? null : r.schemaName());
            o.put("table", r.tableName().isEmpty() ? null : r.tableName());
            o.put("column", r.columnName().isEmpty() ? null : r.columnName());
            o.put("description", r.description());
            o.put("source", r.source());
            o.put("updated_at", ServerTime.format(r.updatedAt()));
            o.put("updated_by", r.updatedBy());
        }
        return out;
    }

    /**
     * Sets or removes descriptions in one transaction. With {@code overwrite} false (an import), a written
     * description is kept. A connection whose descriptions a configuration-as-code directory owns changes only
     * through an apply (409 {@code managed_by_file}).
     *
     * @return how many changed
     */
    public int write(String connection, List<Item> items, String actor, Source source, boolean overwrite) {
        require(connection);
        managed.check(ManagedObjects.DESCRIPTIONS, connection);
        long now = clock.millis();
        return jdbi.inTransaction(h -> {
            DescriptionDao dao = h.attach(DescriptionDao.class);
            Map<List<String>, DescriptionRow> existing = new HashMap<>();
            for (DescriptionRow r : dao.list(connection)) {
                existing.put(List.of(r.schemaName(), r.tableName(), r.columnName()), r);
            }
            int changed = 0;
            Map<String, Object> audited = new java.util.TreeMap<>();
            for (Item i : items) {
                DescriptionRow before = existing.get(List.of(i.schema(), i.table(), i.column()));
                String label = (blank(i.schema()) ? "" : i.schema() + ".") + (blank(i.table()) ? "(connection)"
                        : i.table()) + (blank(i.column()) ? "" : "." + i.column());
                String was = before == null ? null : before.description();
                if (!java.util.Objects.equals(was, i.text())) {
                    Map<String, Object> change = new java.util.LinkedHashMap<>();
                    change.put("from", was);
                    change.put("to", i.text());
                    audited.put(label, change);
                }
                DescriptionRow row = new DescriptionRow(connection, i.schema(), i.table(), i.column(), i.text(),
                        source.word(), now, actor);
                if (before != null && !overwrite && before.source().equals(Source.WRITTEN.word())) {
                    continue;
                }
                if (i.text() == null) {
                    changed += before == null ? 0 : dao.delete(row);
                } else if (before == null) {
                    dao.insert(row);
                    changed++;
                } else if (!before.description().equals(i.text()) || !before.source().equals(source.word())) {
                    changed += dao.update(row);
                }
            }
            if (changed > 0) {
                Map<String, Object> changes = new java.util.TreeMap<>();
                changes.put("descriptions", audited);
                if (source == Source.DATABASE) {
                    changes.put("overwrite", overwrite);
                }
                audit.append(source == Source.DATABASE ? "import_descriptions" : "update_descriptions", connection,
                        changes);
            }
            return changed;
        });
    }

    /**
     * The database's own table and column comments, read from its catalogue now, as descriptions with source
     * {@code database}; a written one is kept unless {@code overwrite}, a comment since removed from the database is
     * left as it was. 400 {@code unsupported_operation} when the connection's dialect cannot describe its catalogue.
     *
     * @return {@code found} (comments), {@code imported} (descriptions changed), {@code kept} (the rest), and every
     *     description now ({@code items})
     */
    public ObjectNode importComments(String connection, boolean overwrite, String actor) {
        Connection c = require(connection);
        Optional<List<SchemaTable>> catalogue = c.dialect().describeNamespace(Optional.empty(), c.timeout());
        if (catalogue.isEmpty()) {
            throw new ApiException(400, "unsupported_operation", "Importing comments isn't supported for '"
                    + c.dialectName() + "' connections: write the descriptions instead");
        }
        String defaultSchema = defaultSchema(c);
        Map<List<String>, String> found = new TreeMap<>((a, b) -> String.join("\u0000", a)
                .compareTo(String.join("\u0000", b)));
        for (SchemaTable t : catalogue.get()) {
            String folded = fold(t.namespace().schema());
            String schema = folded.equals(defaultSchema) ? "" : folded;
            String table = fold(t.name());
            comment(t.comment()).ifPresent(text -> found.put(List.of(schema, table, ""), text));
            for (SchemaColumn col : t.columns()) {
                comment(col.comment()).ifPresent(text -> found.put(List.of(schema, table, fold(col.name())), text));
            }
        }
        List<Item> items = new ArrayList<>();
        found.forEach((k, text) -> items.add(new Item(k.get(0), k.get(1), k.get(2), text)));
        int imported = write(connection, items, actor, Source.DATABASE, overwrite);
        ObjectNode out = JSON.objectNode();
        out.put("found", items.size());
        out.put("imported", imported);
        out.put("kept", items.size() - imported);
        out.set("items", list(connection));
        return out;
    }

    /**
     * Forgets every description of a connection: for the connection's deletion for good (not a soft delete, which
     * can be undone). Needs no connection of that name to exist.
     *
     * @return how many there were
     */
    public int forget(String connection) {
        return dao().deleteAll(connection);
    }

    /**
     * What a saved query version's result columns mean: each as its author described it ({@code columns}, as saved),
     * else as the connection describes the column of that name in the tables the statement reads, when exactly one
     * description is found; the author's descriptions of other names follow.
     *
     * @param tablesRead the tables the statement reads, as the SQL guard resolved them; empty when not known
     * @param resultColumns the result columns' names in order; empty when not known
     * @param authorColumns the version's {@code columns}: name to text
     */
    public ObjectNode forVersion(String connection, Set<TableName> tablesRead, List<String> resultColumns,
            JsonNode authorColumns) {
        ObjectNode out = JSON.objectNode();
        boolean known = !tablesRead.isEmpty() && connections.visible(connection).isPresent();
        Lookup lookup = null;
        for (String name : resultColumns) {
            JsonNode own = authorColumns == null ? null : authorColumns.get(name);
            if (own != null && own.isTextual()) {
                out.put(name, own.textValue());
                continue;
            }
            if (!known) {
                continue;
            }
            lookup = lookup == null ? lookup(connection) : lookup;
            Set<String> found = new HashSet<>();
            for (TableName t : tablesRead) {
                String text = lookup.of(t.catalog(), t.schema(), t.name(), name);
                if (text != null) {
                    found.add(text);
                }
            }
            if (found.size() == 1) {
                out.put(name, found.iterator().next());
            }
        }
        if (authorColumns != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = authorColumns.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!out.has(e.getKey()) && e.getValue().isTextual()) {
                    out.put(e.getKey(), e.getValue().textValue());
                }
            }
        }
        return out;
    }

    /** A connection's descriptions as the schema browser and saved queries look them up. */
    public Lookup lookup(String connection) {
        Connection c = require(connection);
        return new Lookup(dao().list(connection), defaultSchema(c), fold(c.namespace().catalog()));
    }

    /**
     * One connection's descriptions, read once, looked up by the catalogue's names (any case): a table of the default
     * schema also takes the descriptions written without a schema.
     */
    public static final class Lookup {
        private final Map<List<String>, String> texts = new HashMap<>();
        private final String defaultSchema;
        private final String defaultCatalog;

        Lookup(List<DescriptionRow> rows, String defaultSchema, String defaultCatalog) {
            for (DescriptionRow r : rows) {
                texts.put(List.of(r.schemaName(), r.tableName(), r.columnName()), r.description());
            }
            this.defaultSchema = defaultSchema;
            this.defaultCatalog = defaultCatalog;
        }

        /** The connection's notes, or null. */
        public String notes() {
            return texts.get(List.of("", "", ""));
        }

        /**
         * A table's description ({@code column} null or empty) or a column's, or null.
         *
         * @param catalog the table's catalog, or null; one other than the connection's has none
         * @param schema the table's schema, or null when not known
         */
        public String of(String catalog, String schema, String table, String column) {
            if (catalog != null && !defaultCatalog.isEmpty() && !fold(catalog).equals(defaultCatalog)) {
                return null;
            }
            String s = fold(schema);
            String t = fold(table);
            String c = fold(column);
            String exact = s.isEmpty() ? null : texts.get(List.of(s, t, c));
            if (exact != null) {
                return exact;
            }
            return s.isEmpty() || defaultSchema.isEmpty() || s.equals(defaultSchema) ? texts.get(List.of("", t, c))
                    : null;
        }
    }

    /** The connection, or 404 {@code connection_not_found}. */
    private Connection require(String connection) {
        return connections.visible(connection).orElseThrow(() -> ApiException.notFound("connection_not_found",
                "Connection '" + connection + "' not found"));
    }

    private DescriptionDao dao() {
        return jdbi.onDemand(DescriptionDao.class);
    }

    private static String defaultSchema(Connection c) {
        return fold(c.namespace().schema());
    }

    private static String fold(String name) {
        return name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    }

    private static Optional<String> comment(Optional<String> comment) {
        return comment.map(String::strip).filter(s -> !s.isEmpty())
                .map(s -> s.length() > MAX_DESCRIPTION ? s.substring(0, MAX_DESCRIPTION) : s);
    }

    private static boolean fieldsWithin(JsonNode item) {
        for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
            if (!ITEM_FIELDS.contains(it.next())) {
                return false;
            }
        }
        return true;
    }

    private static String name(JsonNode v, String what) {
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual() || v.textValue().isBlank() || v.textValue().length() > MAX_NAME) {
            throw invalid(what + " must be a name of 1 to " + MAX_NAME + " characters, or null");
        }
        return fold(v.textValue());
    }

    private static String label(String schema, String table, String column) {
        return (table.isEmpty() ? "the connection" : (schema.isEmpty() ? "" : schema + ".") + table)
                + (column.isEmpty() ? "" : "." + column);
    }

    private static ApiException invalid(String message) {
        return new ApiException(400, "invalid_body", message);
    }

    private static boolean blank(String s) {
        return s == null || s.isEmpty();
    }
}
