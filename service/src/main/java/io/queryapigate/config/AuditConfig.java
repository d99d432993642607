package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.queryapigate.audit.AuditChain;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.store.Store;
import jakarta.validation.constraints.Min;
import java.time.Clock;
import java.util.Map;

/**
 * The {@code audit} block: how many audit entries retention keeps ({@code audit.maxEntries}; the Python original's
 * {@value #LIMIT_VARIABLE}, when set, wins). The chain's key comes from {@value AuditChain#VARIABLE} only, never
 * from a file.
 */
public class AuditConfig {
    /** The Python original's variable for the cap. */
    public static final String LIMIT_VARIABLE = "QUERYAPIGATE_AUDIT_LOG_LIMIT";
    static final int DEFAULT_MAX_ENTRIES = 500;

    @Min(1)
    private int maxEntries = DEFAULT_MAX_ENTRIES;

    @JsonProperty
    public int getMaxEntries() {
        return maxEntries;
    }

    @JsonProperty
    public void setMaxEntries(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * The cap in force: {@value #LIMIT_VARIABLE} when set, else {@code audit.maxEntries}.
     *
     * @throws IllegalArgumentException naming the variable when it is not a positive whole number
     */
    public int maxEntries(Map<String, String> variables) {
        String raw = variables.get(LIMIT_VARIABLE);
        if (raw == null || raw.isBlank()) {
            return maxEntries;
        }
        try {
            int value = Integer.parseInt(raw.strip());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(LIMIT_VARIABLE + " must be a whole number of at least 1, got '" + raw
                + "'");
    }

    /** The audit log of {@code store}, keyed by {@value AuditChain#VARIABLE}; a bad key or cap stops startup. */
    public AuditLog build(Store store, Map<String, String> variables, Clock clock) {
        return new AuditLog(store, AuditChain.fromVariable(variables.get(AuditChain.VARIABLE)), clock,
                maxEntries(variables));
    }
}
