package io.queryapigate.call;

import io.queryapigate.guard.Masking;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/** The response cache's key and a body's ETag. */
final class ResponseKeys {
    private ResponseKeys() {}

    /** Query, version, connection, format, page, parameter values and the caller's masking decide the body. */
    static String of(SavedQueryResolver.Resolved resolved, String connection, Map<String, Object> values,
            Masking.Plan mask, OutputRequest out) {
        StringBuilder sb = new StringBuilder(128);
        sb.append(resolved.query().id()).append('|').append(resolved.version().version()).append('|')
                .append(connection).append('|').append(out.format().formatName()).append('|')
                .append(out.page().map(p -> p.page() + "x" + p.pageSize()).orElse("-")).append('|');
        new TreeMap<>(values).forEach((k, v) -> sb.append(k).append('=')
                .append(v == null ? "\u0000" : v.getClass().getSimpleName() + ":" + v).append('\u0001'));
        sb.append('|').append(mask.actions());
        return hex(sha256(sb.toString().getBytes(StandardCharsets.UTF_8)));
    }

    static String etag(byte[] body) {
        return "\"" + hex(sha256(body)) + "\"";
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes).substring(0, 32);
    }
}
