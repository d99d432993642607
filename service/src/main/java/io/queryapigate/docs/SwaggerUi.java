package io.queryapigate.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Swagger UI as the {@code org.webjars:swagger-ui} jar puts it on the class path: its version (read from the
 * webjar's Maven properties, so a new webjar moves every address with it) and the four files the docs page loads.
 * Nothing else of the webjar is answered: its own index page and initializer load a public demo spec.
 */
public final class SwaggerUi {
    private static final String PROPERTIES = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
    private static final String ROOT = "META-INF/resources/webjars/swagger-ui/";
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z.+-]{1,40}");
    /** The files the page loads, with their media types. */
    static final Map<String, String> FILES = Map.of(
            "swagger-ui-bundle.js", "text/javascript; charset=utf-8",
            "swagger-ui.css", "text/css; charset=utf-8",
            "favicon-32x32.png", "image/png",
            "favicon-16x16.png", "image/png");

    private final ClassLoader loader;
    private final String version;

    private SwaggerUi(ClassLoader loader, String version) {
        this.loader = loader;
        this.version = version;
    }

    /**
     * The webjar on {@code loader}'s class path.
     *
     * @throws IllegalStateException when it or one of the page's files is missing (a packaging mistake, found at
     *     startup rather than by the first visitor)
     */
    public static SwaggerUi fromClassPath(ClassLoader loader) {
        Properties p = new Properties();
        try (InputStream in = loader.getResourceAsStream(PROPERTIES)) {
            if (in == null) {
                throw new IllegalStateException("Swagger UI (org.webjars:swagger-ui) is not on the class path");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = p.getProperty("version", "");
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalStateException("Swagger UI's webjar names no usable version: '" + version + "'");
        }
        SwaggerUi ui = new SwaggerUi(loader, version);
        for (String name : FILES.keySet()) {
            if (loader.getResource(ui.resource(name)) == null) {
                throw new IllegalStateException("Swagger UI " + version + " lacks " + name);
            }
        }
        return ui;
    }

    /** The webjar's version, e.g. {@code 5.34.1}. */
    public String version() {
        return version;
    }

    /** One of the page's files of this version, or empty for any other name or version. */
    public Optional<Asset> file(String askedVersion, String name) {
        String type = FILES.get(name);
        if (type == null || !version.equals(askedVersion)) {
            return Optional.empty();
        }
        String resource = resource(name);
        return Optional.of(new Asset(type, () -> loader.getResourceAsStream(resource), Asset.IMMUTABLE, null));
    }

    private String resource(String name) {
        return ROOT + version + "/" + name;
    }
}
