package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect contract on an embedded H2 database file opened with the default properties (read-only, through
 * {@code ACCESS_MODE_DATA=r}), as the administrator that created it: H2 itself refuses the writes.
 *
 * <p>{@link #makeUnavailable} closes the dialect's keeper session and deletes the file, as an operator removing
 * the database would: the next session cannot open it ({@code IFEXISTS}).
 */
class H2FileDialectContractTest extends H2ContractTest {

    @TempDir
    Path home;

    private Path database() {
        return home.resolve("contract");
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        H2Fixtures.run(H2Fixtures.fileUrl(database()), statements);
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        DialectContext context = new DialectContext("contract", "contract.mv.db;DATABASE_TO_LOWER=TRUE",
                Optional.of(H2Fixtures.ADMIN), Optional.of(H2Fixtures.ADMIN_PASSWORD), Duration.ofSeconds(30), 10_000, poolSize, home);
        return new H2DialectFactory().create(context, Map.of());
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("session variable (SET @)", "SET @qag_probe = 'leaked'", "SELECT @qag_probe", null),
                SessionStateProbe.of("session variable (SET function)", "SELECT SET(@qag_other, 42)",
                        "SELECT @qag_other", null));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) throws Exception {
        dialect.close();
        Files.deleteIfExists(Path.of(database() + ".mv.db"));
    }

    @Override
    protected Set<DialectError> readOnlyViolationErrors() {
        return Set.of(DialectError.NOT_READ_ONLY);
    }

    /** Read-only: agents cannot write through it. */
    @Override
    protected Set<Capability> lackedCapabilities() {
        return Set.of(Capability.AFFECTED_ROWS_CEILING);
    }
}
