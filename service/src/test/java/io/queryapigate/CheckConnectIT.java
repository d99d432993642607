package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code check --connect} on the packaged jar: it opens each connection and prints its privilege warnings (the
 * test's PostgreSQL user is a superuser), exits 0, and ends; plain {@code check} still opens nothing.
 */
class CheckConnectIT {
    private static final TestingPostgres.Database PG = TestingPostgres.server();

    private static Path repo() {
        return Path.of(System.getProperty("qag.repo", "..")).toAbsolutePath().normalize();
    }

    private static Path jar() {
        return Path.of(System.getProperty("qag.jar", "target/queryapigate.jar")).toAbsolutePath();
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private record Run(int exit, String output) {}

    private static Run check(Path config, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(),
                "--enable-native-access=ALL-UNNAMED", "-jar", jar().toString(), "check"));
        command.addAll(List.of(flags));
        command.add(config.toString());
        ProcessBuilder pb = new ProcessBuilder(command).directory(repo().toFile()).redirectErrorStream(true);
        pb.environment().put("QAG_IT_PG_PASSWORD", PG.password());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("check did not end: %s", out).isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void connectPrintsEachConnectionsWarningsAndPlainCheckOpensNothing() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection()
                + "  sales:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: ${QAG_IT_PG_PASSWORD}\n    poolSize: 1\n", "");

        Run plain = check(config);
        assertThat(plain.exit()).as(plain.output()).isZero();
        assertThat(plain.output()).doesNotContain("WARNING connection").doesNotContain("OK connection");
        // plain check opened no connection: the DuckDB demo database (made on first open) does not exist yet
        assertThat(config.getParent().resolve("demo.duckdb")).doesNotExist();

        Run connect = check(config, "--connect");
        assertThat(connect.exit()).as(connect.output()).isZero();
        assertThat(connect.output())
                .contains("WARNING connection 'sales' (postgres): PostgreSQL role \"" + PG.user() + "\" is a superuser")
                .contains("OK connection 'demo' (duckdb): no privilege warnings");
        assertThat(config.getParent().resolve("demo.duckdb")).exists();
    }
}
