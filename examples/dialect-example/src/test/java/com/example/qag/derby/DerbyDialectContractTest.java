package com.example.qag.derby;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/**
 * The QueryAPIGate contract, against a real embedded Derby database in a temporary directory.
 *
 * <p>Switched off on purpose: the schema browser ({@link #describesNamespaces()}), because Derby keeps no comments
 * on tables or columns and the contract's browser checks require them. Every other check runs, the capability-gated
 * ones included (the dialect declares them all).
 */
class DerbyDialectContractTest extends AbstractDialectContractTest {

    @TempDir
    Path home;

    private Path database() {
        return home.resolve("contract");
    }

    @Override // through Derby directly, not the dialect
    protected void setUpFixture(List<String> statements) throws Exception {
        try (Connection connection = DerbyDialectFactory.embeddedDriver()
                        .connect("jdbc:derby:" + database() + ";create=true", new Properties());
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    // 42Y55, X0X05: no such table, view
                    if (!sql.startsWith("DROP ") || !List.of("42Y55", "X0X05").contains(e.getSQLState())) {
                        throw e;
                    }
                }
            }
        }
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        DialectContext context = new DialectContext("contract", "contract", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, poolSize, home);
        return new DerbyDialectFactory().create(context, Map.of());
    }

    /** Derby has no {@code DROP ... IF EXISTS} (the fixture ignores "no such table") nor {@code DATE '...'}. */
    @Override
    protected List<String> fixtureStatements() {
        return FIXTURE_SQL.stream()
                .map(sql -> sql.replace(" IF EXISTS", ""))
                .map(sql -> sql.replaceAll("(DATE|TIMESTAMP) ('[^']*')", "$1($2)"))
                .toList();
    }

    /** The browser's fixture without {@code IF EXISTS} and comments (Derby has neither); only its setup runs. */
    @Override
    protected List<String> schemaFixtureStatements() {
        return super.schemaFixtureStatements().stream()
                .filter(sql -> !sql.startsWith("COMMENT ON"))
                .map(sql -> sql.replace(" IF EXISTS", ""))
                .toList();
    }

    @Override // Derby's SELECT needs a FROM: its one-row table
    protected String failsWhenRun() {
        return "SELECT (SELECT id FROM " + TABLE + ") AS one_id FROM SYSIBM.SYSDUMMY1";
    }

    @Override // a cross join of the catalogue, minutes long, one row
    protected String slowQuery() {
        return "SELECT count(*) FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b, SYS.SYSCOLUMNS c, SYS.SYSCOLUMNS d";
    }

    @Override // well under a second to a few seconds
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of("SELECT count(*) FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b, SYS.SYSTABLES c");
    }

    /**
     * Reads cannot change session state (Derby compiles SET and CALL as statements without rows, which a read
     * refuses), so the changes are sent as writes; the next read must still see the defaults.
     */
    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                new SessionStateProbe("current schema", "SET SCHEMA SYS", AccessMode.WRITE, "VALUES CURRENT SCHEMA",
                        "APP"),
                new SessionStateProbe("isolation level", "SET ISOLATION SERIALIZABLE", AccessMode.WRITE,
                        "VALUES CURRENT ISOLATION", "CS"),
                new SessionStateProbe("runtime statistics", "CALL SYSCS_UTIL.SYSCS_SET_RUNTIMESTATISTICS(1)",
                        AccessMode.WRITE, "VALUES SYSCS_UTIL.SYSCS_GET_RUNTIMESTATISTICS()", null));
        // a temporary table cannot be probed here (reading a missing one fails): DerbySecurityTest covers it
    }

    @Override // describe reports NOT NULL as Derby's prepared statement does
    protected boolean describesNullability() {
        return true;
    }

    @Override // Derby has no comments on tables or columns: the browser's contract cannot be met
    protected boolean describesNamespaces() {
        return false;
    }

    @Override // the database is shut down and its directory removed
    protected void makeUnavailable(Dialect dialect) throws Exception {
        try {
            DerbyDialectFactory.embeddedDriver().connect("jdbc:derby:" + database() + ";shutdown=true", new Properties());
        } catch (SQLException e) {
            // 08006: shut down
        }
        try (Stream<Path> files = Files.walk(database())) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
