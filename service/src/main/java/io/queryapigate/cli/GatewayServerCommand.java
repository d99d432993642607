package io.queryapigate.cli;

import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.core.Application;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ServerCommand;
import io.queryapigate.GatewayConfiguration;
import net.sourceforge.argparse4j.inf.Namespace;

/** Dropwizard's {@code server}, stopping on a configuration file's problems with their list alone, no stack trace. */
public final class GatewayServerCommand extends ServerCommand<GatewayConfiguration> {
    public GatewayServerCommand(Application<GatewayConfiguration> application) {
        super(application);
    }

    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        if (!printedProblems(cli, e)) {
            super.onError(cli, namespace, e);
        }
    }

    /**
     * Prints the configuration file's problems when {@code e} is about them (each with its key and line, as
     * {@link io.queryapigate.config.CheckingConfigurationFactory} reported them).
     *
     * @return whether it did; otherwise the command reports {@code e} its own way
     */
    static boolean printedProblems(Cli cli, Throwable e) {
        if (e instanceof ConfigurationException) {
            cli.getStdErr().println(e.getMessage());
            return true;
        }
        return false;
    }
}
