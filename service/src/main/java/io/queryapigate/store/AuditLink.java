package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/** A row of {@code audit_chain}: the chain's head (newest entry) or anchor (newest entry retention trimmed). */
public record AuditLink(long seq, String hash) {
    @JdbiConstructor
    public AuditLink {}
}
