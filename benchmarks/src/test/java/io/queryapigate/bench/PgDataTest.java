package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** MariaDB's DDL carried over to PostgreSQL, and COPY's text format. */
class PgDataTest {
    private final BenchSettings s = new BenchSettings("127.0.0.1", 3306, "test", "test", "qag_bench_", "qag_bench_ro",
            "pw", 3);
    private final PgSettings pg = new PgSettings("127.0.0.1", 5432, "test", "test", "test", "qag_bench",
            "qag_bench_", "qag_bench_ro", "pw");

    @Test
    void everyMariaDbKeyBecomesAnIndexAndTheTablesLoseTheirKeys() {
        PgData.Ddl ddl = new PgData(pg, s).ddl();
        assertThat(ddl.tables()).hasSize(9).allSatisfy(t -> assertThat(t).doesNotContain("KEY", "DATETIME",
                "CHARACTER SET").startsWith("CREATE TABLE qag_bench_"));
        assertThat(ddl.tables()).anySatisfy(t -> assertThat(t).contains("c_since TIMESTAMP"));
        assertThat(ddl.keys()).contains(
                "ALTER TABLE qag_bench_crm.customer ADD PRIMARY KEY (c_w_id, c_d_id, c_id)",
                "CREATE INDEX idx_customer ON qag_bench_crm.customer (c_w_id, c_d_id, c_last, c_first)",
                "CREATE INDEX idx_order ON qag_bench_orders.orders (o_w_id, o_d_id, o_c_id, o_id)",
                "CREATE INDEX idx_history_customer ON qag_bench_billing.history (h_c_w_id, h_c_d_id, h_c_id, h_date)");
        // every table but history has a primary key, as in MariaDB
        assertThat(ddl.keys()).filteredOn(k -> k.contains("PRIMARY KEY")).hasSize(8);
        assertThat(ddl.keys()).filteredOn(k -> k.startsWith("CREATE INDEX")).hasSize(3);
    }

    @Test
    void copyTextEscapesAndFormats() {
        assertThat(PgData.text(null)).isEqualTo("\\N");
        assertThat(PgData.text(1.0E-4)).isEqualTo("0.00010");
        assertThat(PgData.text(300000.0)).isEqualTo("300000.0");
        assertThat(PgData.text(Timestamp.valueOf(LocalDateTime.of(2026, 1, 1, 12, 0)))).isEqualTo(
                "2026-01-01 12:00:00");
        assertThat(PgData.text("a\tb\\c\nd")).isEqualTo("a\\tb\\\\c\\nd");
        assertThat(PgData.text(42)).isEqualTo("42");
    }

    @Test
    void theDatabaseIsThePrefixWithoutItsUnderscore() {
        assertThat(PgSettings.databaseFor("qag_bench_")).isEqualTo("qag_bench");
        assertThat(PgSettings.databaseFor("qag_bench_s123_")).isEqualTo("qag_bench_s123");
        assertThat(pg.schema("crm")).isEqualTo("qag_bench_crm");
        assertThat(pg.readerUrlVia(7000)).isEqualTo(
                "jdbc:postgresql://127.0.0.1:7000/qag_bench?sslmode=disable&gssEncMode=disable");
    }
}
