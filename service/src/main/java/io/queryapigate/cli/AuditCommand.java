package io.queryapigate.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.audit.AuditChain;
import io.queryapigate.audit.AuditVerifier;
import io.queryapigate.store.Store;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code audit verify CONFIG}: walks the store's audit log from its anchor (docs/audit.md) and prints the report
 * {@code GET /api/v1/audit/verify} gives; exits 0 when the chain is intact, 1 when it is broken (naming the first
 * broken {@code seq} and why). Keyed entries are checked with {@value AuditChain#VARIABLE}'s keys.
 */
public final class AuditCommand extends ConfiguredCommand<GatewayConfiguration> {
    private final PrintStream out;
    private final Map<String, String> variables;

    public AuditCommand() {
        this(System.out, System.getenv());
    }

    /** Printing to {@code out}, with the keys of {@code variables} (tests). */
    public AuditCommand(PrintStream out, Map<String, String> variables) {
        super("audit", "Verifies the audit log's hash chain: audit verify CONFIG");
        this.out = out;
        this.variables = variables;
    }

    @Override
    public void configure(Subparser subparser) {
        subparser.addArgument("action").choices("verify").help("verify: walk the chain from its anchor");
        super.configure(subparser);
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace, GatewayConfiguration config)
            throws Exception {
        String url = Store.resolveUrl(config.getStore().getUrl(), Path.of(config.getHome()).toAbsolutePath());
        Store.migrate(url, config.getStore().getUser(), config.getStore().getPassword());
        Store store = Store.connect(url, config.getStore().getUser(), config.getStore().getPassword());
        Map<String, Object> report = new AuditVerifier(store.jdbi(),
                AuditChain.fromVariable(variables.get(AuditChain.VARIABLE))).verify();
        out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        if (!Boolean.TRUE.equals(report.get("intact"))) {
            Map<?, ?> broken = (Map<?, ?>) report.get("break");
            throw new IllegalStateException("the chain is broken at seq " + broken.get("seq") + " ("
                    + broken.get("problem") + "): " + broken.get("detail"));
        }
        out.println("Intact: " + report.get("entries") + " entries, seq " + report.get("first_seq") + " to "
                + report.get("last_seq") + (Boolean.TRUE.equals(report.get("keyed")) ? ", keyed" : ", unkeyed")
                + ".");
    }

    /** A broken chain or a bad key is a message, not a stack trace. */
    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        cli.getStdErr().println("queryapigate audit verify: " + e.getMessage());
    }
}
