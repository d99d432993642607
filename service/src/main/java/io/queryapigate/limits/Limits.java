package io.queryapigate.limits;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.errors.ApiException;
import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import java.util.HexFormat;

/**
 * Rate limits: per client address before authentication (so key guessing is throttled too), and per key after it
 * (usage quotas are {@link Quotas}). Refusals are 429 {@code rate_limited} with {@code Retry-After}; successful responses carry {@code
 * X-RateLimit-Limit}/{@code X-RateLimit-Remaining} (address) and {@code X-RateLimit-Key-Limit}/{@code
 * X-RateLimit-Key-Remaining} (key). The administrator key is not limited; {@code /health} is never limited.
 */
public final class Limits {
    private static final String IP_DECISION = "qag.limit.ip";
    private static final String KEY_DECISION = "qag.limit.key";

    private final Limiter limiter;
    private final Rate perAddress;
    private final ClientAddress addresses;
    private final Counter rejections;
    private final Refusals refusals;

    public Limits(Limiter limiter, Rate perAddress, ClientAddress addresses, MetricRegistry metrics,
            Refusals refusals) {
        this.limiter = limiter;
        this.perAddress = perAddress;
        this.addresses = addresses;
        this.rejections = metrics.counter("limits.rejections");
        this.refusals = refusals;
    }

    /** This process's refusals of keys by their own rate limit, for the alerts. */
    public Refusals refusals() {
        return refusals;
    }

    /** Called once the key is known. */
    public void checkKey(Caller caller, ContainerRequestContext request) {
        Limiter.Decision d = keyDecision(caller);
        if (d != null) {
            request.setProperty(KEY_DECISION, d);
            refuseKey(d);
        }
    }

    /**
     * The key's own rate limit, for one request: its decision (counted as a refusal when it refuses), or null when
     * the key has none or is the administrator key. {@link #refuseKey} turns a refusal into the 429.
     */
    public Limiter.Decision keyDecision(Caller caller) {
        if (caller.admin() || caller.grants().rateLimit() == null) {
            return null;
        }
        Limiter.Decision d = limiter.tryAcquire("key:" + caller.keyId(), Rate.of(caller.grants().rateLimit()));
        if (!d.allowed()) {
            rejections.inc();
            refusals.note(caller.keyId());
        }
        return d;
    }

    /** Throws the 429 {@code rate_limited} of a key's refusing decision. */
    public static void refuseKey(Limiter.Decision d) {
        if (d != null && !d.allowed()) {
            throw ApiException.rateLimited("Rate limit exceeded for this API key.", d.retryAfterMillis());
        }
    }

    /**
     * The per-address limit, for one request from {@code remoteAddress} (through {@code forwardedFor} when it comes
     * from a trusted proxy): its decision (counted as a refusal when it refuses), or null when there is no limit.
     * {@link #refuseAddress} turns a refusal into the 429.
     */
    public Limiter.Decision addressDecision(String remoteAddress, String forwardedFor) {
        if (perAddress == null) {
            return null;
        }
        byte[] client = addresses.resolve(remoteAddress, forwardedFor);
        String bucket = "ip:" + (client == null ? "unknown" : HexFormat.of().formatHex(client));
        Limiter.Decision d = limiter.tryAcquire(bucket, perAddress);
        if (!d.allowed()) {
            rejections.inc();
        }
        return d;
    }

    /** Throws the 429 {@code rate_limited} of an address's refusing decision. */
    public static void refuseAddress(Limiter.Decision d) {
        if (d != null && !d.allowed()) {
            throw ApiException.rateLimited("Rate limit exceeded.", d.retryAfterMillis());
        }
    }

    /** The per-address limit, as a Jersey filter that runs before authentication. */
    @Priority(Priorities.AUTHENTICATION - 100)
    public final class AddressFilter implements ContainerRequestFilter, ContainerResponseFilter {
        @Context
        private HttpServletRequest servletRequest;

        @Override
        public void filter(ContainerRequestContext request) {
            if (perAddress == null || request.getUriInfo().getPath().equals("health")) {
                return;
            }
            Limiter.Decision d = addressDecision(servletRequest.getRemoteAddr(),
                    servletRequest.getHeader("X-Forwarded-For"));
            request.setProperty(IP_DECISION, d);
            refuseAddress(d);
        }

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (request.getProperty(IP_DECISION) instanceof Limiter.Decision d) {
                response.getHeaders().putSingle("X-RateLimit-Limit", d.limit());
                response.getHeaders().putSingle("X-RateLimit-Remaining", d.remaining());
            }
            if (request.getProperty(KEY_DECISION) instanceof Limiter.Decision d) {
                response.getHeaders().putSingle("X-RateLimit-Key-Limit", d.limit());
                response.getHeaders().putSingle("X-RateLimit-Key-Remaining", d.remaining());
            }
        }
    }
}
