package io.queryapigate.cli;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.CheckCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.dialect.DialectRegistry;
import net.sourceforge.argparse4j.inf.Namespace;

/** Dropwizard's {@code check}, plus: every connection names an installed dialect. Opens no connection. */
public final class GatewayCheckCommand extends CheckCommand<GatewayConfiguration> {
    public GatewayCheckCommand(Application<GatewayConfiguration> application) {
        super(application);
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace,
            GatewayConfiguration configuration) throws Exception {
        DialectRegistry registry = DialectRegistry.discover(GatewayCheckCommand.class.getClassLoader());
        configuration.getConnections().forEach((name, c) -> registry.require(c.getDialect(), name));
        super.run(bootstrap, namespace, configuration);
    }
}
