package io.queryapigate.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 address or CIDR block. Parsing never touches DNS: only numeric addresses are accepted. */
public record IpRange(byte[] network, int prefix) {
    private static final Pattern V4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern V6 = Pattern.compile("[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?");

    private static final java.util.concurrent.ConcurrentMap<String, IpRange> PARSED =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** {@link #parse}, remembered: a key's ranges are checked on every call it makes. */
    public static IpRange of(String text) {
        IpRange r = PARSED.get(text);
        if (r == null) {
            r = parse(text);
            if (PARSED.size() < 10_000) {
                PARSED.put(text, r);
            }
        }
        return r;
    }

    /**
     * Parses {@code 10.0.0.0/8}, {@code 192.168.1.7}, {@code 2001:db8::/32} or {@code ::1}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static IpRange parse(String text) {
        String t = text == null ? "" : text.strip();
        int slash = t.indexOf('/');
        String address = slash < 0 ? t : t.substring(0, slash);
        byte[] bytes = literal(address);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR block");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(t.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' has an invalid prefix length");
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'" + text + "' has an invalid prefix length");
            }
        }
        return new IpRange(bytes, prefix);
    }

    /** The bytes of a numeric IP literal, or null when {@code text} is not one (IPv4-mapped IPv6 becomes IPv4). */
    public static byte[] literal(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        boolean v4 = V4.matcher(text).matches();
        if (!v4 && !(text.contains(":") && V6.matcher(text).matches())) {
            return null;
        }
        if (v4) {
            for (String part : text.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }

    public boolean contains(byte[] address) {
        if (address == null || address.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (address[full] & mask) == (network[full] & mask);
    }
}
