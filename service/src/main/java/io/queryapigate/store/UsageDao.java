package io.queryapigate.store;

import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlBatch;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;
import org.jdbi.v3.sqlobject.transaction.Transaction;

/** The quota counters: calls and rows per key and period, added to by every instance. */
@RegisterConstructorMapper(UsageDao.Counter.class)
public interface UsageDao {
    /** A key's calls and rows in one period ({@code day:2026-12-01}, {@code month:2026-12}). */
    record Counter(long keyId, String period, long calls, long rowsOut) {}

    @SqlQuery("SELECT key_id, period, calls, rows_out FROM usage_counters WHERE period = :day OR period = :month")
    List<Counter> current(@Bind("day") String day, @Bind("month") String month);

    /** Adds each counter's calls and rows to the stored ones. */
    @SqlBatch("INSERT INTO usage_counters (key_id, period, calls, rows_out, updated_at)"
            + " VALUES (:keyId, :period, :calls, :rowsOut, :at) ON CONFLICT (key_id, period) DO UPDATE SET"
            + " calls = usage_counters.calls + excluded.calls, rows_out = usage_counters.rows_out + excluded.rows_out,"
            + " updated_at = excluded.updated_at")
    @Transaction
    void add(@org.jdbi.v3.sqlobject.customizer.BindMethods List<Counter> counters, @Bind("at") long at);

    @SqlUpdate("DELETE FROM usage_counters WHERE updated_at < :before")
    int trim(@Bind("before") long before);

    @SqlUpdate("DELETE FROM usage_counters WHERE key_id = :keyId")
    int forget(@Bind("keyId") long keyId);

    @org.jdbi.v3.sqlobject.statement.SqlQuery("SELECT count(*) FROM usage_counters WHERE key_id = :keyId")
    int periodsOf(@Bind("keyId") long keyId);
}
