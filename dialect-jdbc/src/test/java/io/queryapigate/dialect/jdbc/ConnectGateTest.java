package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gate against real sockets: a port nobody listens on refuses (the database is down), a listener bound to it
 * later accepts (it is back).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectGateTest {
    private static final ExecutorService THREADS = Executors.newCachedThreadPool();

    @AfterAll
    static void stop() {
        THREADS.shutdownNow();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A pool's wait for a connection that does not come. */
    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a driver does: a socket connect, its failure as SQLSTATE 08001. */
    private static ConnectGate.Opener<Socket> connectTo(int port, AtomicInteger attempts) {
        return () -> {
            attempts.incrementAndGet();
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (IOException e) {
                throw new SQLNonTransientConnectionException("cannot connect: " + e.getMessage(), "08001", e);
            }
        };
    }

    @Test
    void whileRefusedBorrowsFailAtOnceAndTheOpenerConnectsSoonAfterTheServerIsBack() throws Exception {
        int port = freePort();
        AtomicInteger attempts = new AtomicInteger();
        try (ConnectGate gate = new ConnectGate("connection 'test'", Duration.ofMillis(100))) {
            CompletableFuture<Socket> opened = CompletableFuture.supplyAsync(() -> {
                try {
                    return gate.open(connectTo(port, attempts));
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }, THREADS);
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!gate.isDown() && System.nanoTime() < waitUntil) {
                Thread.sleep(5);
            }
            assertThat(gate.isDown()).isTrue();

            // a borrow that would wait 30 s is refused at once, without asking the pool
            AtomicInteger poolAsked = new AtomicInteger();
            long start = System.nanoTime();
            Throwable refused = catchThrowable(() -> gate.borrow(millis -> {
                poolAsked.incrementAndGet();
                throw new SQLTransientConnectionException("timed out", "08001");
            }, System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(refused).isInstanceOf(DialectException.class).hasMessageContaining("connection 'test'")
                    .hasMessageContaining("has not answered since");
            assertThat(((DialectException) refused).error()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(poolAsked).hasValue(0);
            assertThat(tookMillis).as("refused at once").isLessThan(1_000);

            Thread.sleep(450);
            int whileDown = attempts.get();
            // one attempt per probe interval, not a busy loop (about 5 in 450 ms)
            assertThat(whileDown).isBetween(2, 10);

            try (ServerSocket back = new ServerSocket()) {
                back.setReuseAddress(true);
                back.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                long backAt = System.nanoTime();
                try (Socket socket = opened.get(10, TimeUnit.SECONDS)) {
                    long recoveredMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - backAt);
                    assertThat(socket.isConnected()).isTrue();
                    assertThat(recoveredMillis).as("the next probe connects").isLessThan(2_000);
                }
                assertThat(gate.isDown()).isFalse();
                String pooled = gate.<String>borrow(millis -> "pooled", System.nanoTime() + 1_000_000);
                assertThat(pooled).isEqualTo("pooled");
            }
        }
    }

    @Test
    void aRefusalByAServerThatAnswersGoesBackToThePoolAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        try (ConnectGate gate = new ConnectGate("connection 'test'", Duration.ofMillis(100))) {
            assertThatThrownBy(() -> gate.open(() -> {
                attempts.incrementAndGet();
                throw new SQLInvalidAuthorizationSpecException("Access denied for user 'x'", "28000");
            })).isInstanceOf(SQLInvalidAuthorizationSpecException.class);
            assertThat(attempts).hasValue(1);
            assertThat(gate.isDown()).isFalse();
        }
    }

    @Test
    void closingGivesUpAWaitingOpener() throws Exception {
        int port = freePort();
        AtomicInteger attempts = new AtomicInteger();
        ConnectGate gate = new ConnectGate("connection 'test'", Duration.ofSeconds(30));
        CompletableFuture<Throwable> opening = CompletableFuture.supplyAsync(
                () -> catchThrowable(() -> gate.open(connectTo(port, attempts))), THREADS);
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!gate.isDown() && System.nanoTime() < waitUntil) {
            Thread.sleep(5);
        }
        gate.close();
        assertThat(opening.get(5, TimeUnit.SECONDS)).isInstanceOf(SQLException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void aBorrowWaitingForABusyPoolIsRefusedSoonAfterTheDatabaseGoesDown() throws Exception {
        int port = freePort();
        try (ConnectGate gate = new ConnectGate("connection 'test'", Duration.ofMillis(100))) {
            AtomicInteger slices = new AtomicInteger();
            CompletableFuture<Throwable> borrowing = CompletableFuture.supplyAsync(() -> catchThrowable(
                    () -> gate.borrow(millis -> {
                        slices.incrementAndGet();
                        pause(millis);
                        throw new SQLTransientConnectionException("timed out after " + millis + " ms", "08001");
                    }, System.nanoTime() + TimeUnit.SECONDS.toNanos(30))), THREADS);
            Thread.sleep(300);
            CompletableFuture.runAsync(() -> catchThrowable(() -> gate.open(connectTo(port, new AtomicInteger()))),
                    THREADS);
            long start = System.nanoTime();
            Throwable refused = borrowing.get(5, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(refused).isInstanceOf(DialectException.class);
            assertThat(slices.get()).isGreaterThan(1);
            assertThat(tookMillis).as("within a slice or two of going down").isLessThan(1_000);
        }
    }

    @Test
    void aBorrowThatTimesOutThrowsThePoolsTimeoutAtTheDeadline() {
        try (ConnectGate gate = new ConnectGate("connection 'test'", Duration.ofMillis(100))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> gate.borrow(millis -> {
                pause(millis);
                throw new SQLTransientConnectionException("timed out", "08001");
            }, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(350))).isInstanceOf(
                    SQLTransientConnectionException.class);
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(350));
        }
    }

    @Test
    void connectClassFailures() {
        assertThat(ConnectGate.isConnectFailure(new SQLException("refused", "08001"))).isTrue();
        assertThat(ConnectGate.isConnectFailure(new SQLException("link failure", "08S01"))).isTrue();
        assertThat(ConnectGate.isConnectFailure(new SQLException("the database system is starting up", "57P03")))
                .isTrue();
        assertThat(ConnectGate.isConnectFailure(new SQLException("x", null, new java.net.ConnectException())))
                .isTrue();
        assertThat(ConnectGate.isConnectFailure(new SQLException("server rejected the settings", "08004")))
                .isFalse();
        assertThat(ConnectGate.isConnectFailure(new SQLException("access denied", "28000"))).isFalse();
        assertThat(ConnectGate.isConnectFailure(new SQLException("no such database", "3D000"))).isFalse();
    }
}
