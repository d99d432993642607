package io.queryapigate.cli;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.secrets.Rekey;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.store.Store;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code rekey CONFIG [--dry-run] [--forget-undecryptable]}: says which key in {@value SecretBox#VARIABLE} each
 * stored password is under, then re-encrypts them all under the first key in one transaction (docs/secrets.md).
 */
public final class RekeyCommand extends ConfiguredCommand<GatewayConfiguration> {
    private final PrintStream out;

    public RekeyCommand() {
        this(System.out);
    }

    RekeyCommand(PrintStream out) {
        super("rekey", "Re-encrypts every stored password under the first key in " + SecretBox.VARIABLE
                + ", so the others can be removed");
        this.out = out;
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--dry-run", "--check").dest("dryRun").action(Arguments.storeTrue())
                .help("only report how many passwords are under each key; change nothing");
        subparser.addArgument("--forget-undecryptable").dest("forget").action(Arguments.storeTrue())
                .help("clear the passwords no listed key decrypts (their key is lost), so they can be entered again");
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace namespace, GatewayConfiguration config) {
        String url = Store.resolveUrl(config.getStore().getUrl(), Path.of(config.getHome()));
        Store.migrate(url, config.getStore().getUser(), config.getStore().getPassword());
        Store store = Store.connect(url, config.getStore().getUser(), config.getStore().getPassword());
        Rekey rekey = new Rekey(store.jdbi(), SecretBox.of(System.getenv(SecretBox.VARIABLE)),
                (action, changes) -> config.getAudit().build(store, System.getenv(), java.time.Clock.systemUTC())
                        .append(action, "secret_key", changes));
        out.println(Acting.as(Actor.cli("rekey"), () -> run(rekey, namespace.getBoolean("dryRun"),
                namespace.getBoolean("forget"))));
        int undecryptable = rekey.report().undecryptable().size();
        if (undecryptable > 0) { // what a script running it must not take for success
            throw new IllegalStateException(undecryptable + " password(s) no listed key decrypts");
        }
    }

    /**
     * What the command prints.
     *
     * @throws Rekey.Refused without a key, or when a value no listed key decrypts (nothing changed)
     */
    static String run(Rekey rekey, boolean dryRun, boolean forget) {
        StringBuilder text = new StringBuilder();
        if (forget) {
            List<String> cleared = dryRun ? rekey.report().undecryptable() : rekey.forgetUndecryptable();
            text.append(dryRun ? "Would clear " : "Cleared ").append(cleared.size())
                    .append(" password(s) no listed key decrypts").append(cleared.isEmpty() ? "." : ": ")
                    .append(String.join(", ", cleared)).append('\n');
            if (!dryRun && !cleared.isEmpty()) {
                text.append("Enter them again (PATCH /api/v1/connections/NAME) once the server is up.\n");
            }
            return text.append(rekey.report().describe()).toString();
        }
        Rekey.Report found;
        if (dryRun) {
            found = rekey.check();
        } else {
            found = rekey.rekey();
            text.append("Re-encrypted ").append(found.rekeyed()).append(" password(s) under the first key.\n");
        }
        text.append(found.describe());
        for (String name : found.undecryptable()) {
            text.append("\n  no listed key decrypts connection '").append(name).append('\'');
        }
        if (found.keys() > 1 && found.underOldKeys() == 0 && found.undecryptable().isEmpty()) {
            text.append("\nNothing is left under the other keys: remove them from ").append(SecretBox.VARIABLE)
                    .append(" on every instance.");
        } else if (dryRun && found.underOldKeys() > 0) {
            text.append("\nRun `queryapigate rekey` to move them to the first key.");
        }
        return text.toString();
    }

    /** A refusal is a message, not a stack trace. */
    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        cli.getStdErr().println("queryapigate rekey: " + e.getMessage());
    }
}
