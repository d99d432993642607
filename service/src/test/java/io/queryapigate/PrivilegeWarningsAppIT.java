package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.PrivilegeCheck;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * At startup each connection's privilege warnings are logged at WARN, in the background: the service starts and
 * answers while a database is down, and that connection's check ends with one "could not check" line.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PrivilegeWarningsAppIT {
    private static final TestingPostgres.Database PG = TestingPostgres.server();
    private static final ListAppender<ILoggingEvent> LOGGED = new ListAppender<>();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection()
                    + "  sales:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                    + "\n    password: " + PG.password() + "\n    poolSize: 1\n"
                    + "  down:\n    dialect: postgres\n    url: jdbc:postgresql://127.0.0.1:" + closedPort()
                    + "/test\n    user: nobody\n    password: nothing-here\n    poolSize: 1\n", "").toString());

    static {
        // after Dropwizard configured logging, before the managed objects (and so the checks) start
        APP.addListener(new DropwizardAppExtension.ServiceListener<>() {
            @Override
            public void onRun(GatewayConfiguration configuration, Environment environment,
                    DropwizardAppExtension<GatewayConfiguration> rule) {
                Logger logger = (Logger) LoggerFactory.getLogger(PrivilegeCheck.class);
                LOGGED.start();
                logger.addAppender(LOGGED);
            }
        });
    }

    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> warnings() {
        synchronized (LOGGED) {
            List<String> out = new ArrayList<>();
            for (ILoggingEvent e : LOGGED.list) {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                out.add(e.getFormattedMessage());
            }
            return out;
        }
    }

    @Test
    void eachConnectionsWarningsAreLoggedWithoutHoldingUpStartup() throws Exception {
        // the service answers at once, whatever the checks are doing
        assertThat(new Http("http://127.0.0.1:" + APP.getLocalPort()).get("/health", null).status()).isEqualTo(200);
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline && warnings().size() < 2) {
            Thread.sleep(100);
        }
        List<String> lines = warnings();
        assertThat(lines).as("logged: %s", lines).hasSize(2);
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("Connection 'sales' (postgres): PostgreSQL role \"" + PG.user() + "\" is a superuser"));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("Connection 'down' (postgres): could not check the database user's privileges")
                .doesNotContain("nothing-here"));
        assertThat(lines).noneMatch(line -> line.contains("'demo'"));
    }
}
