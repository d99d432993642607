package io.queryapigate.siem;

import io.queryapigate.store.AuditRow;
import java.io.IOException;
import java.util.List;

/** Where audit entries go: one named output of {@code auditOutputs}. */
public interface AuditOutput extends AutoCloseable {
    /** The output's kind, as the API shows it: {@code syslog} or {@code otlp}. */
    String type();

    /** Where it sends, without credentials (for {@code /api/v1/audit/delivery}). */
    String target();

    /**
     * Sends {@code entries} (oldest first) and returns only once the receiver has taken every one of them; throws
     * otherwise, and then the deliverer sends them again later.
     */
    void send(List<AuditRow> entries) throws IOException;

    @Override
    default void close() {}
}
