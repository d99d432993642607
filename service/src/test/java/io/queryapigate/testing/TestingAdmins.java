package io.queryapigate.testing;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.util.JarLocation;
import io.queryapigate.GatewayApplication;
import io.queryapigate.GatewayConfiguration;
import io.queryapigate.cli.AdminsCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Named administrators for tests: made through the API or the {@code admins} command, with a token each. */
public final class TestingAdmins {
    private static final Pattern TOKEN = Pattern.compile("qagadm_[A-Za-z0-9_-]{43}");

    private TestingAdmins() {}

    /** Creates an administrator with {@code role} (null: none) through the API as {@code by}; returns a token of it. */
    public static String create(Http http, String by, String name, String role) {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("name", name);
        body.put("role", role);
        Http.Reply created = http.post("/api/v1/administrators", by, Http.json(body));
        if (created.status() != 201) {
            throw new AssertionError("cannot create administrator " + name + ": " + created.status() + " "
                    + created.body());
        }
        return token(http, by, name);
    }

    /** Issues a token for {@code name} as {@code by}; returns its secret. */
    public static String token(Http http, String by, String name) {
        Http.Reply issued = http.post("/api/v1/administrators/" + name + "/tokens", by, "{}");
        if (issued.status() != 201) {
            throw new AssertionError("cannot issue a token for " + name + ": " + issued.status() + " "
                    + issued.body());
        }
        return issued.json().get("secret").asText();
    }

    /** A configuration like {@link TestingConfig#write(String, String, String)}'s, without {@code auth.adminKey}. */
    public static Path withoutAdminKey(String connectionsYaml, String extraYaml, String metadataTtl) {
        Path config = TestingConfig.write(connectionsYaml, extraYaml, metadataTtl);
        try {
            String yaml = Files.readString(config);
            String auth = "auth:\n  adminKey: " + TestingConfig.ADMIN_KEY + "\n";
            if (!yaml.contains(auth)) {
                throw new AssertionError("the test configuration has no administrator key to remove");
            }
            Files.writeString(config, yaml.replace(auth, ""));
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the {@code admins} command printed, its exit (0 or 1) and the token it printed, if any. */
    public record Run(int exit, String output) {
        public String token() {
            Matcher m = TOKEN.matcher(output);
            if (!m.find()) {
                throw new AssertionError("no admin token in:\n" + output);
            }
            return m.group();
        }
    }

    /**
     * {@code java -jar queryapigate.jar admins ARGS CONFIG}, run in this JVM through Dropwizard's command line (the
     * real {@link AdminsCommand}).
     */
    public static Run cli(Path config, String... args) {
        List<String> command = new ArrayList<>(List.of("admins"));
        command.addAll(List.of(args));
        command.add(config.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        Bootstrap<GatewayConfiguration> bootstrap = new Bootstrap<>(new GatewayApplication());
        bootstrap.addCommand(new AdminsCommand(print));
        Optional<Throwable> failed;
        try {
            failed = new Cli(new JarLocation(GatewayApplication.class), bootstrap, print, print)
                    .run(command.toArray(String[]::new));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return new Run(failed.isPresent() ? 1 : 0, out.toString(StandardCharsets.UTF_8));
    }
}
