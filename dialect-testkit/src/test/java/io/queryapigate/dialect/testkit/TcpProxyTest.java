package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The proxy in front of a local echo server: forwarding, counting, cutting, freezing, the delay. */
class TcpProxyTest {

    private static final Duration DELAY = Duration.ofNanos(250_000);
    private static ServerSocket echo;

    @BeforeAll
    static void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                Socket s;
                try {
                    s = echo.accept();
                } catch (IOException e) {
                    return;
                }
                Thread.ofPlatform().daemon().start(() -> {
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        s.setTcpNoDelay(true);
                        in.transferTo(out);
                    } catch (IOException ignored) {
                        // the client went away
                    }
                });
            }
        });
    }

    @AfterAll
    static void stopEcho() throws IOException {
        echo.close();
    }

    private static InetSocketAddress target() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort());
    }

    private static Socket connect(TcpProxy proxy) throws IOException {
        Socket s = new Socket();
        s.connect(proxy.address(), 2_000);
        s.setTcpNoDelay(true);
        s.setSoTimeout(5_000);
        return s;
    }

    /** Sends one byte and waits for its echo; returns the nanoseconds it took. */
    private static long roundTrip(Socket s) throws IOException {
        long start = System.nanoTime();
        s.getOutputStream().write(42);
        assertThat(s.getInputStream().read()).isEqualTo(42);
        return System.nanoTime() - start;
    }

    @Test
    void forwardsBothWaysAndCounts() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(target()).recordSent().start(); Socket s = connect(proxy)) {
            byte[] hello = "hello, server".getBytes(StandardCharsets.UTF_8);
            s.getOutputStream().write(hello);
            assertThat(s.getInputStream().readNBytes(hello.length)).isEqualTo(hello);
            try (Socket second = connect(proxy)) {
                roundTrip(second);
            }
            assertThat(proxy.connections()).isEqualTo(2);
            assertThat(proxy.bytesSent()).isEqualTo(hello.length + 1);
            assertThat(proxy.bytesReceived()).isEqualTo(hello.length + 1);
            assertThat(proxy.sent()).isEqualTo("hello, server*");
            assertThat(proxy.hostPort()).isEqualTo("127.0.0.1:" + proxy.port());
        }
    }

    @Test
    void eachConnectionHasATapOfItsOwn() throws Exception {
        List<StringBuilder> taps = new CopyOnWriteArrayList<>();
        try (TcpProxy proxy = TcpProxy.to(target()).tap(() -> {
            StringBuilder seen = new StringBuilder();
            taps.add(seen);
            return (bytes, offset, length) -> seen.append(new String(bytes, offset, length, StandardCharsets.UTF_8));
        }).start(); Socket a = connect(proxy); Socket b = connect(proxy)) {
            a.getOutputStream().write("one".getBytes(StandardCharsets.UTF_8));
            a.getInputStream().readNBytes(3);
            b.getOutputStream().write("two".getBytes(StandardCharsets.UTF_8));
            b.getInputStream().readNBytes(3);
            assertThat(taps).extracting(StringBuilder::toString).containsExactlyInAnyOrder("one", "two");
        }
        assertThatThrownBy(() -> {
            try (TcpProxy plain = new TcpProxy(target())) {
                plain.sent();
            }
        }).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCutDropsEveryConnectionAndRefusesNewOnesUntilRestored() throws Exception {
        try (TcpProxy proxy = new TcpProxy(target())) {
            Socket open = connect(proxy);
            roundTrip(open);
            proxy.cut();
            assertThat(open.getInputStream().read()).as("end of stream").isEqualTo(-1);
            assertThatThrownBy(() -> connect(proxy)).isInstanceOf(ConnectException.class);

            proxy.restore();
            try (Socket again = connect(proxy)) {
                roundTrip(again);
            }
            assertThat(proxy.connections()).isEqualTo(2);
        }
    }

    @Test
    void noConnectionSurvivesClose() throws Exception {
        // clients connect while the proxy closes; whatever got through before must be cut, and nothing after
        for (int round = 0; round < 100; round++) {
            TcpProxy proxy = new TcpProxy(target());
            List<Socket> clients = new CopyOnWriteArrayList<>();
            CountDownLatch started = new CountDownLatch(1);
            Thread dialer = Thread.ofPlatform().daemon().start(() -> {
                started.countDown();
                for (int i = 0; i < 20; i++) {
                    try {
                        clients.add(connect(proxy));
                    } catch (IOException refused) {
                        return;
                    }
                }
            });
            started.await();
            proxy.close();
            dialer.join(5_000);
            for (Socket c : clients) {
                try (c) {
                    c.setSoTimeout(2_000);
                    c.getOutputStream().write(1);
                    assertThat(c.getInputStream().read()).as("round %d: an echo through a closed proxy", round)
                            .isEqualTo(-1);
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("round " + round + ": a connection survived close()", e);
                } catch (IOException reset) {
                    // cut: a reset is as good as end-of-stream
                }
            }
        }
    }

    @Test
    void aFrozenConnectionGetsNothingUntilThawedAndNewConnectionsAreNotFrozen() throws Exception {
        try (TcpProxy proxy = new TcpProxy(target()); Socket frozen = connect(proxy)) {
            roundTrip(frozen);
            proxy.freeze();
            frozen.setSoTimeout(300);
            frozen.getOutputStream().write(7);
            assertThatThrownBy(() -> frozen.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            try (Socket fresh = connect(proxy)) {
                roundTrip(fresh);
            }
            proxy.unfreeze();
            frozen.setSoTimeout(5_000);
            assertThat(frozen.getInputStream().read()).as("held back, then forwarded").isEqualTo(7);
            roundTrip(frozen);
        }
    }

    @Test
    void aDelayAddsAtLeastTwiceItselfToARoundTripWithoutSerialisingConnections() throws Exception {
        int trips = 200;
        long[] plain;
        long[] delayed;
        try (TcpProxy proxy = new TcpProxy(target()); Socket s = connect(proxy)) {
            plain = roundTrips(s, trips);
            proxy.delay(DELAY);
            delayed = roundTrips(s, trips);
        }
        long floor = 2 * DELAY.toNanos();
        assertThat(delayed[0]).as("the fastest delayed round trip").isGreaterThanOrEqualTo(floor);

        // eight connections at once, each a series of round trips: they wait for the delay side by side (a longer
        // delay here, so that the machine's load cannot hide the difference)
        Duration longer = Duration.ofMillis(2);
        long longerFloor = 2 * longer.toNanos();
        int connections = 8;
        int each = 20;
        AtomicLong slowest = new AtomicLong();
        long wall;
        try (TcpProxy proxy = TcpProxy.to(target()).delay(longer).start()) {
            List<Thread> threads = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int c = 0; c < connections; c++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try (Socket s = connect(proxy)) {
                        roundTrip(s);
                        go.await();
                        long start = System.nanoTime();
                        roundTrips(s, each);
                        slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            long start = System.nanoTime();
            go.countDown();
            for (Thread t : threads) {
                t.join(30_000);
            }
            wall = System.nanoTime() - start;
            assertThat(failures).isEmpty();
        }
        long serialised = (long) connections * each * longerFloor;
        System.out.printf(Locale.ROOT, "TcpProxy delay %.3f ms each way: round trip min/median %.3f/%.3f ms"
                        + " (without delay %.3f/%.3f ms); delay %.0f ms: %d connections x %d round trips at once in"
                        + " %.1f ms (one after another would take >= %.1f ms)%n",
                DELAY.toNanos() / 1e6, delayed[0] / 1e6, delayed[trips / 2] / 1e6, plain[0] / 1e6,
                plain[trips / 2] / 1e6, longer.toNanos() / 1e6, connections, each, wall / 1e6, serialised / 1e6);
        assertThat(slowest.get()).as("each connection's series").isGreaterThanOrEqualTo(each * longerFloor);
        assertThat(wall).as("connections overlap their delays").isLessThan(serialised / 2);
    }

    private static long[] roundTrips(Socket s, int n) throws IOException {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            nanos[i] = roundTrip(s);
        }
        Arrays.sort(nanos);
        return nanos;
    }

    @Test
    void aNegativeDelayIsRefused() throws Exception {
        assertThatThrownBy(() -> TcpProxy.to(target()).delay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        try (TcpProxy proxy = new TcpProxy(target())) {
            assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
