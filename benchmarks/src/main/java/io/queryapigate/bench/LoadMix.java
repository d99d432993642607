package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What the soak and the overload run send: the benchmark's six saved queries on MariaDB for Zipf-drawn customers
 * (85%), order_status with {@code cache_ttl} 30 (10%), ad-hoc {@code /execute_sql} reads (5%); and, apart from the
 * rate, a streamed CSV export of one warehouse's stock (100,000 rows per warehouse) now and then.
 */
final class LoadMix implements Supplier<LoadGen.Req> {
    static final String EXPORT = "export_stock";

    private final List<Workload.Query> six;
    private final Workload.Query cached;
    private final List<Workload.Call> draws;
    private final String reader;
    private final String adhocKey;
    private final String crm;
    private final int warehouses;
    private final AtomicLong next = new AtomicLong();

    private LoadMix(List<Workload.Query> six, Workload.Query cached, List<Workload.Call> draws, String reader,
            String adhocKey, String crm, int warehouses) {
        this.six = six;
        this.cached = cached;
        this.draws = draws;
        this.reader = reader;
        this.adhocKey = adhocKey;
        this.crm = crm;
        this.warehouses = warehouses;
    }

    /** The saved queries a gateway needs for this mix: the workload's and the export. */
    static List<Workload.Query> queries(BenchSettings s) {
        List<Workload.Query> qs = new ArrayList<>(Workload.queries(s.prefix(), 1000));
        Map<String, Map<String, Object>> w = new LinkedHashMap<>();
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("type", "int");
        rule.put("min", 1);
        rule.put("max", 1000);
        rule.put("description", "Warehouse");
        w.put("w", rule);
        qs.add(new Workload.Query(EXPORT, "SELECT s_i_id, s_w_id, s_quantity, s_dist_01, s_ytd, s_order_cnt,"
                + " s_remote_cnt, s_data FROM " + s.prefix() + "inventory.stock WHERE s_w_id = :w ORDER BY s_i_id",
                w, "One warehouse's stock, streamed as CSV (the soak's exports)", 0));
        return qs;
    }

    /**
     * The mix for a started gateway: its reader key runs the saved queries; a key of its own with {@code adhoc_sql}
     * on the connection is created for the ad-hoc calls.
     */
    static LoadMix on(Servers.JavaGateway g, BenchSettings s, int warehouses) throws IOException,
            InterruptedException {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("name", "adhoc");
        key.put("connections", List.of("bench"));
        key.put("adhoc_sql", true);
        String adhoc = Http.require(Http.post(g.baseUrl() + "/api/v1/api-keys", g.adminKey(), key), 201).json()
                .path("secret").asText();
        List<Workload.Query> all = queries(s);
        List<Workload.Query> six = Workload.QUERY_NAMES.stream().map(n -> Workload.byName(all, n)).toList();
        return new LoadMix(six, Workload.byName(all, Workload.cached("zipf")),
                Workload.draws(warehouses, "zipf", 200_000, Tpcc.SEED), g.readerKey(), adhoc, s.crm(), warehouses);
    }

    @Override
    public LoadGen.Req get() {
        Workload.Call c = draws.get((int) (next.getAndIncrement() % draws.size()));
        int roll = ThreadLocalRandom.current().nextInt(100);
        if (roll < 85) {
            Workload.Query q = six.get(roll % six.size());
            return new LoadGen.Req(q.name(), "/q/" + q.name() + "?" + c.query(q), reader, null);
        }
        if (roll < 95) {
            return new LoadGen.Req("cached", "/q/" + cached.name() + "?" + c.query(cached), reader, null);
        }
        ObjectNode body = Http.JSON.createObjectNode();
        body.put("sql", "SELECT c_id, c_last, c_balance, c_payment_cnt FROM " + crm + ".customer WHERE c_w_id = :w"
                + " AND c_d_id = :d AND c_id = :c");
        body.put("connection_name", "bench");
        ObjectNode params = body.putObject("params");
        params.put("w", c.w());
        params.put("d", c.d());
        params.put("c", c.c());
        return new LoadGen.Req("adhoc", "/execute_sql", adhocKey, body.toString());
    }

    /** A streamed CSV export of one warehouse's stock. */
    LoadGen.Req export() {
        int w = ThreadLocalRandom.current().nextInt(warehouses) + 1;
        return new LoadGen.Req("export", "/q/" + EXPORT + "?w=" + w + "&stream=true&format=csv", reader, null);
    }
}
