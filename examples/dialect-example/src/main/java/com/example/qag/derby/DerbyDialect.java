package com.example.qag.derby;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import io.queryapigate.dialect.spi.TableNamespace;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One configured Derby connection: a pool of embedded Derby sessions on one database directory, shared by every
 * request thread.
 *
 * <p>Each call borrows a session, runs the statement its {@link DerbySessionStrategy} plans with the parameters bound,
 * within the call's time limit (waiting for a session included), and hands the session back: a read's session is
 * rolled back and kept, any other is closed and replaced. Reads run on a connection Derby holds read-only, and only
 * statements Derby compiles as queries run in them. Derby's failures are classified by SQLSTATE ({@link DerbyErrors}).
 */
public final class DerbyDialect implements Dialect {

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.SERVER_ENFORCED_READ_ONLY,
            Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION, Capability.BIND_PARAMETERS, Capability.STREAMING,
            Capability.AFFECTED_ROWS_CEILING));

    /** How many open dialects use each database: the last one to close shuts the database down. */
    private static final Map<Path, Integer> USERS = new HashMap<>();

    private final Driver driver;
    private final Path database;
    private final DerbySessions sessions;
    private final DerbySessionStrategy strategy = new DerbySessionStrategy();
    private final AtomicBoolean closed = new AtomicBoolean();

    DerbyDialect(Driver driver, Path database, int poolSize) {
        this.driver = driver;
        this.database = database;
        this.sessions = new DerbySessions(driver, database, poolSize);
        synchronized (USERS) {
            USERS.merge(database, 1, Integer::sum);
        }
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return strategy;
    }

    /**
     * Standard SQL text, except that Derby's bracketed comments nest: {@code /* a /* b *}{@code / 1 *}{@code /} is
     * one comment.
     */
    @Override
    public LexicalRules lexicalRules() {
        return LexicalRules.ANSI.named("derby").with(LexicalRules.Feature.NESTED_COMMENTS);
    }

    /** Derby's schema when no user is given; unquoted names compare without regard to case. */
    @Override
    public TableNamespace defaultNamespace() {
        return new TableNamespace(null, "APP");
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        SessionPlan plan = strategy.plan(request);
        return onSession(request, sink, session -> request.mode() == AccessMode.READ
                ? read(session, plan, request, sink)
                : write(session, plan, request, sink));
    }

    private static QueryStats read(Connection session, SessionPlan plan, QueryRequest request, RowSink sink)
            throws SQLException {
        try (PreparedStatement statement = prepare(session, plan, request)) {
            if (statement.getMetaData() == null) {
                // Derby's read-only connection refuses data changes and DDL, but not every procedure (SYSCS_UTIL's
                // exports write files), so a read runs only what Derby compiled as a query
                throw new DialectException(DialectError.NOT_READ_ONLY, "a read must be a query; Derby compiled this"
                        + " statement as one that returns no rows (a write, DDL, CALL or SET), so it was not run");
            }
            DerbyValues.bind(statement, request.parameters());
            statement.setMaxRows((int) Math.min(Integer.MAX_VALUE, request.maxRows() + 1));
            QueryStats stats;
            try (ResultSet rows = statement.executeQuery()) {
                stats = stream(rows, request.maxRows(), sink);
            }
            session.rollback();
            return stats;
        }
    }

    private static QueryStats write(Connection session, SessionPlan plan, QueryRequest request, RowSink sink)
            throws SQLException {
        session.setReadOnly(false);
        try (PreparedStatement statement = prepare(session, plan, request)) {
            DerbyValues.bind(statement, request.parameters());
            if (statement.execute()) {
                QueryStats stats;
                try (ResultSet rows = statement.getResultSet()) {
                    stats = stream(rows, request.maxRows(), sink);
                }
                session.commit();
                return stats;
            }
            long changed = Math.max(0, statement.getLargeUpdateCount());
            long ceiling = request.maxAffectedRows();
            if (ceiling > 0 && changed > ceiling) {
                session.rollback();
                throw new AffectedRowsExceeded(changed, ceiling);
            }
            session.commit();
            return new QueryStats(0, changed, false);
        }
    }

    /** The plan's statement prepared; again with typed markers when Derby cannot type one (see the strategy). */
    private static PreparedStatement prepare(Connection session, SessionPlan plan, QueryRequest request)
            throws SQLException {
        try {
            return session.prepareStatement(plan.statement());
        } catch (SQLException e) {
            if (request.parameters().isEmpty() || !DerbySessionStrategy.UNTYPED_MARKER.contains(e.getSQLState())) {
                throw e;
            }
            return session.prepareStatement(DerbySessionStrategy.typeMarkers(plan.statement(), request.parameters()));
        }
    }

    private static QueryStats stream(ResultSet rows, long maxRows, RowSink sink) throws SQLException {
        List<ColumnInfo> columns = DerbyValues.columns(rows.getMetaData());
        sink.columns(columns);
        Object[] row = new Object[columns.size()];
        long count = 0;
        while (rows.next()) {
            if (count == maxRows) {
                return QueryStats.read(count, true);
            }
            for (int i = 0; i < row.length; i++) {
                row[i] = DerbyValues.read(rows, i + 1, columns.get(i).type());
            }
            count++;
            if (!sink.row(row)) {
                break;
            }
        }
        return QueryStats.read(count, false);
    }

    /**
     * Prepares the statement without running it (Derby compiles it; nothing is executed) and answers the columns it
     * would return, with their nullability; a statement that returns no rows answers none.
     */
    @Override
    public Optional<List<ColumnInfo>> describe(QueryRequest request) {
        SessionPlan plan = strategy.plan(request.withMode(AccessMode.READ));
        return Optional.of(onSession(request.withMode(AccessMode.READ), null, session -> {
            try (PreparedStatement statement = prepare(session, plan, request)) {
                ResultSetMetaData metaData = statement.getMetaData();
                session.rollback();
                return metaData == null ? List.of() : DerbyValues.columns(metaData);
            }
        }));
    }

    /** {@code Derby} and the engine's version as its driver reports it, such as {@code Derby 10.17.1.0 - (1913217)}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        QueryRequest request = QueryRequest.read("VALUES 1", List.of(), timeout, 1);
        return Optional.of(onSession(request, null,
                session -> "Derby " + session.getMetaData().getDatabaseProductVersion()));
    }

    @Override
    public void checkHealth(Duration timeout) {
        try {
            execute(QueryRequest.read("VALUES 1", List.of(), timeout, 1), new RowSink() {
                @Override
                public void columns(List<ColumnInfo> columns) {}

                @Override
                public boolean row(Object[] values) {
                    return true;
                }
            });
        } catch (DialectException e) {
            if (e.error() == DialectError.UNAVAILABLE) {
                throw e;
            }
            throw new DialectException(DialectError.UNAVAILABLE, "Derby database " + database + " did not answer: "
                    + e.getMessage(), e.sqlState(), e);
        }
    }

    /** Work done on a borrowed session. */
    private interface SessionWork<T> {
        T run(Connection session) throws SQLException;
    }

    /**
     * Borrows a session for {@code work} within the request's time limit, stops the work at that limit or when the
     * sink's cancel callback is called, translates Derby's failures, and hands the session back: kept only after a
     * read that ended normally.
     */
    private <T> T onSession(QueryRequest request, RowSink sink, SessionWork<T> work) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        Connection session = sessions.acquire(request.timeout().toNanos());
        Stopper stopper = new Stopper();
        boolean reusable = false;
        try {
            if (sink != null) {
                sink.onCancellable(stopper::cancel);
            }
            stopper.start(Duration.ofNanos(deadline - System.nanoTime()));
            T result = work.run(session);
            reusable = stopper.finish() == null && request.mode() == AccessMode.READ;
            return result;
        } catch (SQLException e) {
            throw DerbyErrors.map(e, stopper.finish());
        } catch (DialectException e) {
            stopper.finish();
            throw e;
        } finally {
            stopper.finish();
            sessions.release(session, reusable);
        }
    }

    /**
     * Closes the sessions; the last open dialect on a database also shuts the database down, which releases its
     * files for other processes. Idempotent: later calls fail {@code UNAVAILABLE}.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sessions.close();
        boolean last;
        synchronized (USERS) {
            last = USERS.merge(database, -1, Integer::sum) == 0;
            if (last) {
                USERS.remove(database);
            }
        }
        if (last) {
            try {
                driver.connect("jdbc:derby:" + database + ";shutdown=true", new Properties());
            } catch (SQLException e) {
                // Derby answers a shutdown with SQLSTATE 08006 ("database shut down"): that is success
            }
        }
    }
}
