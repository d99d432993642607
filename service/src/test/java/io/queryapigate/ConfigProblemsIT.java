package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingQuickstart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A configuration file with several mistakes, given to the packaged jar: {@code server} and {@code check} both stop
 * with exit status 1 and print every problem, each as {@code file:line: key: what}, and no stack trace; a good file
 * still passes {@code check}.
 */
class ConfigProblemsIT {
    private static Path bad;

    private record Run(int exit, String output) {}

    private static Run run(String... args) throws Exception {
        Process p = TestingQuickstart.command(args).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("did not end: %s", out).isTrue();
        return new Run(p.exitValue(), out);
    }

    @BeforeAll
    static void write() {
        bad = TestingConfig.write(TestingConfig.demoConnection()
                + "  shop:\n    dialect: postgres\n    url: postgresql://db/shop\n    poolSize: eight\n",
                "limits:\n  queryTimeOut: 5s\nredis:\n  url: http://cache:6379\n");
    }

    private static int lineOf(String text) throws Exception {
        var lines = Files.readAllLines(bad);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError(text + " is not in " + bad);
    }

    private void assertAllReported(Run run) throws Exception {
        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains(bad + " has 4 problems:")
                .contains(bad + ":" + lineOf("postgresql://db/shop")
                        + ": connections.shop.url: 'postgresql://db/shop' is not a postgres URL")
                .contains(bad + ":" + lineOf("poolSize: eight")
                        + ": connections.shop.poolSize: 'eight': expected a whole number")
                .contains(bad + ":" + lineOf("queryTimeOut")
                        + ": limits.queryTimeOut: unknown key (did you mean queryTimeout?)")
                .contains(bad + ":" + lineOf("http://cache") + ": redis.url:")
                .doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void serverStopsNamingEveryProblemWithoutAStackTrace() throws Exception {
        assertAllReported(run("server", bad.toString()));
    }

    @Test
    void checkReportsEveryProblemAndAGoodFilePasses() throws Exception {
        assertAllReported(run("check", bad.toString()));
        Run good = run("check", TestingConfig.write(TestingConfig.demoConnection(), "").toString());
        assertThat(good.exit()).as(good.output()).isZero();
    }
}
