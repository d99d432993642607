package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.testkit.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PostgreSQL wire counter on the real test server: pgjdbc's round trips, by kind and by what they carried. */
class PgWireCounterTest {

    @Test
    void countsSyncsAndQueriesWithTheirStatements() throws Exception {
        TestServers.Server pg = TestServers.postgres();
        try (PgWireCounter wire = new PgWireCounter(pg.host(), pg.port(), Duration.ZERO);
                Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + wire.port() + "/test?"
                        + PgSettings.URL_OPTIONS, pg.user(), pg.password())) {
            Map<String, Long> kinds0 = wire.kinds();
            Map<String, Long> batches0 = wire.batches();
            long trips0 = wire.roundTrips();
            // pgjdbc: Parse/Bind/Execute/Sync for the first executions, a named statement (Bind/Execute/Sync) later
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::int AS n")) {
                for (int i = 0; i < 10; i++) {
                    ps.setInt(1, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                    }
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("SELECT 1; SELECT 2");
            }
            assertThat(wire.roundTrips() - trips0).isEqualTo(11);
            assertThat(PgWireCounter.minus(wire.kinds(), kinds0)).containsExactlyEntriesOf(Map.of("Sync", 11L));
            assertThat(PgWireCounter.minus(wire.batches(), batches0))
                    .containsEntry("Sync: SELECT", 10L).containsEntry("Sync: SELECT; SELECT", 1L);
        }
    }

    @Test
    void firstWordsStopAtTheFirstNonWord() {
        assertThat(PgWireCounter.firstWords("SET LOCAL DateStyle = ISO")).isEqualTo("SET LOCAL DateStyle");
        assertThat(PgWireCounter.firstWords("SELECT pg_advisory_unlock_all()")).isEqualTo(
                "SELECT pg_advisory_unlock_all()");
        assertThat(PgWireCounter.firstWords("SELECT c.c_id, c.c_first FROM x")).isEqualTo("SELECT");
        assertThat(PgWireCounter.firstWords("UNLISTEN *")).isEqualTo("UNLISTEN *");
        assertThat(PgWireCounter.firstWords("")).isEqualTo("(empty)");
    }
}
