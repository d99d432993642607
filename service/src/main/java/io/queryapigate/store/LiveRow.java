package io.queryapigate.store;

import org.jdbi.v3.core.mapper.Nested;
import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * One call of the event log as the live stream reads it: the run as the run history shows it (its trace id too) and
 * the workspace it belongs to (its saved query's, else its connection's, else {@code default}: the rule of {@code GET
 * /api/v1/history}).
 */
public record LiveRow(RunRow run, String workspace) {

    @JdbiConstructor
    public LiveRow(@Nested RunRow run, String workspace) {
        this.run = run;
        this.workspace = workspace;
    }
}
