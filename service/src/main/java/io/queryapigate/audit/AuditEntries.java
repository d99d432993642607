package io.queryapigate.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.listing.ListingParams;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;

/**
 * The audit log as {@code GET /api/v1/audit} lists it: newest first, filtered by {@code action}, {@code actor},
 * {@code target}, {@code workspace}, {@code q} (in the actor or target), {@code since} (inclusive) and {@code until}
 * (exclusive), paged by an opaque cursor; with every action of the entries in view, their count and the retention
 * cap, as the Python original answers.
 */
public final class AuditEntries {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    private static final char CURSOR = 'a';

    private final Jdbi jdbi;
    private final int retention;
    private final ObjectMapper mapper;

    public AuditEntries(Jdbi jdbi, int retention, ObjectMapper mapper) {
        this.jdbi = jdbi;
        this.retention = retention;
        this.mapper = mapper;
    }

    /** What a caller asked for, as written in the query string. */
    public record Request(String action, String actor, String target, String text, String since, String until,
            String limit, String cursor) {}

    /** One page, newest first; {@code workspace} null lists the whole server's log. */
    public ObjectNode list(Request r, String workspace) {
        int size = ListingParams.limit(r.limit(), DEFAULT_LIMIT, MAX_LIMIT);
        long since = ListingParams.bound(r.since(), "since", Long.MIN_VALUE);
        long until = ListingParams.bound(r.until(), "until", Long.MAX_VALUE);
        long before = ListingParams.cursor(CURSOR, r.cursor());
        Map<String, Object> binds = new HashMap<>();
        binds.put("before", before);
        binds.put("since", since);
        binds.put("until", until);
        StringBuilder where = new StringBuilder(" WHERE seq < :before AND at_ms >= :since AND at_ms < :until");
        String scope = "";
        if (workspace != null) {
            scope = " WHERE workspace = :workspace";
            where.append(" AND workspace = :workspace");
            binds.put("workspace", workspace);
        }
        filter(where, binds, "action", r.action());
        filter(where, binds, "actor", r.actor());
        filter(where, binds, "target", r.target());
        if (!ListingParams.blank(r.text())) {
            where.append(" AND (LOWER(actor) LIKE :text ESCAPE '!' OR LOWER(target) LIKE :text ESCAPE '!')");
            binds.put("text", "%" + r.text().strip().toLowerCase(Locale.ROOT).replace("!", "!!").replace("%", "!%")
                    .replace("_", "!_") + "%");
        }
        String inScope = scope;
        return jdbi.inTransaction(h -> {
            List<AuditRow> found = h.createQuery("SELECT " + AuditDao.COLUMNS + " FROM audit_log" + where
                    + " ORDER BY seq DESC LIMIT " + (size + 1)).bindMap(binds)
                    .map(ConstructorMapper.of(AuditRow.class)).list();
            Map<String, Object> ws = workspace == null ? Map.of() : Map.of("workspace", workspace);
            long total = h.createQuery("SELECT COUNT(*) FROM audit_log" + inScope).bindMap(ws).mapTo(Long.class)
                    .one();
            List<String> actions = h.createQuery("SELECT DISTINCT action FROM audit_log" + inScope
                    + " ORDER BY action").bindMap(ws).mapTo(String.class).list();
            return page(found, size, total, actions);
        });
    }

    private static void filter(StringBuilder where, Map<String, Object> binds, String column, String value) {
        if (!ListingParams.blank(value)) {
            where.append(" AND ").append(column).append(" = :").append(column);
            binds.put(column, value);
        }
    }

    private ObjectNode page(List<AuditRow> rows, int size, long total, List<String> actions) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        for (int i = 0; i < Math.min(size, rows.size()); i++) {
            items.add(item(rows.get(i)));
        }
        out.put("total", total);
        ArrayNode names = out.putArray("actions");
        actions.forEach(names::add);
        out.put("retention", retention);
        if (rows.size() > size) {
            out.put("next_cursor", ListingParams.nextCursor(CURSOR, rows.get(size - 1).seq()));
        } else {
            out.putNull("next_cursor");
        }
        return out;
    }

    /** An entry as stored (its canonical JSON), with its place in the chain. */
    public ObjectNode item(AuditRow row) {
        ObjectNode item;
        try {
            JsonNode entry = mapper.readTree(row.entryJson());
            item = entry instanceof ObjectNode o ? o : mapper.createObjectNode();
        } catch (IOException e) { // an entry edited into something else: listed by its columns, verify says why
            item = mapper.createObjectNode();
        }
        item.put("seq", row.seq());
        item.put("prev_hash", row.prevHash());
        item.put("hash", row.hash());
        return item;
    }

}
