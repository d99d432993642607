package io.queryapigate.dialect.genericjdbc;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The contract, against an HSQLDB file database through HSQLDB's driver loaded as a plugin. */
class GenericJdbcDialectContractTest extends AbstractDialectContractTest {

    @TempDir
    Path home;

    private String url() {
        // ifexists: once makeUnavailable removed the database, a new connection fails instead of creating it anew
        return database() + ";ifexists=true";
    }

    /** HSQLDB folds unquoted names to upper case; the contract's column labels are lower case. */
    private String database() {
        return "jdbc:hsqldb:file:" + home.resolve("contract") + ";sql.lowercase_ident=true";
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        HsqldbPlugin.run(database(), statements);
    }

    @AfterEach
    void shutDown() {
        try {
            HsqldbPlugin.run(url(), List.of("SHUTDOWN"));
        } catch (SQLException alreadyGone) {
            // makeUnavailable shut it down
        }
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        return HsqldbPlugin.create(url(), poolSize, home);
    }

    @Override
    protected String slowQuery() {
        return crossJoin(14);
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of(crossJoin(8));
    }

    /** {@code 5^n} rows counted: HSQLDB checks for a cancel or a timeout while it walks a table. */
    static String crossJoin(int n) {
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM " + TABLE + " t0");
        for (int i = 1; i < n; i++) {
            sql.append(", ").append(TABLE).append(" t").append(i);
        }
        return sql.toString();
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("SET SCHEMA", "SET SCHEMA INFORMATION_SCHEMA", "VALUES CURRENT_SCHEMA", "PUBLIC"),
                SessionStateProbe.of("session read-write", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                        "SELECT VALUE FROM INFORMATION_SCHEMA.SYSTEM_SESSIONINFO WHERE KEY = 'SESSION READONLY'",
                        "TRUE"),
                SessionStateProbe.of("result memory rows", "SET SESSION RESULT MEMORY ROWS 10",
                        "SELECT VALUE FROM INFORMATION_SCHEMA.SYSTEM_SESSIONINFO WHERE KEY = 'RESULT MEMORY ROWS'",
                        "0"),
                SessionStateProbe.of("temporary table", "DECLARE LOCAL TEMPORARY TABLE qag_leak (x INTEGER)",
                        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_TABLES WHERE TABLE_NAME = 'QAG_LEAK'", "0"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) throws Exception {
        // the contract calls this on a pool of one: first let the dialect finish closing the last call's connection
        // and opening its next one, since an open racing the SHUTDOWN below would open the database again
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!settled(dialect.metrics())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the dialect did not settle: " + dialect.metrics());
            }
            Thread.sleep(10);
        }
        HsqldbPlugin.run(url(), List.of("SHUTDOWN"));
        try (var files = java.nio.file.Files.list(home)) {
            for (Path file : files.toList()) {
                if (java.nio.file.Files.isRegularFile(file)) {
                    java.nio.file.Files.delete(file);
                }
            }
        }
    }

    /** One connection open, and it is the spare: nothing is being opened or closed. */
    private static boolean settled(java.util.Map<String, Number> metrics) {
        return metrics.get("pool.idle").intValue() == 1 && metrics.get("pool.total").intValue() == 1;
    }

    /** A driver's read-only hint is not a lock this dialect can promise (docs/dialects/jdbc.md). */
    @Override
    protected Set<Capability> lackedCapabilities() {
        return Set.of(Capability.SERVER_ENFORCED_READ_ONLY);
    }

    @Override
    protected boolean describesStatements() {
        return false;
    }

    @Override
    protected boolean describesNamespaces() {
        return false;
    }
}
