package io.queryapigate.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A request body read away unread. A refusal answered before the body was read would leave it on the connection, and
 * Jetty would then close the connection after the answer; a client reusing it would find it gone. Bodies are bounded
 * by the request-body limit ({@link RequestIdFilter}), so reading one away costs at most that.
 */
public final class Bodies {
    private Bodies() {}

    /** Reads {@code body} to its end and closes it; a client that went away is no error here. */
    public static void discard(InputStream body) {
        try (body) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException gone) {
            // the connection is closed anyway: the answer goes to no one
        }
    }
}
