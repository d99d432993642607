package io.queryapigate.docs;

import java.io.InputStream;
import java.util.function.Supplier;

/**
 * One file the docs page loads, as it is answered.
 *
 * @param mediaType its {@code Content-Type}
 * @param content opens its bytes (a new stream per answer)
 * @param cacheControl its {@code Cache-Control}
 * @param etag a strong entity tag (without quotes) to revalidate with, or null where nothing revalidates
 */
public record Asset(String mediaType, Supplier<InputStream> content, String cacheControl, String etag) {
    /** Versioned files: their address changes with their content, so a browser keeps them for a year unasked. */
    public static final String IMMUTABLE = "public, max-age=31536000, immutable";
    /** The page's own files: kept, but asked again (a 304 when unchanged) since their address has no version. */
    public static final String REVALIDATE = "no-cache";
}
