package io.queryapigate.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The six saved queries and the customers they are called for. */
final class Workload {
    /** A saved query: SQL with :name markers, typed parameters, and the columns of a draw it takes. */
    record Query(String name, String sql, Map<String, Map<String, Object>> parameters, String description,
            int cacheTtl) {
        /** The same SQL for JDBC: markers replaced by '?', with their names in order. */
        String jdbcSql() {
            return MARKER.matcher(sql).replaceAll("?");
        }

        List<String> markers() {
            List<String> out = new ArrayList<>();
            Matcher m = MARKER.matcher(sql);
            while (m.find()) {
                out.add(m.group(1));
            }
            return out;
        }

        boolean perCustomer() {
            return parameters.containsKey("c");
        }
    }

    /** One draw: a customer (w, d, c) and a Stock-Level threshold. */
    record Call(int w, int d, int c, int threshold) {
        long value(String marker) {
            return switch (marker) {
                case "w" -> w;
                case "d" -> d;
                case "c" -> c;
                case "threshold" -> threshold;
                default -> throw new IllegalArgumentException(marker);
            };
        }

        /** The query string; page_size 100 so that every row comes back, as it does from direct JDBC (both
         *  gateways answer 10 rows by default, and two of the queries return up to 20 and 50). */
        String query(Query q) {
            return (q.perCustomer() ? "w=" + w + "&d=" + d + "&c=" + c : "w=" + w + "&d=" + d + "&threshold="
                    + threshold) + "&page_size=100";
        }
    }

    static final Pattern MARKER = Pattern.compile("(?<![:\\w]):([A-Za-z_]\\w*)");
    static final List<String> QUERY_NAMES =
            List.of("customer", "order_status", "order_history", "payments", "profile", "stock_level");
    /** order_status with cache_ttl 30, once per distribution, so each skew cell has a cache of its own. */
    static String cached(String distribution) {
        return "order_status_cache_" + distribution;
    }

    private Workload() {}

    private static Map<String, Map<String, Object>> params(int warehouses, boolean stockLevel) {
        Map<String, Map<String, Object>> p = new LinkedHashMap<>();
        p.put("w", rule("int", 1, Math.max(1, warehouses), "Warehouse"));
        p.put("d", rule("int", 1, Tpcc.DISTRICTS, "District"));
        if (stockLevel) {
            p.put("threshold", rule("int", 1, 100, "Stock below this counts as low (TPC-C draws 10-20)"));
        } else {
            p.put("c", rule("int", 1, Tpcc.CUSTOMERS_PER_DISTRICT, "Customer within the district"));
        }
        return p;
    }

    private static Map<String, Object> rule(String type, int min, int max, String description) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("type", type);
        r.put("min", min);
        r.put("max", max);
        r.put("description", description);
        return r;
    }

    /** The six queries (and order_status with cache_ttl 30, twice) for databases named prefix+service. */
    static List<Query> queries(String prefix, int maxWarehouse) {
        String org = prefix + "org", crm = prefix + "crm", ord = prefix + "orders", cat = prefix + "catalog",
                inv = prefix + "inventory", bil = prefix + "billing";
        // max w is left generous (1000) so one set of saved queries serves any W; the draw never exceeds W
        Map<String, Map<String, Object>> cust = params(maxWarehouse, false);
        Map<String, Map<String, Object>> stock = params(maxWarehouse, true);
        String orderStatus = "SELECT c.c_id, c.c_first, c.c_middle, c.c_last, c.c_balance, o.o_id, o.o_entry_d,"
                + " o.o_carrier_id, ol.ol_number, ol.ol_i_id, ol.ol_supply_w_id, ol.ol_quantity, ol.ol_amount,"
                + " ol.ol_delivery_d"
                + " FROM (SELECT o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id FROM " + ord + ".orders"
                + " WHERE o_w_id = :w AND o_d_id = :d AND o_c_id = :c ORDER BY o_id DESC LIMIT 1) o"
                + " JOIN " + crm + ".customer c ON c.c_w_id = o.o_w_id AND c.c_d_id = o.o_d_id AND c.c_id = o.o_c_id"
                + " JOIN " + ord + ".order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id"
                + " AND ol.ol_o_id = o.o_id"
                + " ORDER BY ol.ol_number";
        List<Query> out = new ArrayList<>();
        out.add(new Query("customer",
                "SELECT c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,"
                        + " c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment,"
                        + " c_payment_cnt, c_delivery_cnt, c_data"
                        + " FROM " + crm + ".customer WHERE c_w_id = :w AND c_d_id = :d AND c_id = :c",
                cust, "One customer's row by primary key (crm)", 0));
        out.add(new Query("order_status", orderStatus, cust,
                "TPC-C Order-Status: the customer, their latest order and its lines (crm, orders)", 0));
        out.add(new Query("order_history",
                "SELECT o.o_id, o.o_entry_d, ol.ol_number, ol.ol_i_id, i.i_name, i.i_price, ol.ol_quantity,"
                        + " ol.ol_amount, ol.ol_delivery_d"
                        + " FROM " + crm + ".customer c"
                        + " JOIN " + ord + ".orders o ON o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id"
                        + " AND o.o_c_id = c.c_id"
                        + " JOIN " + ord + ".order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id"
                        + " AND ol.ol_o_id = o.o_id"
                        + " JOIN " + cat + ".item i ON i.i_id = ol.ol_i_id"
                        + " WHERE c.c_w_id = :w AND c.c_d_id = :d AND c.c_id = :c"
                        + " ORDER BY o.o_id DESC, ol.ol_number LIMIT 50",
                cust, "The customer's last orders with each item's name, at most 50 rows (crm, orders, catalog)", 0));
        out.add(new Query("payments",
                "SELECT h.h_date, h.h_amount, h.h_w_id, h.h_d_id, h.h_data, c.c_first, c.c_last"
                        + " FROM " + crm + ".customer c"
                        + " JOIN " + bil + ".history h ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id"
                        + " AND h.h_c_id = c.c_id"
                        + " WHERE c.c_w_id = :w AND c.c_d_id = :d AND c.c_id = :c"
                        + " ORDER BY h.h_date DESC LIMIT 20",
                cust, "The customer's last 20 payments (crm, billing)", 0));
        out.add(new Query("profile",
                "SELECT c.c_id, c.c_first, c.c_middle, c.c_last, c.c_phone, c.c_since, c.c_credit, c.c_balance,"
                        + " d.d_name, d.d_street_1, d.d_city, d.d_state, d.d_zip, w.w_name, w.w_city, w.w_state"
                        + " FROM " + crm + ".customer c"
                        + " JOIN " + org + ".district d ON d.d_w_id = c.c_w_id AND d.d_id = c.c_d_id"
                        + " JOIN " + org + ".warehouse w ON w.w_id = c.c_w_id"
                        + " WHERE c.c_w_id = :w AND c.c_d_id = :d AND c.c_id = :c",
                cust, "The customer with their district and warehouse (crm, org)", 0));
        out.add(new Query("stock_level",
                "SELECT COUNT(DISTINCT s.s_i_id) AS low_stock"
                        + " FROM " + org + ".district d"
                        + " JOIN " + ord + ".order_line ol ON ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id"
                        + " AND ol.ol_o_id < d.d_next_o_id AND ol.ol_o_id >= d.d_next_o_id - 20"
                        + " JOIN " + inv + ".stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id"
                        + " WHERE d.d_w_id = :w AND d.d_id = :d AND s.s_quantity < :threshold",
                stock, "TPC-C Stock-Level: distinct items below a threshold among the district's last 20 orders"
                        + " (org, orders, inventory)", 0));
        for (String dist : List.of("uniform", "zipf")) {
            out.add(new Query(cached(dist), orderStatus, cust,
                    "order_status with cache_ttl 30 (the skew block, " + dist + " customers)", 30));
        }
        return out;
    }

    static Query byName(List<Query> qs, String name) {
        return qs.stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow();
    }

    // ---- draws ----------------------------------------------------------------------------------------------------

    static int population(int warehouses) {
        return warehouses * Tpcc.DISTRICTS * Tpcc.CUSTOMERS_PER_DISTRICT;
    }

    static Call callFor(int index, SplittableRandom r) {
        int w = index / (Tpcc.DISTRICTS * Tpcc.CUSTOMERS_PER_DISTRICT) + 1;
        int d = (index / Tpcc.CUSTOMERS_PER_DISTRICT) % Tpcc.DISTRICTS + 1;
        int c = index % Tpcc.CUSTOMERS_PER_DISTRICT + 1;
        return new Call(w, d, c, 10 + r.nextInt(11));
    }

    /**
     * n draws: uniform over all customers, or Zipf (s = 1.0) by rank, ranks mapped to customers through a fixed
     * shuffle so the busiest customers are spread over warehouses and districts.
     */
    static List<Call> draws(int warehouses, String distribution, int n, long seed) {
        int pop = population(warehouses);
        SplittableRandom r = new SplittableRandom(seed ^ distribution.hashCode());
        List<Call> out = new ArrayList<>(n);
        if (distribution.equals("uniform")) {
            for (int i = 0; i < n; i++) {
                out.add(callFor(r.nextInt(pop), r));
            }
            return out;
        }
        if (!distribution.equals("zipf")) {
            throw new IllegalArgumentException("distribution: uniform or zipf, not " + distribution);
        }
        int[] shuffle = new int[pop];
        for (int i = 0; i < pop; i++) {
            shuffle[i] = i;
        }
        SplittableRandom sr = new SplittableRandom(seed * 7919L + 17);
        for (int i = pop - 1; i > 0; i--) {
            int j = sr.nextInt(i + 1);
            int t = shuffle[i];
            shuffle[i] = shuffle[j];
            shuffle[j] = t;
        }
        double[] cdf = new double[pop];
        double sum = 0;
        for (int k = 1; k <= pop; k++) {
            sum += 1.0 / k;
            cdf[k - 1] = sum;
        }
        for (int i = 0; i < n; i++) {
            double u = r.nextDouble() * sum;
            int lo = 0, hi = pop - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out.add(callFor(shuffle[lo], r));
        }
        return out;
    }

    /** One URL path per line: /q/NAME?w=..&d=..&c=.. (what wrk's script walks). */
    static Path writeUrlFile(Path dir, Query q, String distribution, List<Call> calls) throws IOException {
        Path f = dir.resolve("urls-" + q.name() + "-" + distribution + ".txt");
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            for (Call c : calls) {
                w.write("/q/" + q.name() + "?" + c.query(q));
                w.write('\n');
            }
        }
        return f;
    }
}
