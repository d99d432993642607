package io.queryapigate.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * Where PostgreSQL is and who the benchmark is there: one database (named after the prefix, {@code qag_bench} for
 * {@code qag_bench_}) holding six schemas named like the MariaDB databases ({@code qag_bench_org}, ...), so the
 * workload's {@code db.table} SQL reads {@code schema.table} unchanged, and a read-only role named like the MariaDB
 * user. Only loopback addresses are ever used. Every URL turns TLS and GSS encryption off, so that the wire counter
 * can read the protocol (the test server has {@code ssl = on}, and pgjdbc's default {@code sslmode=prefer} would
 * encrypt).
 */
record PgSettings(String host, int port, String adminUser, String adminPassword, String adminDatabase,
        String database, String prefix, String readerUser, String readerPassword) {

    static final String URL_OPTIONS = "sslmode=disable&gssEncMode=disable";

    static PgSettings from(Namespace ns, BenchSettings s) {
        String db = ns.getString("pg_database");
        if (db == null || db.isBlank()) {
            db = databaseFor(s.prefix());
        }
        return new PgSettings(ns.getString("pg_host"), ns.getInt("pg_port"), ns.getString("pg_admin_user"),
                ns.getString("pg_admin_password"), ns.getString("pg_admin_database"), db, s.prefix(),
                s.readerUser(), s.readerPassword());
    }

    /** The database of a prefix: the prefix without its trailing underscores ({@code qag_bench_} gives qag_bench). */
    static String databaseFor(String prefix) {
        String db = prefix.replaceAll("_+$", "");
        if (!db.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("--prefix " + prefix + " gives no usable PostgreSQL database name ("
                    + db + "): lower-case letters, digits and '_' only");
        }
        return db;
    }

    /** The schema of a service: the MariaDB database's name. */
    String schema(String service) {
        return prefix + service;
    }

    String readerUrl() {
        return readerUrlVia(port);
    }

    /** The same server and database at another port (a proxy's). */
    String readerUrlVia(int proxyPort) {
        return "jdbc:postgresql://" + host + ":" + proxyPort + "/" + database + "?" + URL_OPTIONS;
    }

    /** The same settings at another port, for clients that go through a proxy. */
    PgSettings via(int proxyPort) {
        return new PgSettings(host, proxyPort, adminUser, adminPassword, adminDatabase, database, prefix, readerUser,
                readerPassword);
    }

    /** The benchmark's database, as the administrator. */
    Connection adminConnection() throws SQLException {
        return DriverManager.getConnection(url(database), adminUser, adminPassword);
    }

    /** The administrator's own database, for CREATE and DROP DATABASE. */
    Connection maintenanceConnection() throws SQLException {
        return DriverManager.getConnection(url(adminDatabase), adminUser, adminPassword);
    }

    Connection readerConnection() throws SQLException {
        return DriverManager.getConnection(readerUrl(), readerUser, readerPassword);
    }

    private String url(String db) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + db + "?" + URL_OPTIONS;
    }
}
