package io.queryapigate.dialect.h2;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code STREAMING}: rows are computed as they are fetched ({@code LAZY_QUERY_EXECUTION}), so a read of 10^10 rows
 * with a cap of 1,000 answers at once, in process and over TCP, instead of building the whole result first.
 */
class H2StreamingTest {

    private static final String HUGE = "SELECT x FROM system_range(1, 10000000000)";

    @TempDir
    Path home;

    private static void answersAtOnce(Dialect dialect) {
        assertThat(dialect.capabilities()).contains(Capability.STREAMING);
        RecordingSink sink = new RecordingSink();
        long start = System.nanoTime();
        QueryStats stats = dialect.execute(QueryRequest.read(HUGE, List.of(), Duration.ofSeconds(20), 1000), sink);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(stats.rows()).isEqualTo(1000);
        assertThat(stats.truncated()).isTrue();
        assertThat(sink.rows().get(999)).containsExactly(1000L);
        assertThat(millis).as("ms for the first 1,001 of 10^10 rows").isLessThan(5_000);
    }

    @Test
    void aFileDatabaseStreams() throws Exception {
        H2Fixtures.run(H2Fixtures.fileUrl(home.resolve("big")), List.of("CREATE TABLE t (x INTEGER)"));
        DialectContext context = new DialectContext("big", "big", Optional.of(H2Fixtures.ADMIN),
                Optional.of(H2Fixtures.ADMIN_PASSWORD), Duration.ofSeconds(30), 10_000, 1, home);
        try (Dialect dialect = new H2DialectFactory().create(context, Map.of())) {
            answersAtOnce(dialect);
        }
    }

    @Test
    void aTcpServerStreams() throws Exception {
        Server server = H2Servers.start(home);
        try {
            String url = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/big";
            H2Fixtures.run(url, List.of("CREATE TABLE t (x INTEGER)"));
            DialectContext context = new DialectContext("big", url, Optional.of(H2Fixtures.ADMIN),
                    Optional.of(H2Fixtures.ADMIN_PASSWORD), Duration.ofSeconds(30), 10_000, 1, home);
            try (Dialect dialect = new H2DialectFactory().create(context, Map.of())) {
                answersAtOnce(dialect);
            }
        } finally {
            server.stop();
        }
    }
}
