package io.queryapigate.dialect.genericjdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FreshConnections} against real HSQLDB connections, counted as they open and close: every call gets a
 * connection no call had, at most {@code size} are open at once, used and spare ones are closed, and a database
 * that cannot be reached gives a waiting caller the driver's reason.
 */
class FreshConnectionsTest {

    @TempDir
    Path home;

    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();

    /** The driver's connections, their opening and closing counted (the connection itself is HSQLDB's). */
    private FreshConnections.Opener counted(String url) {
        return () -> {
            Connection connection = HsqldbPlugin.connect(url);
            opened.incrementAndGet();
            mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("close") && !connection.isClosed()) {
                            open.decrementAndGet();
                            closed.incrementAndGet();
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
    }

    private String database() throws SQLException {
        String url = "jdbc:hsqldb:file:" + home.resolve("fresh") + ";sql.lowercase_ident=true";
        HsqldbPlugin.run(url, List.of("CREATE TABLE t (id INTEGER)", "INSERT INTO t VALUES (1)"));
        return url + ";ifexists=true";
    }

    @Test
    void everyCallGetsAConnectionNoCallHadAndAtMostSizeAreOpen() throws Exception {
        String url = database();
        Set<Connection> seen = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        try (FreshConnections connections = new FreshConnections("test", counted(url), 3)) {
            ExecutorService callers = Executors.newFixedThreadPool(8);
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                calls.add(callers.submit(() -> {
                    Connection connection = connections.take(10_000);
                    assertThat(seen.add(connection)).as("a connection handed out twice").isTrue();
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("SELECT id FROM t");
                    }
                    assertThat(connections.active()).isBetween(1, 3);
                    assertThat(connections.openCount()).isBetween(1, 3);
                    connections.release(connection);
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                call.get(30, TimeUnit.SECONDS);
            }
            callers.shutdown();
            assertThat(seen).hasSize(200);
            assertThat(mostOpen.get()).isBetween(1, 3);
            assertThat(opened.get()).isBetween(200, 203);
        }
        assertThat(closed.get()).as("used and spare connections are closed").isEqualTo(opened.get());
        assertThat(open.get()).isZero();
        for (Connection connection : seen) {
            assertThat(connection.isClosed()).isTrue();
        }
        HsqldbPlugin.run(url, List.of("SHUTDOWN"));
    }

    @Test // the wait lets the first, failing, connect answer (loading the driver's classes included)
    void aWaitingCallerIsGivenTheDriversReason() {
        String missing = "jdbc:hsqldb:file:" + home.resolve("missing") + ";ifexists=true";
        try (FreshConnections connections = new FreshConnections("test", counted(missing), 1)) {
            long start = System.nanoTime();
            SQLException failure = catchThrowableOfType(SQLException.class, () -> connections.take(2_000));
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(2_000);
            assertThat(failure.getMessage()).contains("no connection within 2000 ms");
            assertThat(failure.getNextException() != null).as("the driver's reason").isTrue();
            assertThat(failure.getNextException().getMessage()).contains("Database does not exist");
        }
        assertThat(opened.get()).isZero();
    }

    @Test
    void aClosedSourceAnswersAtOnceAndClosesWhatIsReleasedLater() throws Exception {
        String url = database();
        FreshConnections connections = new FreshConnections("test", counted(url), 2);
        Connection held = connections.take(10_000);
        connections.close();
        assertThat(catchThrowableOfType(SQLException.class, () -> connections.take(10_000)).getMessage())
                .isEqualTo("closed");
        assertThat(held.isClosed()).isFalse();
        connections.release(held);
        assertThat(held.isClosed()).isTrue();
        assertThat(closed.get()).isEqualTo(opened.get());
        HsqldbPlugin.run(url, List.of("SHUTDOWN"));
    }

    @Test
    void closingEndsAWait() throws Exception {
        String missing = "jdbc:hsqldb:file:" + home.resolve("missing") + ";ifexists=true";
        FreshConnections connections = new FreshConnections("test", counted(missing), 1);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        long start = System.nanoTime();
        Future<SQLException> waiting = caller.submit(() -> catchThrowableOfType(SQLException.class,
                () -> connections.take(30_000)));
        Thread.sleep(200);
        connections.close();
        assertThat(waiting.get(5, TimeUnit.SECONDS).getMessage()).isEqualTo("closed");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        caller.shutdown();
    }

    @Test
    void takeNewSkipsTheSparesOpenedBefore() throws Exception {
        String url = database();
        try (FreshConnections connections = new FreshConnections("test", counted(url), 2)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (connections.idle() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(connections.idle()).isEqualTo(2);
            int openedBefore = opened.get();
            Connection connection = connections.takeNew(10_000);
            assertThat(opened.get()).as("a connection opened during takeNew").isGreaterThan(openedBefore);
            assertThat(mostOpen.get()).isLessThanOrEqualTo(2);
            connections.release(connection);
        }
        HsqldbPlugin.run(url, List.of("SHUTDOWN"));
    }
}
