package io.queryapigate.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import net.sourceforge.argparse4j.inf.Namespace;

/** Where MariaDB is and who the benchmark is there. Only 127.0.0.1 is ever used. */
record BenchSettings(String host, int port, String adminUser, String adminPassword, String prefix, String readerUser,
        String readerPassword, int loadThreads) {

    static BenchSettings from(Namespace ns) {
        return new BenchSettings(ns.getString("mysql_host"), ns.getInt("mysql_port"), ns.getString("admin_user"),
                ns.getString("admin_password"), ns.getString("prefix"), ns.getString("reader_user"),
                ns.getString("reader_password"), ns.getInt("load_threads") == null ? 3 : ns.getInt("load_threads"));
    }

    String crm() {
        return prefix + "crm";
    }

    /** The URL the gateway and the direct client use: Connector/J's defaults, database crm. */
    String readerUrl() {
        return "jdbc:mysql://" + host + ":" + port + "/" + crm();
    }

    /** The same server and database at another port (the wire counter's proxy). */
    String readerUrlVia(int proxyPort) {
        return "jdbc:mysql://" + host + ":" + proxyPort + "/" + crm();
    }

    Connection adminConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + host + ":" + port + "/?allowPublicKeyRetrieval=true",
                adminUser, adminPassword);
    }

    Connection loaderConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + host + ":" + port
                + "/?rewriteBatchedStatements=true&allowPublicKeyRetrieval=true&useCompression=false", adminUser,
                adminPassword);
    }

    Connection readerConnection() throws SQLException {
        return DriverManager.getConnection(readerUrl(), readerUser, readerPassword);
    }
}
