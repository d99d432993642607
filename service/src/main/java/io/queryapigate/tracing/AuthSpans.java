package io.queryapigate.tracing;

import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.queryapigate.auth.Caller;
import java.util.Optional;

/**
 * The {@code auth} span around checking a presented credential: whether it was accepted and, if so, what kind of
 * caller it made ({@code key}, {@code administrator}, {@code user}). The credential itself never goes into it.
 */
public final class AuthSpans implements Authenticator<String, Caller> {
    static final AttributeKey<Boolean> ACCEPTED = AttributeKey.booleanKey("queryapigate.auth.accepted");
    static final AttributeKey<String> KIND = AttributeKey.stringKey("queryapigate.auth.kind");

    private final Authenticator<String, Caller> inner;
    private final Tracing tracing;

    private AuthSpans(Authenticator<String, Caller> inner, Tracing tracing) {
        this.inner = inner;
        this.tracing = tracing;
    }

    /** {@code inner} itself when tracing is off. */
    public static Authenticator<String, Caller> around(Authenticator<String, Caller> inner, Tracing tracing) {
        return tracing.on() ? new AuthSpans(inner, tracing) : inner;
    }

    @Override
    public Optional<Caller> authenticate(String credential) throws AuthenticationException {
        Span span = tracing.start("auth");
        try {
            Optional<Caller> caller = inner.authenticate(credential);
            span.setAttribute(ACCEPTED, caller.isPresent());
            caller.ifPresent(c -> span.setAttribute(KIND, c.identity().kind().name().toLowerCase(
                    java.util.Locale.ROOT)));
            return caller;
        } catch (AuthenticationException | RuntimeException e) {
            Tracing.failed(span, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }
}
