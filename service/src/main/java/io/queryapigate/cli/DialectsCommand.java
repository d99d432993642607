package io.queryapigate.cli;

import io.dropwizard.core.cli.Command;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.spi.DialectFactory;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/** {@code java -jar queryapigate.jar dialects}: lists the dialect plugins found on the class path. */
public final class DialectsCommand extends Command {
    public DialectsCommand() {
        super("dialects", "Lists the installed dialect plugins");
    }

    @Override
    public void configure(Subparser subparser) {}

    @Override
    public void run(Bootstrap<?> bootstrap, Namespace namespace) {
        DialectRegistry registry = DialectRegistry.discover(DialectsCommand.class.getClassLoader());
        for (DialectFactory f : registry.factories().values()) {
            System.out.printf("%-12s SPI %-5s %s%n", f.name(), f.spiVersion(), f.getClass().getName());
        }
    }
}
