package io.queryapigate.dialect.mongo;

import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.util.List;
import java.util.Map;

/**
 * The MongoDB session strategy: nothing before or after the command. A pooled driver connection carries no state a
 * query could change (no session settings, no transaction: the dialect starts none, and {@code find} and {@code
 * aggregate} cannot start one), so each call is one command, {@code find} or {@code aggregate}, whose {@code
 * maxTimeMS} is the call's time limit. The command text is shown as the query document's kind and collection; the
 * document itself is the caller's.
 */
final class MongoSessionStrategy implements SessionStrategy {
    @Override
    public SessionPlan plan(QueryRequest request) {
        return new SessionPlan(List.of(), "find or aggregate (the query document)", List.of(),
                Map.of("maxTimeMS", Long.toString(Math.max(1, request.timeout().toMillis())), "readPreference",
                        "the URL's (primary by default)"),
                1, "one find or aggregate command per call with maxTimeMS set to the time limit, a client-side"
                        + " limit slightly above it, the cursor closed after maxRows documents; no transaction, no"
                        + " session state; only stages that read (no $out, $merge) and no server-side JavaScript");
    }
}
