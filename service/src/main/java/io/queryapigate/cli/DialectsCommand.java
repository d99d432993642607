package io.queryapigate.cli;

import io.dropwizard.core.cli.Command;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.plugins.Plugins;
import java.nio.file.Path;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code java -jar queryapigate.jar dialects [--plugins DIR]}: lists the dialects built in and those the plugins in
 * {@code DIR} bring, and the library plugins there.
 */
public final class DialectsCommand extends Command {
    public DialectsCommand() {
        super("dialects", "Lists the installed dialect plugins");
    }

    @Override
    public void configure(Subparser subparser) {
        subparser.addArgument("--plugins").dest("plugins").metavar("DIR")
                .help("also list the plugins in this folder (the configuration's plugins.directory)");
    }

    @Override
    public void run(Bootstrap<?> bootstrap, Namespace namespace) {
        ClassLoader service = DialectsCommand.class.getClassLoader();
        String folder = namespace.getString("plugins");
        Plugins plugins = folder == null ? Plugins.none(service)
                : Plugins.load(Path.of(folder).toAbsolutePath().normalize(), service);
        DialectRegistry registry = DialectRegistry.discover(service, plugins);
        for (DialectFactory f : registry.factories().values()) {
            System.out.printf("%-12s SPI %-5s %s%n", f.name(), f.spiVersion(), f.getClass().getName());
        }
        plugins.all().values().stream().filter(p -> p.dialects().isEmpty())
                .forEach(p -> System.out.printf("%-12s library plugin %s%n", p.name(), p.location()));
    }
}
