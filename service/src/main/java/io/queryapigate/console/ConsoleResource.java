package io.queryapigate.console;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * The Console at {@code /console}: one page (the same for every address under {@code /console/}, so a reload or a
 * link to a screen works) that loads the Console's bundles, and the bundles under {@code /console/assets/}. The page
 * holds no data: every screen reads and writes through the JSON API ({@code /api/v1}, {@code /auth}, {@code /events})
 * with the console session's cookie and CSRF token, under the same checks as any other caller.
 */
@Path(ConsoleResource.PATH)
public class ConsoleResource {
    public static final String PATH = "/console";
    /**
     * The page's Content-Security-Policy: scripts, styles, images and requests from the gateway's own origin only; no
     * inline script or style, no frames, forms post nowhere but here.
     */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final ConsoleAssets assets;
    private final String page;

    public ConsoleResource(ConsoleAssets assets, String version) {
        this.assets = assets;
        this.page = """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="color-scheme" content="light dark">
                <title>QueryAPIGate Console</title>
                <link rel="icon" href="data:,">
                <link rel="stylesheet" href="/console/assets/%s">
                <link rel="stylesheet" href="/console/assets/%s">
                <script defer src="/console/assets/%s"></script>
                <script defer src="/console/assets/%s"></script>
                </head>
                <body data-version="%s">
                <noscript><p>The Console needs JavaScript. Everything it does is also in the API: see <a
                href="/docs">/docs</a>.</p></noscript>
                <div id="app" aria-live="polite"></div>
                </body>
                </html>
                """.formatted(assets.name("editor.css"), assets.name("app.css"), assets.name("editor.js"),
                assets.name("app.js"), version.replaceAll("[^A-Za-z0-9._+-]", ""));
    }

    @GET
    public Response page() {
        return Response.ok(page, "text/html; charset=utf-8").header("Content-Security-Policy", CSP)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache").build();
    }

    /** A screen's address: the same page, whose script shows the screen. */
    @GET
    @Path("{screen: (?!assets/).+}")
    public Response screen(@PathParam("screen") String screen) {
        if (screen.substring(screen.lastIndexOf('/') + 1).contains(".")) {
            throw new NotFoundException(); // a file that does not exist is no screen
        }
        return page();
    }

    /** The original's old admin page's address: old bookmarks land on the Console, as there. */
    @Path("/ui")
    public static final class OldAddress {
        @GET
        public Response moved() {
            return Response.status(Response.Status.MOVED_PERMANENTLY).location(java.net.URI.create(PATH + "/"))
                    .build();
        }
    }

    @GET
    @Path("assets/{file}")
    public Response asset(@PathParam("file") String file) {
        ConsoleAssets.Bundle bundle = assets.bundle(file).orElseThrow(NotFoundException::new);
        return Response.ok(bundle.bytes(), bundle.mediaType()).header(HttpHeaders.CACHE_CONTROL, IMMUTABLE).build();
    }
}
