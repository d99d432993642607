package io.queryapigate.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The audit log's hash chain, as the Python original links it: an entry's hash covers the previous entry's hash, its
 * {@code seq} and its canonical JSON ({@code prev_hash \n seq \n json}). {@code hmac-sha256:<hex>} under the first key
 * of {@value #VARIABLE} when it is set (someone who can write to the store but lacks the key cannot re-sign an edit),
 * {@code sha256:<hex>} otherwise. While rotating, several comma-separated keys: the first signs, every one verifies.
 */
public final class AuditChain {
    /** The variable holding the key(s). */
    public static final String VARIABLE = "QUERYAPIGATE_AUDIT_KEY";
    /** The hash before the first entry. */
    public static final String GENESIS = "0".repeat(64);
    static final String SHA256 = "sha256:";
    static final String HMAC = "hmac-sha256:";
    private static final int MIN_KEY_LENGTH = 32;

    private final List<byte[]> keys;

    private AuditChain(List<byte[]> keys) {
        this.keys = keys;
    }

    /** An unkeyed chain (plain SHA-256). */
    public static AuditChain unkeyed() {
        return new AuditChain(List.of());
    }

    /**
     * The chain under {@value #VARIABLE}'s keys (null or blank: unkeyed).
     *
     * @throws IllegalArgumentException naming the variable when a key is shorter than 32 characters or listed twice
     */
    public static AuditChain fromVariable(String value) {
        List<String> found = new ArrayList<>();
        if (value != null) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    found.add(part.strip());
                }
            }
        }
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            String key = found.get(i);
            String which = found.size() == 1 ? VARIABLE : "Key " + (i + 1) + " of " + found.size() + " in " + VARIABLE;
            if (key.length() < MIN_KEY_LENGTH) {
                throw new IllegalArgumentException(which + " must be at least " + MIN_KEY_LENGTH
                        + " characters - e.g. from `openssl rand -hex 32`");
            }
            int first = found.indexOf(key);
            if (first < i) {
                throw new IllegalArgumentException(which + " is the same as key " + (first + 1)
                        + " - list each key once");
            }
            keys.add(key.getBytes(StandardCharsets.UTF_8));
        }
        return new AuditChain(List.copyOf(keys));
    }

    /** Whether entries are signed with a key. */
    public boolean keyed() {
        return !keys.isEmpty();
    }

    /** How many keys verify. */
    public int keyCount() {
        return keys.size();
    }

    /** The hash of a new entry: under the first key, else plain SHA-256. */
    public String hash(String prevHash, long seq, String entryJson) {
        return keys.isEmpty() ? sha256(prevHash, seq, entryJson) : hmac(keys.get(0), prevHash, seq, entryJson);
    }

    /** How a stored hash checks against an entry. */
    public enum Check {
        /** A plain SHA-256 that matches. */
        UNKEYED,
        /** A keyed hash one of the keys verifies. */
        KEYED,
        /** A keyed hash, with no key here to check it. */
        KEYED_UNCHECKED,
        /** It does not match. */
        WRONG
    }

    /** Checks {@code stored} against the entry: unkeyed, or under any key. */
    public Check check(String stored, String prevHash, long seq, String entryJson) {
        if (stored == null) {
            return Check.WRONG;
        }
        if (stored.startsWith(SHA256)) {
            return equal(stored, sha256(prevHash, seq, entryJson)) ? Check.UNKEYED : Check.WRONG;
        }
        if (stored.startsWith(HMAC)) {
            if (keys.isEmpty()) {
                return Check.KEYED_UNCHECKED;
            }
            for (byte[] key : keys) {
                if (equal(stored, hmac(key, prevHash, seq, entryJson))) {
                    return Check.KEYED;
                }
            }
        }
        return Check.WRONG;
    }

    /** Which listed key signed {@code stored} (0 for the first), or -1 for none. */
    public int signedBy(String stored, String prevHash, long seq, String entryJson) {
        for (int i = 0; i < keys.size(); i++) {
            if (equal(stored, hmac(keys.get(i), prevHash, seq, entryJson))) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] message(String prevHash, long seq, String entryJson) {
        return (prevHash + "\n" + seq + "\n" + entryJson).getBytes(StandardCharsets.UTF_8);
    }

    private static String sha256(String prevHash, long seq, String entryJson) {
        try {
            return SHA256 + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(message(prevHash, seq, entryJson)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hmac(byte[] key, String prevHash, long seq, String entryJson) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HMAC + HexFormat.of().formatHex(mac.doFinal(message(prevHash, seq, entryJson)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean equal(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
