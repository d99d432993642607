package io.queryapigate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A deterministic TPC-C-shaped data set (TPC-C 5.11 clause 4.3.3.1 cardinalities and value rules, simplified where
 * the queries never look), with the nine tables placed in six databases the way the seed moves them:
 * org (warehouse, district), crm (customer), orders (orders, new_order, order_line), catalog (item),
 * inventory (stock), billing (history). Every table is generated from its own seed, so loading tables in parallel
 * gives the same rows every time. This is TPC-C's data, not the TPC-C benchmark.
 */
final class Tpcc {
    static final int DISTRICTS = 10;
    static final int CUSTOMERS_PER_DISTRICT = 3000;
    static final int ORDERS_PER_DISTRICT = 3000;
    static final int ITEMS = 100_000;
    static final int FIRST_NEW_ORDER = 2101;   // orders 2101..3000 are undelivered (new_order rows)
    static final long SEED = 20261129L;
    /** Every timestamp in the data set: fixed, so the data is the same on every run. */
    static final LocalDateTime LOAD_TIME = LocalDateTime.of(2026, 1, 1, 12, 0, 0);

    static final List<String> SERVICES = List.of("org", "crm", "orders", "catalog", "inventory", "billing");
    private static final String[] SYLLABLES =
            {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};

    private final BenchSettings s;

    Tpcc(BenchSettings s) {
        this.s = s;
    }

    String db(String service) {
        return s.prefix() + service;
    }

    /** The DDL, database by database. Indexes as go-tpc creates them, plus billing.history's customer key. */
    List<String> ddl() {
        List<String> out = new ArrayList<>();
        for (String svc : SERVICES) {
            out.add("DROP DATABASE IF EXISTS " + db(svc));
            out.add("CREATE DATABASE " + db(svc) + " CHARACTER SET utf8mb4");
        }
        String org = db("org"), crm = db("crm"), ord = db("orders"), cat = db("catalog"), inv = db("inventory"),
                bil = db("billing");
        out.add("CREATE TABLE " + org + ".warehouse (w_id INT NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20),"
                + " w_street_2 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4),"
                + " w_ytd DECIMAL(12,2), PRIMARY KEY (w_id))");
        out.add("CREATE TABLE " + org + ".district (d_id INT NOT NULL, d_w_id INT NOT NULL, d_name VARCHAR(10),"
                + " d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9),"
                + " d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2), d_next_o_id INT, PRIMARY KEY (d_w_id, d_id))");
        out.add("CREATE TABLE " + crm + ".customer (c_id INT NOT NULL, c_d_id INT NOT NULL, c_w_id INT NOT NULL,"
                + " c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20),"
                + " c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16),"
                + " c_since DATETIME, c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4),"
                + " c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt INT, c_delivery_cnt INT,"
                + " c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id),"
                + " KEY idx_customer (c_w_id, c_d_id, c_last, c_first))");
        out.add("CREATE TABLE " + bil + ".history (h_c_id INT NOT NULL, h_c_d_id INT NOT NULL, h_c_w_id INT NOT NULL,"
                + " h_d_id INT NOT NULL, h_w_id INT NOT NULL, h_date DATETIME, h_amount DECIMAL(6,2),"
                + " h_data VARCHAR(24), KEY idx_history_customer (h_c_w_id, h_c_d_id, h_c_id, h_date))");
        out.add("CREATE TABLE " + ord + ".orders (o_id INT NOT NULL, o_d_id INT NOT NULL, o_w_id INT NOT NULL,"
                + " o_c_id INT, o_entry_d DATETIME, o_carrier_id INT, o_ol_cnt INT, o_all_local INT,"
                + " PRIMARY KEY (o_w_id, o_d_id, o_id), KEY idx_order (o_w_id, o_d_id, o_c_id, o_id))");
        out.add("CREATE TABLE " + ord + ".new_order (no_o_id INT NOT NULL, no_d_id INT NOT NULL, no_w_id INT NOT NULL,"
                + " PRIMARY KEY (no_w_id, no_d_id, no_o_id))");
        out.add("CREATE TABLE " + ord + ".order_line (ol_o_id INT NOT NULL, ol_d_id INT NOT NULL,"
                + " ol_w_id INT NOT NULL, ol_number INT NOT NULL, ol_i_id INT NOT NULL, ol_supply_w_id INT,"
                + " ol_delivery_d DATETIME, ol_quantity INT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),"
                + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))");
        out.add("CREATE TABLE " + cat + ".item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24),"
                + " i_price DECIMAL(5,2), i_data VARCHAR(50), PRIMARY KEY (i_id))");
        out.add("CREATE TABLE " + inv + ".stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity INT,"
                + " s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24),"
                + " s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24),"
                + " s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INT, s_order_cnt INT, s_remote_cnt INT,"
                + " s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id))");
        return out;
    }

    /** Creates the databases, loads W warehouses, creates the read-only user; returns what was loaded. */
    Map<String, Object> setup(int warehouses) throws Exception {
        Map<String, Object> info = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            for (String sql : ddl()) {
                st.execute(sql);
            }
        }
        Sinks batches = (service, table, columns, batch) -> new Batch(insert(db(service) + "." + table, columns),
                batch);
        info.put("rows_inserted", load(loaders(warehouses, batches), s.loadThreads()));
        long loaded = System.nanoTime();
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            for (String[] t : tables()) {
                st.execute("ANALYZE TABLE " + db(t[0]) + "." + t[1]);
            }
            createReader(st);
        }
        info.put("warehouses", warehouses);
        info.put("load_seconds", round3((loaded - t0) / 1e9));
        info.put("total_seconds", round3((System.nanoTime() - t0) / 1e9));
        info.put("tables", tableSizes());
        return info;
    }

    static String[][] tables() {
        return new String[][] {{"org", "warehouse"}, {"org", "district"}, {"crm", "customer"},
            {"orders", "orders"}, {"orders", "new_order"}, {"orders", "order_line"}, {"catalog", "item"},
            {"inventory", "stock"}, {"billing", "history"}};
    }

    /** Exact row counts and InnoDB's data + index size per table. */
    Map<String, Object> tableSizes() throws SQLException {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            long bytes = 0;
            for (String[] t : tables()) {
                Map<String, Object> row = new LinkedHashMap<>();
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db(t[0]) + "." + t[1])) {
                    rs.next();
                    row.put("rows", rs.getLong(1));
                }
                try (ResultSet rs = st.executeQuery("SELECT data_length + index_length FROM information_schema.tables"
                        + " WHERE table_schema = '" + db(t[0]) + "' AND table_name = '" + t[1] + "'")) {
                    rs.next();
                    row.put("bytes", rs.getLong(1));
                    bytes += rs.getLong(1);
                }
                out.put(t[0] + "." + t[1], row);
            }
            out.put("total_bytes", bytes);
        }
        return out;
    }

    /** Reads every table and index once, so the first measured round doesn't pay for disk reads. */
    void warm() throws SQLException {
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            for (String[] t : tables()) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db(t[0]) + "." + t[1])) {
                    rs.next();
                }
            }
            String[][] idx = {{"crm", "customer", "idx_customer"}, {"orders", "orders", "idx_order"},
                {"billing", "history", "idx_history_customer"}};
            for (String[] i : idx) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db(i[0]) + "." + i[1]
                        + " FORCE INDEX (" + i[2] + ")")) {
                    rs.next();
                }
            }
            // the clustered index's leaf pages, with the wide columns
            try (ResultSet rs = st.executeQuery("SELECT SUM(LENGTH(c_data)) FROM " + db("crm") + ".customer")) {
                rs.next();
            }
            try (ResultSet rs = st.executeQuery("SELECT SUM(LENGTH(s_data)) FROM " + db("inventory") + ".stock")) {
                rs.next();
            }
        }
    }

    private void createReader(Statement st) throws SQLException {
        for (String host : List.of("localhost", "127.0.0.1")) {
            st.execute("DROP USER IF EXISTS '" + s.readerUser() + "'@'" + host + "'");
            st.execute("CREATE USER '" + s.readerUser() + "'@'" + host + "' IDENTIFIED BY '" + s.readerPassword() + "'");
            for (String svc : SERVICES) {
                // '_' is a wildcard in a GRANT's database name: escape it, so the grant is exactly this database
                st.execute("GRANT SELECT ON `" + db(svc).replace("_", "\\_") + "`.* TO '" + s.readerUser() + "'@'"
                        + host + "'");
            }
        }
    }

    /** Warehouses loaded in MariaDB, 0 when there are none. */
    int warehouses() {
        try (Connection c = s.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db("org") + ".warehouse")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            return 0;
        }
    }

    void teardown() throws SQLException {
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            for (String svc : SERVICES) {
                st.execute("DROP DATABASE IF EXISTS " + db(svc));
            }
            for (String host : List.of("localhost", "127.0.0.1")) {
                st.execute("DROP USER IF EXISTS '" + s.readerUser() + "'@'" + host + "'");
            }
        }
    }

    // ---- generators ---------------------------------------------------------------------------------------------

    /** Where one loader's rows go, table by table (MariaDB: batched INSERTs; PostgreSQL: COPY, see PgData). */
    interface RowSink extends AutoCloseable {
        /** One row, its values in the table's column order (Integer, Double, String, Timestamp or null). */
        void add(Object... values) throws SQLException;

        long rows();

        @Override
        void close() throws SQLException;
    }

    /** Opens a sink for a table of a service; batch is how many rows to send at once, a hint. */
    interface Sinks {
        RowSink open(String service, String table, int columns, int batch) throws SQLException;
    }

    /** One unit of loading work: a name (for errors) and the rows it wrote. */
    record Loader(String name, Callable<Long> body) {}

    /**
     * The loaders of W warehouses. Every loader draws from seeds of its own, so the rows are the same whatever the
     * order, the parallelism and the database they go to.
     */
    static List<Loader> loaders(int warehouses, Sinks sinks) {
        List<Loader> loaders = new ArrayList<>();
        loaders.add(new Loader("item", () -> loadItems(sinks)));
        for (int w = 1; w <= warehouses; w++) {
            int ww = w;
            loaders.add(new Loader("warehouse+district w" + w, () -> loadWarehouse(sinks, ww)));
            loaders.add(new Loader("stock w" + w, () -> loadStock(sinks, ww)));
            for (int d = 1; d <= DISTRICTS; d++) {
                int dd = d;
                loaders.add(new Loader("customer+history w" + w + " d" + d, () -> loadCustomers(sinks, ww, dd)));
                loaders.add(new Loader("orders w" + w + " d" + d, () -> loadOrders(sinks, ww, dd)));
            }
        }
        return loaders;
    }

    /** Runs the loaders on this many threads; returns the rows written. */
    static long load(List<Loader> loaders, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> fs = new ArrayList<>();
            for (Loader l : loaders) {
                fs.add(pool.submit(l.body()::call));
            }
            long rows = 0;
            for (Future<Long> f : fs) {
                rows += f.get();
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    private static SplittableRandom rng(String table, int w, int d) {
        return new SplittableRandom(SEED * 1_000_003L + table.hashCode() * 31L + w * 1009L + d);
    }

    private static String astring(SplittableRandom r, int min, int max) {
        int n = min + r.nextInt(max - min + 1);
        char[] cs = new char[n];
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(62);
            cs[i] = (char) (k < 10 ? '0' + k : k < 36 ? 'A' + k - 10 : 'a' + k - 36);
        }
        return new String(cs);
    }

    private static String nstring(SplittableRandom r, int n) {
        char[] cs = new char[n];
        for (int i = 0; i < n; i++) {
            cs[i] = (char) ('0' + r.nextInt(10));
        }
        return new String(cs);
    }

    private static String zip(SplittableRandom r) {
        return nstring(r, 4) + "11111";
    }

    private static String state(SplittableRandom r) {
        return "" + (char) ('A' + r.nextInt(26)) + (char) ('A' + r.nextInt(26));
    }

    static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** TPC-C's NURand(A, x, y) with a fixed C. */
    private static int nurand(SplittableRandom r, int a, int x, int y, int c) {
        return (((r.nextInt(a + 1) | (x + r.nextInt(y - x + 1))) + c) % (y - x + 1)) + x;
    }

    private static String data(SplittableRandom r, int min, int max) {
        String s = astring(r, min, max);
        if (r.nextInt(10) == 0) {   // 10% carry "ORIGINAL" somewhere
            int at = r.nextInt(s.length() - 8 + 1);
            s = s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
        }
        return s;
    }

    private static double money(SplittableRandom r, int minCents, int maxCents) {
        return (minCents + r.nextInt(maxCents - minCents + 1)) / 100.0;
    }

    private final class Batch implements RowSink {
        final Connection c;
        final PreparedStatement ps;
        final int size;
        int pending;
        long rows;

        Batch(String sql, int size) throws SQLException {
            this.c = s.loaderConnection();
            this.c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("SET unique_checks = 0, foreign_key_checks = 0");
            }
            this.ps = c.prepareStatement(sql);
            this.size = size;
        }

        @Override
        public void add(Object... values) throws SQLException {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.addBatch();
            rows++;
            if (++pending >= size) {
                ps.executeBatch();
                pending = 0;
            }
        }

        @Override
        public long rows() {
            return rows;
        }

        @Override
        public void close() throws SQLException {
            if (pending > 0) {
                ps.executeBatch();
            }
            c.commit();
            ps.close();
            c.close();
        }
    }

    private static String insert(String table, int columns) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(table).append(" VALUES (");
        for (int i = 0; i < columns; i++) {
            sb.append(i == 0 ? "?" : ",?");
        }
        return sb.append(')').toString();
    }

    private static long loadItems(Sinks sinks) throws SQLException {
        SplittableRandom r = rng("item", 0, 0);
        try (RowSink b = sinks.open("catalog", "item", 5, 2000)) {
            for (int i = 1; i <= ITEMS; i++) {
                b.add(i, 1 + r.nextInt(10_000), astring(r, 14, 24), money(r, 100, 10_000), data(r, 26, 50));
            }
            return b.rows();
        }
    }

    private static long loadWarehouse(Sinks sinks, int w) throws SQLException {
        SplittableRandom r = rng("warehouse", w, 0);
        long rows;
        try (RowSink b = sinks.open("org", "warehouse", 9, 100)) {
            b.add(w, astring(r, 6, 10), astring(r, 10, 20), astring(r, 10, 20), astring(r, 10, 20), state(r), zip(r),
                    r.nextInt(2001) / 10_000.0, 300_000.00);
            rows = b.rows();
        }
        try (RowSink b = sinks.open("org", "district", 11, 100)) {
            for (int d = 1; d <= DISTRICTS; d++) {
                b.add(d, w, astring(r, 6, 10), astring(r, 10, 20), astring(r, 10, 20), astring(r, 10, 20), state(r),
                        zip(r), r.nextInt(2001) / 10_000.0, 30_000.00, ORDERS_PER_DISTRICT + 1);
            }
            rows += b.rows();
        }
        return rows;
    }

    private static long loadStock(Sinks sinks, int w) throws SQLException {
        SplittableRandom r = rng("stock", w, 0);
        try (RowSink b = sinks.open("inventory", "stock", 17, 1000)) {
            for (int i = 1; i <= ITEMS; i++) {
                b.add(i, w, 10 + r.nextInt(91), astring(r, 24, 24), astring(r, 24, 24), astring(r, 24, 24),
                        astring(r, 24, 24), astring(r, 24, 24), astring(r, 24, 24), astring(r, 24, 24),
                        astring(r, 24, 24), astring(r, 24, 24), astring(r, 24, 24), 0, 0, 0, data(r, 26, 50));
            }
            return b.rows();
        }
    }

    private static long loadCustomers(Sinks sinks, int w, int d) throws SQLException {
        SplittableRandom r = rng("customer", w, d);
        Timestamp since = Timestamp.valueOf(LOAD_TIME);
        long rows;
        try (RowSink b = sinks.open("crm", "customer", 21, 500)) {
            for (int c = 1; c <= CUSTOMERS_PER_DISTRICT; c++) {
                String last = c <= 1000 ? lastName(c - 1) : lastName(nurand(r, 255, 0, 999, 157));
                b.add(c, d, w, astring(r, 8, 16), "OE", last, astring(r, 10, 20), astring(r, 10, 20),
                        astring(r, 10, 20), state(r), zip(r), nstring(r, 16), since, r.nextInt(10) == 0 ? "BC" : "GC",
                        50_000.00, r.nextInt(5001) / 10_000.0, -10.00, 10.00, 1, 0, astring(r, 300, 500));
            }
            rows = b.rows();
        }
        try (RowSink b = sinks.open("billing", "history", 8, 1000)) {
            for (int c = 1; c <= CUSTOMERS_PER_DISTRICT; c++) {
                b.add(c, d, w, d, w, since, 10.00, astring(r, 12, 24));
            }
            rows += b.rows();
        }
        return rows;
    }

    private static long loadOrders(Sinks sinks, int w, int d) throws SQLException {
        SplittableRandom r = rng("orders", w, d);
        int[] customerOf = new int[ORDERS_PER_DISTRICT + 1];   // o_c_id: a random permutation of the customers
        for (int i = 1; i <= ORDERS_PER_DISTRICT; i++) {
            customerOf[i] = i;
        }
        for (int i = ORDERS_PER_DISTRICT; i > 1; i--) {
            int j = 1 + r.nextInt(i);
            int t = customerOf[i];
            customerOf[i] = customerOf[j];
            customerOf[j] = t;
        }
        Timestamp entry = Timestamp.valueOf(LOAD_TIME);
        long rows = 0;
        int[] lines = new int[ORDERS_PER_DISTRICT + 1];
        try (RowSink b = sinks.open("orders", "orders", 8, 1000)) {
            for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                lines[o] = 5 + r.nextInt(11);
                b.add(o, d, w, customerOf[o], entry, o < FIRST_NEW_ORDER ? 1 + r.nextInt(10) : null, lines[o], 1);
            }
            rows += b.rows();
        }
        try (RowSink b = sinks.open("orders", "new_order", 3, 1000)) {
            for (int o = FIRST_NEW_ORDER; o <= ORDERS_PER_DISTRICT; o++) {
                b.add(o, d, w);
            }
            rows += b.rows();
        }
        try (RowSink b = sinks.open("orders", "order_line", 10, 2000)) {
            for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                boolean delivered = o < FIRST_NEW_ORDER;
                for (int n = 1; n <= lines[o]; n++) {
                    b.add(o, d, w, n, 1 + r.nextInt(ITEMS), w, delivered ? entry : null, 5,
                            delivered ? 0.00 : money(r, 1, 999_999), astring(r, 24, 24));
                }
            }
            rows += b.rows();
        }
        return rows;
    }

    /**
     * The seed's condition: the data fits in the buffer pool. When InnoDB's pool is smaller than 2.5x the data, it is
     * raised (SET GLOBAL, dynamic in MariaDB 10.2+) and the previous size is kept in a state file, so teardown can
     * restore it. Returns what was done.
     */
    Map<String, Object> fitBufferPool(long dataBytes, Path stateFile) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            long pool;
            try (ResultSet rs = st.executeQuery("SELECT @@innodb_buffer_pool_size")) {
                rs.next();
                pool = rs.getLong(1);
            }
            out.put("buffer_pool_bytes_before", pool);
            long chunk = 128L << 20;
            long want = Math.max(256L << 20, (long) Math.ceil(dataBytes * 2.5 / chunk) * chunk);
            if (pool >= want) {
                out.put("buffer_pool", "left as it is: the data fits");
                return out;
            }
            if (!Files.exists(stateFile)) {
                Files.createDirectories(stateFile.getParent());
                Files.writeString(stateFile, "{\"innodb_buffer_pool_size\": " + pool + ", \"prefix\": \""
                        + s.prefix() + "\"}\n");
            }
            st.execute("SET GLOBAL innodb_buffer_pool_size = " + want);
            for (int i = 0; i < 300; i++) {
                try (ResultSet rs = st.executeQuery("SELECT @@innodb_buffer_pool_size")) {
                    rs.next();
                    if (rs.getLong(1) >= want) {
                        break;
                    }
                }
                Thread.sleep(100);
            }
            out.put("buffer_pool", "raised from " + (pool >> 20) + " MiB to " + (want >> 20)
                    + " MiB (teardown restores it; the previous size is in " + stateFile + ")");
        }
        return out;
    }

    /** Puts the buffer pool back to the size setup found, if the setup of this prefix changed it. */
    String restoreBufferPool(Path stateFile) throws Exception {
        if (!Files.exists(stateFile)) {
            return "buffer pool: not changed by setup";
        }
        var state = Http.JSON.readTree(Files.readString(stateFile));
        if (!state.path("prefix").asText("qag_bench_").equals(s.prefix())) {
            return "buffer pool: left as it is (raised by the setup of " + state.path("prefix").asText() + ")";
        }
        long before = state.path("innodb_buffer_pool_size").asLong();
        try (Connection c = s.adminConnection(); Statement st = c.createStatement()) {
            st.execute("SET GLOBAL innodb_buffer_pool_size = " + before);
        }
        Files.delete(stateFile);
        return "buffer pool restored to " + (before >> 20) + " MiB";
    }

    static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    static Connection connect(String url, String user, String password) throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
