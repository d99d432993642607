package io.queryapigate.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A store transaction that reads and then writes is not refused because another connection wrote meanwhile. */
class SqliteStoreTransactionsTest {
    private static Connection open(String url) throws SQLException {
        Properties p = new Properties();
        p.putAll(Store.sqliteProperties());
        return DriverManager.getConnection(url, p);
    }

    @Test
    void aReadThenWriteTransactionWaitsForAnotherWriterInsteadOfFailing() throws Exception {
        Path dir = Files.createTempDirectory("qag-store-tx-");
        String url = "jdbc:sqlite:" + dir.resolve("store.db");
        try (Connection setup = open(url); Statement st = setup.createStatement()) {
            st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            st.execute("INSERT INTO t (v) VALUES ('first')");
        }
        try (Connection tx = open(url); Connection other = open(url)) {
            tx.setAutoCommit(false);
            try (Statement st = tx.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                assertThat(rs.next()).isTrue();
            }
            // the other writer commits while the first transaction is open: it waits for the first to end
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
                try (Statement st = other.createStatement()) {
                    st.execute("INSERT INTO t (v) VALUES ('other')");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200);
            try (Statement st = tx.createStatement()) {
                st.execute("INSERT INTO t (v) VALUES ('read, then written')");
            }
            tx.commit();
            tx.setAutoCommit(true); // as JDBI does after a transaction: xerial begins the next one on commit
            write.get(15, TimeUnit.SECONDS);
        }
        try (Connection c = open(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(3);
        }
    }
}
