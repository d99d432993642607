package io.queryapigate.bench;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The same TPC-C data in PostgreSQL: one database, six schemas named like the MariaDB databases, the tables of
 * {@link Tpcc#ddl()} with MariaDB's types and indexes carried over ({@code DATETIME} becomes {@code TIMESTAMP}, each
 * {@code KEY} a {@code CREATE INDEX}), the rows of {@link Tpcc}'s generator (same seeds, same rows) loaded with
 * {@code COPY}, then the keys and indexes, {@code VACUUM ANALYZE}, and a role that may only connect and
 * {@code SELECT}. Also what a run needs to know about that database: its size, its warehouses, the CPU time of its
 * server processes.
 */
final class PgData {
    private static final Pattern PRIMARY_KEY = Pattern.compile(",\\s*PRIMARY KEY \\(([^)]*)\\)");
    private static final Pattern KEY = Pattern.compile(",\\s*KEY (\\w+) \\(([^)]*)\\)");
    private static final Pattern TABLE = Pattern.compile("CREATE TABLE (\\S+)\\.(\\w+) \\(");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final PgSettings pg;
    private final Tpcc tpcc;

    PgData(PgSettings pg, BenchSettings s) {
        this.pg = pg;
        this.tpcc = new Tpcc(s);
    }

    /** MariaDB's DDL for PostgreSQL: the tables (without keys) and, apart, their primary keys and indexes. */
    record Ddl(List<String> tables, List<String> keys) {}

    Ddl ddl() {
        List<String> tables = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (String sql : tpcc.ddl()) {
            Matcher t = TABLE.matcher(sql);
            if (!t.find()) {
                continue; // DROP / CREATE DATABASE: schemas here
            }
            String table = t.group(1) + "." + t.group(2);
            Matcher pk = PRIMARY_KEY.matcher(sql);
            if (pk.find()) {
                keys.add("ALTER TABLE " + table + " ADD PRIMARY KEY (" + pk.group(1) + ")");
            }
            Matcher k = KEY.matcher(sql);
            while (k.find()) {
                keys.add("CREATE INDEX " + k.group(1) + " ON " + table + " (" + k.group(2) + ")");
            }
            String columns = KEY.matcher(PRIMARY_KEY.matcher(sql).replaceAll("")).replaceAll("");
            tables.add(columns.replace("DATETIME", "TIMESTAMP"));
        }
        return new Ddl(tables, keys);
    }

    /** Creates and loads the database, the keys, the statistics and the read-only role; returns what was done. */
    Map<String, Object> setup(int warehouses, int threads) throws Exception {
        Map<String, Object> info = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        dropDatabaseAndRole();
        try (Connection c = pg.maintenanceConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + pg.database() + " ENCODING 'UTF8' TEMPLATE template0");
        }
        Ddl ddl = ddl();
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement()) {
            for (String svc : Tpcc.SERVICES) {
                st.execute("CREATE SCHEMA " + pg.schema(svc));
            }
            for (String sql : ddl.tables()) {
                st.execute(sql);
            }
        }
        info.put("rows_copied", Tpcc.load(Tpcc.loaders(warehouses, this::copy), threads));
        long loaded = System.nanoTime();
        // keys and indexes after the rows: each built once, in parallel
        List<Tpcc.Loader> indexes = new ArrayList<>();
        for (String sql : ddl.keys()) {
            indexes.add(new Tpcc.Loader(sql, () -> {
                try (Connection c = pg.adminConnection(); Statement st = c.createStatement()) {
                    st.execute("SET maintenance_work_mem = '256MB'");
                    st.execute(sql);
                }
                return 0L;
            }));
        }
        Tpcc.load(indexes, threads);
        long indexed = System.nanoTime();
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement()) {
            for (String[] t : Tpcc.tables()) {
                // sets the hint bits and the visibility map too, so the first reads don't write
                st.execute("VACUUM (ANALYZE) " + pg.schema(t[0]) + "." + t[1]);
            }
            createReader(st);
            info.put("prewarm", prewarm(st));
        }
        info.put("database", pg.database());
        info.put("warehouses", warehouses);
        info.put("copy_seconds", Tpcc.round3((loaded - t0) / 1e9));
        info.put("index_seconds", Tpcc.round3((indexed - loaded) / 1e9));
        info.put("total_seconds", Tpcc.round3((System.nanoTime() - t0) / 1e9));
        info.put("tables", tableSizes());
        return info;
    }

    private void createReader(Statement st) throws SQLException {
        String role = pg.readerUser();
        st.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + pg.readerPassword().replace("'", "''")
                + "' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS");
        // PUBLIC may connect to and make temporary tables in a new database: only the role may connect, and it
        // may only read the six schemas' tables
        st.execute("REVOKE ALL ON DATABASE " + pg.database() + " FROM PUBLIC");
        st.execute("GRANT CONNECT ON DATABASE " + pg.database() + " TO " + role);
        for (String svc : Tpcc.SERVICES) {
            st.execute("GRANT USAGE ON SCHEMA " + pg.schema(svc) + " TO " + role);
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + pg.schema(svc) + " TO " + role);
        }
    }

    /**
     * Reads every table and index of the six schemas into shared_buffers with pg_prewarm when the server has it (the
     * data may be larger than shared_buffers: the rest then sits in the OS page cache, read at the load).
     */
    private String prewarm(Statement st) {
        try {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
            long blocks = 0;
            try (ResultSet rs = st.executeQuery("SELECT COALESCE(SUM(pg_prewarm(c.oid)), 0) FROM pg_class c"
                    + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE '" + pg.prefix()
                    .replace("_", "\\_") + "%' AND c.relkind IN ('r', 'i')")) {
                rs.next();
                blocks = rs.getLong(1);
            }
            st.execute("DROP EXTENSION pg_prewarm");
            return blocks + " blocks read with pg_prewarm";
        } catch (SQLException e) {
            return "not prewarmed: " + e.getMessage();
        }
    }

    void teardown() throws SQLException {
        dropDatabaseAndRole();
    }

    private void dropDatabaseAndRole() throws SQLException {
        try (Connection c = pg.maintenanceConnection(); Statement st = c.createStatement()) {
            // FORCE: a run that was killed may have left sessions behind (PostgreSQL 13+)
            st.execute("DROP DATABASE IF EXISTS " + pg.database() + " WITH (FORCE)");
            st.execute("DROP ROLE IF EXISTS " + pg.readerUser());
        }
    }

    /** Warehouses in the PostgreSQL copy, 0 when there is none (no database, no table). */
    int warehouses() {
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + pg.schema("org") + ".warehouse")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            return 0;
        }
    }

    /** Exact row counts and on-disk size (table, indexes and TOAST) per table, and the total. */
    Map<String, Object> tableSizes() throws SQLException {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement()) {
            long bytes = 0;
            for (String[] t : Tpcc.tables()) {
                String table = pg.schema(t[0]) + "." + t[1];
                Map<String, Object> row = new LinkedHashMap<>();
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*), pg_total_relation_size('" + table + "')"
                        + " FROM " + table)) {
                    rs.next();
                    row.put("rows", rs.getLong(1));
                    row.put("bytes", rs.getLong(2));
                    bytes += rs.getLong(2);
                }
                out.put(t[0] + "." + t[1], row);
            }
            out.put("total_bytes", bytes);
        }
        return out;
    }

    /** The server as a report should describe it. */
    Map<String, Object> server() throws SQLException {
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement()) {
            for (String setting : List.of("server_version", "shared_buffers", "effective_cache_size", "work_mem",
                    "max_connections", "jit", "ssl")) {
                try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
                    rs.next();
                    out.put(setting, rs.getString(1));
                }
            }
        }
        out.put("pgjdbc", org.postgresql.util.DriverInfo.DRIVER_VERSION);
        return out;
    }

    /** The postmaster's pid (the first line of postmaster.pid in the data directory), or -1. */
    long postmasterPid() {
        try (Connection c = pg.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW data_directory")) {
            rs.next();
            Path pidFile = Path.of(rs.getString(1), "postmaster.pid");
            return Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        } catch (Exception e) {
            return -1;
        }
    }

    // ---- COPY ---------------------------------------------------------------------------------------------------

    private Tpcc.RowSink copy(String service, String table, int columns, int batch) throws SQLException {
        return new CopySink(pg.schema(service) + "." + table);
    }

    /** Rows in COPY's text format, sent about a megabyte at a time; one connection and one COPY per table. */
    private final class CopySink implements Tpcc.RowSink {
        private final Connection c;
        private final CopyIn copy;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(1 << 20);
        private final StringBuilder line = new StringBuilder(1024);
        private long rows;

        CopySink(String table) throws SQLException {
            this.c = pg.adminConnection();
            this.copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN");
        }

        @Override
        public void add(Object... values) throws SQLException {
            line.setLength(0);
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    line.append('\t');
                }
                line.append(text(values[i]));
            }
            line.append('\n');
            buffer.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
            rows++;
            if (buffer.size() >= 1 << 20) {
                flush();
            }
        }

        private void flush() throws SQLException {
            if (buffer.size() > 0) {
                copy.writeToCopy(buffer.toByteArray(), 0, buffer.size());
                buffer.reset();
            }
        }

        @Override
        public long rows() {
            return rows;
        }

        @Override
        public void close() throws SQLException {
            try {
                flush();
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
                c.close();
            }
        }
    }

    /** One value in COPY's text format. */
    static String text(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (v instanceof Double d) {
            return BigDecimal.valueOf(d).toPlainString();
        }
        if (v instanceof Timestamp t) {
            return TIMESTAMP.format(t.toLocalDateTime());
        }
        String s = v.toString();
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    // ---- CPU of the server's processes ----------------------------------------------------------------------------

    /**
     * CPU seconds of the backends of this database: a backend is a process of its own, so this is the sum over the
     * sessions connected to the database at the end of a period, minus what the same processes had used at its start
     * (a session that connected within the period counts whole; one that ended within it is lost, as the pools here
     * keep theirs).
     */
    static final class Cpu {
        private final Map<Long, Double> start = new HashMap<>();

        /** Marks the start of a period. */
        void start(Connection monitor, String database) throws SQLException {
            start.clear();
            for (long pid : backends(monitor, database)) {
                start.put(pid, Procs.cpuSeconds(pid));
            }
        }

        /** CPU seconds since {@link #start}. */
        double since(Connection monitor, String database) throws SQLException {
            double sum = 0;
            for (long pid : backends(monitor, database)) {
                double now = Procs.cpuSeconds(pid);
                if (now >= 0) {
                    sum += now - start.getOrDefault(pid, 0.0);
                }
            }
            return sum;
        }

        private static List<Long> backends(Connection monitor, String database) throws SQLException {
            List<Long> out = new ArrayList<>();
            try (Statement st = monitor.createStatement();
                    ResultSet rs = st.executeQuery("SELECT pid FROM pg_stat_activity WHERE datname = '" + database
                            + "'")) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
            return out;
        }
    }
}
