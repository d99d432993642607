package io.queryapigate.dialect.spi;

/**
 * How a dialect keeps pooled sessions safe, as a pure function from a request to a {@link SessionPlan}.
 *
 * <p>Every dialect must make each call start from the same session state, whatever an earlier call on a reused
 * session did (changed a setting, left a transaction, turned read-only off), and must apply the call's read-only
 * mode and time limit where the user's statement cannot change them. The strategy describes what is sent to
 * achieve that; the dialect's {@link Dialect#execute} sends exactly that. Because it is data, it can be tested
 * without a server ("golden" plans) and shown to operators.
 *
 * <p>Implementations are stateless and thread-safe.
 */
@FunctionalInterface
public interface SessionStrategy {

    /**
     * The plan for one request.
     *
     * @param request the request the dialect is about to run
     * @return what will be sent for it
     */
    SessionPlan plan(QueryRequest request);
}
