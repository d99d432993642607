package io.queryapigate.docs;

import io.queryapigate.http.JarFiles;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The interactive API docs at {@code /docs}: Swagger UI from the jar (never from a CDN) with a key field of its own.
 * The key typed there is kept in the tab's {@code sessionStorage} only and sent as {@code X-API-Key} with the spec
 * request ({@code /openapi.json}, so the page shows what that key may call) and with every "Try it out" request.
 *
 * <p>The page runs no inline script and no inline handler: its script and style are files ({@code docs.js}, {@code
 * docs.css}), and {@link #CSP} allows scripts, styles, images and requests from the gateway's own origin only.
 */
public final class DocsPage {
    /** The page's address. */
    public static final String PATH = "/docs";
    /** Where Swagger UI's files are, under a folder named by its version. */
    public static final String SWAGGER_UI_PATH = PATH + "/swagger-ui/";
    /**
     * The page's Content-Security-Policy. Sources are whole origins ({@code 'self'}): a CSP path needs a host, which
     * behind a proxy only the browser knows. Nothing else on this origin can serve as a script or a style sheet: every
     * other answer is data with its own type and {@code nosniff}.
     */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String RESOURCES = "/io/queryapigate/docs/";
    private static final Map<String, String> OWN_FILES = Map.of(
            "docs.js", "text/javascript; charset=utf-8",
            "docs.css", "text/css; charset=utf-8");

    private final SwaggerUi swaggerUi;
    private final String html;
    private final Map<String, byte[]> own;

    private DocsPage(SwaggerUi swaggerUi, String html, Map<String, byte[]> own) {
        this.swaggerUi = swaggerUi;
        this.html = html;
        this.own = own;
    }

    /** The page for this Swagger UI, its template and own files read once from the class path. */
    public static DocsPage of(SwaggerUi swaggerUi) {
        String html = new String(JarFiles.read(RESOURCES + "docs.html"), StandardCharsets.UTF_8)
                .replace("{{swagger-ui}}", SWAGGER_UI_PATH + swaggerUi.version() + "/");
        return new DocsPage(swaggerUi, html, Map.of("docs.js", JarFiles.read(RESOURCES + "docs.js"), "docs.css",
                JarFiles.read(RESOURCES + "docs.css")));
    }

    /** The HTML page. */
    public String html() {
        return html;
    }

    /** Swagger UI's version, as its files' folder names it. */
    public String swaggerUiVersion() {
        return swaggerUi.version();
    }

    /** A file of Swagger UI the page loads, or empty. */
    public Optional<Asset> swaggerUiFile(String version, String name) {
        return swaggerUi.file(version, name);
    }

    /** One of the page's own files ({@code docs.js}, {@code docs.css}), or empty. */
    public Optional<Asset> ownFile(String name) {
        byte[] bytes = own.get(name);
        if (bytes == null) {
            return Optional.empty();
        }
        return Optional.of(new Asset(OWN_FILES.get(name), () -> new ByteArrayInputStream(bytes),
                Asset.REVALIDATE, JarFiles.sha256Hex(bytes).substring(0, 32)));
    }
}
