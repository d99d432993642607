package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect contract on a real H2 TCP server in a JVM of its own ({@code org.h2.tools.Server -tcp}, started once
 * for the class on a free port), with a writable connection ({@code h2.read_only: false}) as the database's
 * administrator: session safety, time limits, cancellation and the affected-rows ceiling over the network. {@link
 * #makeUnavailable} stops the server process; the next test starts another.
 */
class H2TcpDialectContractTest extends H2ContractTest {

    @TempDir
    static Path base;

    private static H2Servers.ServerProcess server;

    private static String url() throws Exception {
        if (server == null || !server.process().isAlive()) {
            server = H2Servers.startProcess(base);
        }
        return "jdbc:h2:tcp://127.0.0.1:" + server.port() + "/contract";
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        H2Fixtures.run(url() + ";DATABASE_TO_LOWER=TRUE", statements);
    }

    @Override
    protected Dialect createDialect(int poolSize) throws Exception {
        DialectContext context = new DialectContext("contract", url() + ";DATABASE_TO_LOWER=TRUE", Optional.of(H2Fixtures.ADMIN),
                Optional.of(H2Fixtures.ADMIN_PASSWORD), Duration.ofSeconds(30), 10_000, poolSize, base);
        return new H2DialectFactory().create(context, Map.of("h2.read_only", "false"));
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("session variable (SET @)", "SET @qag_probe = 'leaked'", "SELECT @qag_probe", null),
                new SessionStateProbe("local temporary table (write call)",
                        "CREATE LOCAL TEMPORARY TABLE qag_leak (x INTEGER)", AccessMode.WRITE,
                        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'qag_leak'", "0"),
                new SessionStateProbe("open transaction (write call)",
                        "BEGIN; INSERT INTO qag_contract (id) VALUES (77)", AccessMode.WRITE,
                        "SELECT count(*) FROM qag_contract", "5"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) {
        server.close();
    }

    /** Writable here: the read-only lock is the database's grants on a server (H2TcpSecurityTest). */
    @Override
    protected Set<Capability> lackedCapabilities() {
        return Set.of(Capability.SERVER_ENFORCED_READ_ONLY);
    }
}
