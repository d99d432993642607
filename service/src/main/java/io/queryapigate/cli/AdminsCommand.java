package io.queryapigate.cli;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.admins.Administrators;
import io.queryapigate.http.ServerTime;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.Store;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code admins create NAME --role ROLE CONFIG | token NAME CONFIG | list CONFIG}: named administrators straight in
 * the store, with no server and no key, as the Python original's {@code queryapigate admins}: so that the first owner
 * of a server without {@code auth.adminKey} can be made (and a locked-out one given a new token) by whoever runs
 * commands on it. {@code create} and {@code token} print a new admin token, shown this once.
 */
public final class AdminsCommand extends ConfiguredCommand<GatewayConfiguration> {
    /** How long a token made here works unless {@code --expires} says otherwise, as the original's. */
    static final int DEFAULT_TOKEN_DAYS = 90;

    private final PrintStream out;

    public AdminsCommand() {
        this(System.out);
    }

    /** A command that prints to {@code out}. */
    public AdminsCommand(PrintStream out) {
        super("admins", "Create named administrators and issue their admin tokens, straight in the store - no server"
                + " or key needed");
        this.out = out;
    }

    @Override
    public void configure(Subparser subparser) {
        subparser.addArgument("action").choices("create", "token", "list")
                .help("create: an administrator and its first token; token: another token for one (who lost theirs,"
                        + " or a new CI job); list: the administrators");
        subparser.addArgument("name").nargs("?").help("the administrator (create, token)");
        super.configure(subparser);
        subparser.addArgument("--role").choices("owner", "admin", "developer", "auditor")
                .help("create: the administrator's role (owner for the first one)");
        subparser.addArgument("--email").help("create: their email address");
        subparser.addArgument("--label").help("what the token is for, e.g. 'laptop' or 'ci'");
        subparser.addArgument("--expires").help("the token's last day, YYYY-MM-DD, or 'never' (default: "
                + DEFAULT_TOKEN_DAYS + " days from today)");
    }

    /** {@code list CONFIG}: the configuration file is the one positional after the action. */
    @Override
    public void run(Bootstrap<?> bootstrap, Namespace namespace) throws Exception {
        if (namespace.getString("file") == null && namespace.getString("name") != null
                && "list".equals(namespace.getString("action"))) {
            Map<String, Object> attrs = new HashMap<>(namespace.getAttrs());
            attrs.put("file", attrs.put("name", null));
            namespace = new Namespace(attrs);
        }
        super.run(bootstrap, namespace);
    }

    @Override
    protected void run(Bootstrap<GatewayConfiguration> bootstrap, Namespace ns, GatewayConfiguration config)
            throws Exception {
        Path home = Path.of(config.getHome()).toAbsolutePath().normalize();
        Files.createDirectories(home);
        String url = Store.resolveUrl(config.getStore().getUrl(), home);
        Store.migrate(url, config.getStore().getUser(), config.getStore().getPassword());
        Store store = Store.connect(url, config.getStore().getUser(), config.getStore().getPassword());
        Clock clock = Clock.systemUTC();
        Administrators admins = new Administrators(store.jdbi(), config.getAuth().getAdminKey() != null, clock,
                config.getAudit().build(store, System.getenv(), clock));
        String action = ns.getString("action");
        String name = ns.getString("name");
        if (!action.equals("list") && name == null) {
            throw new IllegalArgumentException(action + " needs the administrator's name: admins " + action
                    + " NAME" + (action.equals("create") ? " --role ROLE" : "") + " CONFIG");
        }
        Acting.as(Actor.cli("admins " + action), () -> {
            act(ns, admins, action, name, clock);
            return null;
        });
    }

    private void act(Namespace ns, Administrators admins, String action, String name, Clock clock) {
        switch (action) {
            case "create" -> {
                if (ns.getString("role") == null) {
                    throw new IllegalArgumentException("create needs --role (owner, admin, developer or auditor)");
                }
                AdministratorRow admin = admins.create(name, ns.getString("role"), ns.getString("email"), "cli");
                out.println("Created administrator " + admin.name() + " (" + admin.role() + ").");
                print(admins.issue(name, ns.getString("label"), expiry(ns.getString("expires"), clock)), name);
            }
            case "token" -> print(admins.issue(name, ns.getString("label"), expiry(ns.getString("expires"), clock)),
                    name);
            default -> list(admins);
        }
    }

    private void list(Administrators admins) {
        if (admins.list().isEmpty()) {
            out.println("No administrators yet. Create the first owner with:  admins create NAME --role owner CONFIG");
        }
        for (AdministratorRow admin : admins.list()) {
            out.println(admin.name() + "  " + admin.role() + (admin.email() == null ? "" : "  <" + admin.email() + ">")
                    + "  last seen " + (admin.lastSeenAt() == null ? "never" : ServerTime.format(admin.lastSeenAt()))
                    + (admin.active() ? "" : "  (inactive)"));
        }
    }

    private void print(Administrators.Issued issued, String name) {
        String expiry = issued.token().expiresAt() == null ? "never expires"
                : "expires " + issued.token().expiresAt();
        out.println("Admin token " + Administrators.tokenId(issued.token()) + " for " + name + " (" + expiry
                + ") - store it now, it cannot be shown again:");
        out.println("  " + issued.secret());
        out.println("Use it as the X-API-Key header (or Authorization: Bearer).");
    }

    static String expiry(String value, Clock clock) {
        if ("never".equals(value)) {
            return null;
        }
        return value != null ? value : LocalDate.now(clock.withZone(ZoneOffset.UTC)).plusDays(DEFAULT_TOKEN_DAYS)
                .toString();
    }

    /** A refusal is a message, not a stack trace. */
    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        cli.getStdErr().println("queryapigate admins " + namespace.getString("action") + ": " + e.getMessage());
    }
}
