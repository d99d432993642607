package io.queryapigate.call;

import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.errors.ApiException;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.guard.Guarding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed call tells its caller. A refusal raised while the rows arrived (masking) is itself. The database's
 * message can echo values ({@code invalid input syntax for type integer: "123-45-6789"}) and names objects beyond the
 * caller's reach: a caller restricted to tables or with masked columns, and any key but the administrator's running
 * a saved query (whose SQL it did not write), gets the error's class and SQLSTATE only; the message goes to the log
 * under the request id.
 */
final class FailureDisclosure {
    private static final Logger LOG = LoggerFactory.getLogger(FailureDisclosure.class);

    private FailureDisclosure() {}

    static RuntimeException toCaller(CallRequest request, DialectException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ApiException refusal) {
                return refusal;
            }
        }
        Caller caller = request.caller();
        if (!DialectErrors.showsDatabaseMessage(e.error())
                || !(Guarding.restricted(caller) || request.isSavedQuery() && !caller.admin())) {
            return e;
        }
        LOG.info("request {}: the database refused the query (key {}): {}", request.requestId(), caller.keyId(),
                e.getMessage());
        return new DialectException(e.error(), (e.sqlState() == null ? "" : "SQLSTATE " + e.sqlState() + "; ")
                + "the database's message is withheld for this API key (the server log has it under this request "
                + "id).", e.sqlState(), null);
    }
}
