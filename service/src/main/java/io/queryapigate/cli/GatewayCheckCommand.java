package io.queryapigate.cli;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.CheckCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.PrivilegeCheck;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * Dropwizard's {@code check}: reading the file reports every problem at once, each with its key and line, and exits
 * 1 ({@link io.queryapigate.config.CheckingConfigurationFactory}, with {@link GatewayConfiguration#problems()}: every
 * connection names an installed dialect, URLs have their shape, ...). Opens no connection, unless {@code --connect}:
 * then it also creates each connection's dialect as startup does, prints what its database user may do beyond what
 * the gateway needs ({@link PrivilegeCheck}), and closes it. Those findings are advice: the exit status stays 0.
 */
public final class GatewayCheckCommand extends CheckCommand<GatewayConfiguration> {
    static final String CONNECT = "connect";

    public GatewayCheckCommand(Application<GatewayConfiguration> application) {
        super(application);
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--" + CONNECT)
                .action(Arguments.storeTrue())
                .dest(CONNECT)
                .help("also open each connection and warn when its database user is more privileged than the"
                        + " gateway needs (superuser, file access, other sessions, ...)");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace,
            GatewayConfiguration configuration) throws Exception {
        super.run(bootstrap, namespace, configuration);
        if (Boolean.TRUE.equals(namespace.getBoolean(CONNECT))) {
            DialectRegistry registry = configuration.dialects(
                    Path.of(configuration.getHome()).toAbsolutePath().normalize());
            reportPrivileges(configuration, registry, System.out, PrivilegeCheck.TIMEOUT);
        }
    }

    /**
     * Creates every configured connection, prints each one's privilege warnings ({@code WARNING connection 'x'
     * (dialect): ...}, or one {@code OK} line), and closes them all.
     *
     * @return the number of warnings printed
     */
    public static int reportPrivileges(GatewayConfiguration configuration, DialectRegistry registry, PrintStream out,
            Duration timeout) throws Exception {
        Path home = Path.of(configuration.getHome()).toAbsolutePath().normalize();
        Files.createDirectories(home);
        Duration serverTimeout = Duration.ofMillis(configuration.getLimits().getQueryTimeout().toMilliseconds());
        ConnectionRegistry connections = ConnectionRegistry.create(registry, configuration.getConnections(),
                serverTimeout, configuration.getLimits().getMaxRows(), home);
        int count = 0;
        try {
            for (ConnectionRegistry.Connection c : connections.all().values()) {
                List<String> found = PrivilegeCheck.warnings(c.dialect(), timeout);
                for (String line : found) {
                    out.println("WARNING connection '" + c.name() + "' (" + c.dialectName() + "): " + line);
                }
                if (found.isEmpty()) {
                    out.println("OK connection '" + c.name() + "' (" + c.dialectName() + "): no privilege warnings");
                }
                count += found.size();
            }
        } finally {
            connections.stop();
            out.flush();
        }
        return count;
    }
}
