package io.queryapigate.cli;

import io.dropwizard.auth.Authenticator;
import io.dropwizard.core.Application;
import io.dropwizard.core.cli.EnvironmentCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.auth.Caller;
import io.queryapigate.mcp.McpEndpoint;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.function.Supplier;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;
import org.eclipse.jetty.util.component.ContainerLifeCycle;

/**
 * {@code queryapigate mcp --stdio CONFIG}: the MCP server over stdio for one local agent, acting as the API key in
 * {@code QUERYAPIGATE_API_KEY} (it does not start without a valid one). The application is built as {@code server}
 * builds it (store, connections, the call pipeline) and its managed parts started, but no HTTP listener; one JSON-RPC
 * message a line on stdin, the answers on stdout, every log line on stderr.
 */
public final class McpCommand extends EnvironmentCommand<GatewayConfiguration> {
    /** The environment variable holding the API key the stdio server acts as. */
    public static final String API_KEY = "QUERYAPIGATE_API_KEY";

    /** What the application built: the MCP server and REST's authenticator. */
    public record Served(McpEndpoint endpoint, Authenticator<String, Caller> credentials) {}

    private final Supplier<Served> served;

    public McpCommand(Application<GatewayConfiguration> application, Supplier<Served> served) {
        super(application, "mcp", "Serve the MCP server over stdio for a local agent (QUERYAPIGATE_API_KEY)");
        this.served = served;
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--stdio").action(Arguments.storeTrue()).dest("stdio").required(true)
                .help("speak MCP on stdin/stdout (the only transport of this command; HTTP is served by `server`"
                        + " at /mcp)");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace,
            GatewayConfiguration configuration) throws Exception {
        // stdout is the protocol: every log line, and anything else printed, goes to stderr
        if (configuration.getLoggingFactory() instanceof DefaultLoggingFactory logging) {
            logging.getAppenders().forEach(a -> {
                if (a instanceof ConsoleAppenderFactory<?> console) {
                    console.setTarget(ConsoleAppenderFactory.ConsoleStream.STDERR);
                }
            });
            logging.configure(bootstrap.getMetricRegistry(), bootstrap.getApplication().getName());
        }
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        String key = System.getenv(API_KEY);
        if (key == null || key.isBlank()) { // before anything starts
            throw new IllegalStateException(API_KEY + ": set it to the API key the MCP server acts as");
        }
        stdout = protocol;
        super.run(bootstrap, namespace, configuration);
    }

    private OutputStream stdout;

    @Override
    protected void run(Environment environment, Namespace namespace, GatewayConfiguration configuration)
            throws Exception {
        ContainerLifeCycle parts = new ContainerLifeCycle();
        environment.lifecycle().attach(parts);
        parts.start();
        try {
            Served s = served.get();
            s.endpoint().serveStdio(s.credentials(), System.getenv(API_KEY), System.in, stdout);
        } finally {
            parts.stop();
        }
    }

    /** A configuration file with problems lists them, without a stack trace. */
    @Override
    public void onError(io.dropwizard.core.cli.Cli cli, net.sourceforge.argparse4j.inf.Namespace namespace,
            Throwable e) {
        if (!GatewayServerCommand.printedProblems(cli, e)) {
            super.onError(cli, namespace, e);
        }
    }
}
