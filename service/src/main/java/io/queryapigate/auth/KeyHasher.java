package io.queryapigate.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** API key secrets: generated with a CSPRNG, stored only as SHA-256. */
public final class KeyHasher {
    public static final String PREFIX = "qag_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private KeyHasher() {}

    /** A new secret: {@code qag_} and 32 random bytes in URL-safe base64 (43 characters). */
    public static String newSecret() {
        return newSecret(PREFIX);
    }

    /** A new secret: {@code prefix} and 32 random bytes in URL-safe base64 (personal admin tokens: {@code qagadm_}). */
    public static String newSecret(String prefix) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String hashHex(String secret) {
        return HexFormat.of().formatHex(sha256(secret));
    }

    /** The part of a secret safe to show in listings. */
    public static String displayPrefix(String secret) {
        return secret.substring(0, Math.min(secret.length(), PREFIX.length() + 6));
    }
}
