package io.queryapigate.secrets;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.util.SecretBytes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Secrets encrypted at rest (connection passwords): AES-256-GCM through a Tink keyset built from the keys in
 * {@code QUERYAPIGATE_SECRET_KEY}, comma-separated, each 32 bytes in (URL-safe) base64, as the Python original's
 * Fernet keys are written. The first key encrypts; every listed key decrypts, so keys rotate by listing the new one
 * first, re-encrypting ({@code rekey}), then dropping the old one. A sealed value is {@code tink1:} and the
 * ciphertext in URL-safe base64; the ciphertext starts with the id of its key (Tink's own prefix), and the
 * associated data binds it to what it protects (a connection's password cannot be copied to another connection).
 */
public final class SecretBox {
    /** The environment variable holding the keys. */
    public static final String VARIABLE = "QUERYAPIGATE_SECRET_KEY";
    private static final String PREFIX = "tink1:";

    private final List<Integer> keyIds;
    private final Aead aead;

    private SecretBox(List<Integer> keyIds, Aead aead) {
        this.keyIds = keyIds;
        this.aead = aead;
    }

    /**
     * The box for {@code keys} as the environment variable holds them; an empty box (cannot seal or open) when
     * null or blank.
     *
     * @throws IllegalStateException naming which key is malformed or listed twice
     */
    public static SecretBox of(String keys) {
        if (keys == null || keys.isBlank()) {
            return new SecretBox(List.of(), null);
        }
        String[] parts = keys.split(",");
        List<Integer> ids = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        try {
            AeadConfig.register();
            AesGcmParameters parameters = AesGcmParameters.builder().setKeySizeBytes(32).setIvSizeBytes(12)
                    .setTagSizeBytes(16).setVariant(AesGcmParameters.Variant.TINK).build();
            KeysetHandle.Builder keyset = KeysetHandle.newBuilder();
            int n = 0;
            for (String part : parts) {
                n++;
                String which = parts.length == 1 ? VARIABLE : "Key " + n + " of " + parts.length + " in " + VARIABLE;
                byte[] bytes = decode(part.strip(), which);
                int id = idOf(bytes);
                if (!seen.add(id)) {
                    throw new IllegalStateException(which + " is listed twice");
                }
                ids.add(id);
                AesGcmKey key = AesGcmKey.builder().setParameters(parameters).setIdRequirement(id)
                        .setKeyBytes(SecretBytes.copyFrom(bytes, InsecureSecretKeyAccess.get())).build();
                KeysetHandle.Builder.Entry entry = KeysetHandle.importKey(key);
                keyset.addEntry(n == 1 ? entry.makePrimary() : entry);
            }
            Aead aead = keyset.build().getPrimitive(RegistryConfiguration.get(), Aead.class);
            return new SecretBox(List.copyOf(ids), aead);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(VARIABLE + " could not be used: " + e.getMessage(), e);
        }
    }

    /** A new random key, written as {@link #of} reads it. */
    public static String newKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return Base64.getUrlEncoder().encodeToString(key);
    }

    /** True when a key is configured: {@link #seal} and {@link #open} work. */
    public boolean canSeal() {
        return aead != null;
    }

    /** How many keys are listed. */
    public int keyCount() {
        return keyIds.size();
    }

    /** True when {@code text} looks like a value {@link #seal} wrote. */
    public static boolean isSealed(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    /**
     * Encrypts {@code plaintext} under the first key.
     *
     * @param context what the value protects, such as {@code connection:sales:password}; the same text must be
     *     given to {@link #open}
     * @throws IllegalStateException when no key is configured
     */
    public String seal(String plaintext, String context) {
        requireKey();
        try {
            byte[] ciphertext = aead.encrypt(plaintext.getBytes(StandardCharsets.UTF_8), ad(context));
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(ciphertext);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encrypting failed: " + e.getClass().getSimpleName(), e);
        }
    }

    /**
     * Decrypts a value {@link #seal} wrote for the same {@code context}.
     *
     * @throws SecretUnavailableException when no listed key decrypts it (a key missing from {@value #VARIABLE}, a
     *     value altered or copied from elsewhere); the message never holds the value
     */
    public String open(String sealed, String context) {
        requireKey();
        byte[] ciphertext = ciphertext(sealed);
        try {
            return new String(aead.decrypt(ciphertext, ad(context)), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new SecretUnavailableException("No key in " + VARIABLE + " decrypts the stored secret of "
                    + context + (keyIndex(sealed).isEmpty() ? " (it was encrypted with a key no longer listed)"
                    : " (it was altered, or belongs to something else)"));
        }
    }

    /** Which listed key (0 = the first) {@code sealed} is encrypted with, or empty when none is listed. */
    public Optional<Integer> keyIndex(String sealed) {
        byte[] c = ciphertext(sealed);
        if (c.length < 5) {
            return Optional.empty();
        }
        int index = keyIds.indexOf(ByteBuffer.wrap(c, 1, 4).getInt());
        return index < 0 ? Optional.empty() : Optional.of(index);
    }

    private void requireKey() {
        if (aead == null) {
            throw new IllegalStateException(VARIABLE + " is not set: there is no key to encrypt or decrypt with");
        }
    }

    private static byte[] ciphertext(String sealed) {
        if (!isSealed(sealed)) {
            throw new SecretUnavailableException("a stored secret is not in the sealed format");
        }
        try {
            return Base64.getUrlDecoder().decode(sealed.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new SecretUnavailableException("a stored secret is not in the sealed format");
        }
    }

    private static byte[] ad(String context) {
        return ("queryapigate:" + context).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] decode(String text, String which) {
        byte[] bytes = null;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            try {
                bytes = Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException ignored) {
                // reported below
            }
        }
        if (bytes == null || bytes.length != 32) {
            throw new IllegalStateException(which + " must be 32 random bytes in base64 (44 characters, such as"
                    + " the output of `openssl rand -base64 32`; a Fernet key of the Python original works too)");
        }
        return bytes;
    }

    /** A key's id: the first four bytes of its SHA-256, so the same key gets the same id on every instance. */
    private static int idOf(byte[] key) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(key), 0, 4).getInt();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Never shows the keys. */
    @Override
    public String toString() {
        return "SecretBox[keys=" + keyIds.size() + "]";
    }
}
