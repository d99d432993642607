package io.queryapigate.schema;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardMask;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.TableName;
import io.queryapigate.http.ServerTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A connection's databases, tables, views and columns as its dialect reads them from the database's catalogue
 * ({@link Dialect#describeNamespace}), each with its description, for the administrator or as one key sees them:
 * only the tables its {@code allowed_tables} let it use on that connection (matched as the SQL guard matches a
 * statement's tables), its masked columns marked, nothing at all on a connection it is not granted. A connection's
 * catalogue is kept for a short time ({@code metadataCache.schemaTtl}); a refresh reads it again.
 */
public final class SchemaBrowser {
    /** The built-in dialects' bound on one answer: at most this many tables, whole ones (the answer may be cut). */
    public static final int TABLE_BOUND = 10_000;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One connection's described catalogue, and when it was read (by the dialect instance it was read through). */
    private record Catalogue(Dialect dialect, List<SchemaTable> tables, long describedAt) {}

    private record Key(String connection, String database) {}

    private final ConnectionRegistry connections;
    private final Descriptions descriptions;
    private final Clock clock;
    private final Cache<Key, Catalogue> cache;

    public SchemaBrowser(ConnectionRegistry connections, Descriptions descriptions, Duration ttl, Clock clock) {
        this.connections = connections;
        this.descriptions = descriptions;
        this.clock = clock;
        this.cache = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(1000).build();
    }

    /**
     * The schema of a connection's own database (with the descriptions and the connection's notes) or of another
     * one on its server ({@code database}, without them, as in the original).
     *
     * @param grants a key's grants to show it as that key sees it; null for the administrator
     * @param refresh read the catalogue again rather than from what was kept
     * @throws ApiException 404 {@code connection_not_found}; 400 {@code unsupported_operation} when the dialect
     *     cannot describe its catalogue, {@code invalid_request} for a database it cannot browse
     * @throws DialectException when the database cannot be reached or does not answer in time
     */
    public ObjectNode describe(String connection, Optional<String> database, Grants grants, boolean refresh) {
        Connection c = connections.visible(connection).orElseThrow(() -> ApiException.notFound("connection_not_found",
                "Connection '" + connection + "' not found"));
        Catalogue catalogue = catalogue(c, database, refresh);
        List<SchemaTable> visible = visible(c, database, catalogue.tables(), grants);
        Descriptions.Lookup described = database.isEmpty() ? descriptions.lookup(connection) : null;
        List<GuardMask> masks = grants == null ? List.of() : Guarding.masks(grants.mask(), c);
        ObjectNode out = JSON.objectNode();
        out.put("connection", connection);
        out.put("dialect", c.dialectName());
        out.put("database", database.orElse(null));
        ArrayNode tables = out.putArray("tables");
        for (SchemaTable t : visible) {
            tables.add(table(c, database, t, described, masks, grants));
        }
        out.put("truncated", catalogue.tables().size() >= TABLE_BOUND);
        out.put("described_at", ServerTime.format(catalogue.describedAt()));
        boolean restricted = grants != null && (!grants.hasConnection(connection) || grants.allowedTables() != null);
        String notes = described == null || restricted ? null : described.notes();
        if (notes != null) {
            out.put("notes", notes);
        }
        return out;
    }

    /**
     * The tables a key may use on a connection, of those described: all of them for the administrator ({@code grants}
     * null) or a key without a table restriction, none on a connection the key is not granted, else those its
     * {@code allowed_tables} name, resolved as the SQL guard resolves a statement's tables.
     *
     * @param database the database browsed, empty for the connection's own
     */
    public static List<SchemaTable> visible(Connection c, Optional<String> database, List<SchemaTable> tables,
            Grants grants) {
        if (grants == null) {
            return tables;
        }
        if (!grants.hasConnection(c.name())) {
            return List.of();
        }
        if (grants.allowedTables() == null) {
            return tables;
        }
        Set<TableName> allowed = new HashSet<>();
        for (String entry : grants.allowedTables()) {
            try {
                allowed.add(TableName.parse(entry, c.family(), c.lexicalRules(), c.namespace().catalog(),
                        c.namespace().schema()));
            } catch (IllegalArgumentException e) {
                // a grant entry that is no table name allows nothing, as in the guard
            }
        }
        List<SchemaTable> out = new ArrayList<>();
        for (SchemaTable t : tables) {
            if (allowed.contains(name(c, database, t))) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The table's name as the guard compares it: each part as the catalogue spells it (quoted), resolved against the
     * connection's defaults; the catalog part only for another database than the connection's own.
     */
    static TableName name(Connection c, Optional<String> database, SchemaTable t) {
        StringBuilder dotted = new StringBuilder();
        if (database.isPresent() && t.namespace().catalog() != null) {
            dotted.append(quote(t.namespace().catalog())).append('.');
        }
        if (t.namespace().schema() != null) {
            dotted.append(quote(t.namespace().schema())).append('.');
        }
        dotted.append(quote(t.name()));
        return TableName.parse(dotted.toString(), c.family(), c.lexicalRules(), c.namespace().catalog(),
                c.namespace().schema());
    }

    private Catalogue catalogue(Connection c, Optional<String> database, boolean refresh) {
        Key key = new Key(c.name(), database.orElse(""));
        Catalogue kept = refresh ? null : cache.getIfPresent(key);
        if (kept != null && kept.dialect() == c.dialect()) {
            return kept;
        }
        List<SchemaTable> tables;
        try {
            tables = c.dialect().describeNamespace(database, c.timeout()).orElseThrow(() -> new ApiException(400,
                    "unsupported_operation", "Schema introspection isn't supported for '" + c.dialectName()
                            + "' connections"));
        } catch (DialectException e) {
            if (e.error() == DialectError.SYNTAX && database.isPresent()) {
                throw ApiException.badRequest("invalid_request", "The database '" + database.get()
                        + "' cannot be browsed on connection '" + c.name() + "': " + e.getMessage());
            }
            throw e;
        }
        Catalogue fresh = new Catalogue(c.dialect(), tables, clock.millis());
        cache.put(key, fresh);
        return fresh;
    }

    private static ObjectNode table(Connection c, Optional<String> database, SchemaTable t,
            Descriptions.Lookup described, List<GuardMask> masks, Grants grants) {
        ObjectNode o = JSON.objectNode();
        o.put("name", t.name());
        o.put("catalog", t.namespace().catalog());
        o.put("schema", t.namespace().schema());
        o.put("type", t.kind().name().toLowerCase(Locale.ROOT));
        o.put("comment", t.comment().orElse(null));
        o.put("description", described == null ? null
                : described.of(t.namespace().catalog(), t.namespace().schema(), t.name(), null));
        TableName folded = masks.isEmpty() ? null : new GuardMask(name(c, database, t), "-", false).table();
        ArrayNode columns = o.putArray("columns");
        int position = 0;
        for (SchemaColumn col : t.columns()) {
            ObjectNode k = columns.addObject();
            k.put("name", col.name());
            k.put("type", col.typeName());
            if (col.nullability() == Nullability.UNKNOWN) {
                k.putNull("nullable");
            } else {
                k.put("nullable", col.nullability() == Nullability.NULLABLE);
            }
            k.put("position", ++position);
            k.put("primary_key", col.primaryKey());
            k.put("comment", col.comment().orElse(null));
            k.put("description", described == null ? null
                    : described.of(t.namespace().catalog(), t.namespace().schema(), t.name(), col.name()));
            MaskRule mask = folded == null ? null : maskOf(folded, col.name(), masks, grants);
            k.put("masked", mask != null);
            k.put("mask", mask == null ? null : mask.action());
        }
        return o;
    }

    /** The first of the key's rules that masks this column (the guard's comparison: any case, any quoting). */
    private static MaskRule maskOf(TableName table, String column, List<GuardMask> masks, Grants grants) {
        String folded = column.toLowerCase(Locale.ROOT);
        for (int i = 0; i < masks.size(); i++) {
            GuardMask m = masks.get(i);
            if (m.table().equals(table) && m.column().equals(folded)) {
                return grants.mask().get(i);
            }
        }
        return null;
    }

    private static String quote(String part) {
        return '"' + part.replace("\"", "\"\"") + '"';
    }
}
