package io.queryapigate.console;

import io.queryapigate.http.JarFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Console's files, read once from the jar and joined into four bundles: the Console's own script and style sheet
 * (the files {@code bundle.txt} lists, in its order) and the SQL editor's (CodeMirror 5 from its webjar). Each bundle
 * is named by its content's hash ({@code app.3f9c0e1d2a4b.js}), so a browser keeps it for a year and a new release is
 * a new address: nothing is built by Node, nothing comes from a CDN.
 */
public final class ConsoleAssets {
    static final String RESOURCES = "/io/queryapigate/console/";
    /** The CodeMirror release the editor bundle is made of (the webjar's version in the pom). */
    static final String CODEMIRROR = "/META-INF/resources/webjars/codemirror/5.65.21/";

    /** One bundle: its hashed file name, type and bytes. */
    public record Bundle(String name, String mediaType, byte[] bytes) {}

    private final Map<String, Bundle> byName = new LinkedHashMap<>();
    private final Map<String, String> names = new LinkedHashMap<>();

    private ConsoleAssets() {}

    /** Reads and joins the bundles. */
    public static ConsoleAssets load() {
        ConsoleAssets assets = new ConsoleAssets();
        List<String> scripts = new ArrayList<>();
        List<String> styles = new ArrayList<>();
        for (String line : new String(JarFiles.read(RESOURCES + "bundle.txt"), StandardCharsets.UTF_8).split("\n")) {
            String file = line.strip();
            if (file.isEmpty() || file.startsWith("#")) {
                continue;
            }
            (file.endsWith(".css") ? styles : scripts).add(RESOURCES + file);
        }
        assets.add("app", "js", "text/javascript; charset=utf-8", scripts);
        assets.add("app", "css", "text/css; charset=utf-8", styles);
        assets.add("editor", "js", "text/javascript; charset=utf-8",
                List.of(CODEMIRROR + "lib/codemirror.js", CODEMIRROR + "mode/sql/sql.js"));
        assets.add("editor", "css", "text/css; charset=utf-8", List.of(CODEMIRROR + "lib/codemirror.css"));
        return assets;
    }

    /** The hashed file name of a bundle ({@code app.js} gives {@code app.<hash>.js}). */
    public String name(String plain) {
        String name = names.get(plain);
        if (name == null) {
            throw new IllegalArgumentException("no console bundle " + plain);
        }
        return name;
    }

    /** The bundle with this hashed file name, or empty. */
    public Optional<Bundle> bundle(String hashedName) {
        return Optional.ofNullable(byName.get(hashedName));
    }

    private void add(String base, String extension, String mediaType, List<String> files) {
        StringBuilder joined = new StringBuilder();
        for (String file : files) {
            joined.append("/* ").append(file.substring(file.lastIndexOf('/', file.lastIndexOf('/') - 1) + 1))
                    .append(" */\n").append(new String(JarFiles.read(file), StandardCharsets.UTF_8)).append('\n');
        }
        byte[] bytes = joined.toString().getBytes(StandardCharsets.UTF_8);
        String name = base + "." + JarFiles.sha256Hex(bytes).substring(0, 12) + "." + extension;
        byName.put(name, new Bundle(name, mediaType, bytes));
        names.put(base + "." + extension, name);
    }
}
