package io.queryapigate.auth;

import java.util.List;

/**
 * The caller's address: the TCP peer, unless the peer is a trusted proxy, in which case {@code X-Forwarded-For} is
 * read from the right, skipping trusted proxies, and the first address that is not one is the client. Without
 * trusted proxies the header is ignored, so a caller cannot choose its own address.
 */
public final class ClientAddress {
    private final List<IpRange> trustedProxies;

    public ClientAddress(List<IpRange> trustedProxies) {
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    /** The client's address bytes, or null when it cannot be told (then IP-restricted keys are refused). */
    public byte[] resolve(String peer, String forwardedFor) {
        byte[] address = IpRange.literal(peer);
        if (address == null || trustedProxies.isEmpty() || !trusted(address) || forwardedFor == null) {
            return address;
        }
        String[] hops = forwardedFor.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            byte[] hop = IpRange.literal(hops[i].strip());
            if (hop == null) {
                return null;
            }
            if (!trusted(hop)) {
                return hop;
            }
            address = hop;
        }
        return address;
    }

    /**
     * Whether the client (as {@link #resolve} tells it) is in one of {@code ranges} ({@code allowed_ips}); false when
     * its address cannot be told.
     */
    public boolean within(String peer, String forwardedFor, List<String> ranges) {
        byte[] client = resolve(peer, forwardedFor);
        if (client == null) {
            return false;
        }
        for (String entry : ranges) {
            if (IpRange.of(entry).contains(client)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code peer} (the TCP peer's address) is a trusted proxy, whose forwarded headers are believed. */
    public boolean trustedProxy(String peer) {
        byte[] address = IpRange.literal(peer);
        return address != null && !trustedProxies.isEmpty() && trusted(address);
    }

    private boolean trusted(byte[] address) {
        for (IpRange r : trustedProxies) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
