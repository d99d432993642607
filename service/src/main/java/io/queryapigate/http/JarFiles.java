package io.queryapigate.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Files the gateway serves from its own jar (the /docs page, the Console): read whole, named by their content. */
public final class JarFiles {
    private JarFiles() {
    }

    /** The bytes of the class-path resource {@code resource} (an absolute path); fails when the jar lacks it. */
    public static byte[] read(String resource) {
        try (InputStream in = JarFiles.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SHA-256 of {@code bytes} in lower-case hex, for cache-busting names and ETags. */
    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
