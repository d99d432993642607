package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.TestingConfig;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A refusal that comes before the request's body has arrived says it ends the connection: a client that sent its
 * headers and its body in two packets, got its 401 in between and reused the connection would otherwise read nothing.
 */
class EarlyRefusalIT {
    private static final String BODY = "{\"sql\": \"SELECT 1\", \"connection_name\": \"demo\"}";
    private static DropwizardTestSupport<GatewayConfiguration> app;

    @BeforeAll
    static void start() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
    }

    @AfterAll
    static void stop() {
        app.after();
    }

    @Test
    void aRefusalBeforeTheBodyArrivedClosesTheConnectionAndSaysSo() throws Exception {
        try (Socket s = new Socket("127.0.0.1", app.getLocalPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(headers("wrong-key").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = readHead(s.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 401");
            assertThat(head.toLowerCase(Locale.ROOT)).contains("connection: close");
            out.write(BODY.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anAnswerAfterTheBodyWasReadKeepsTheConnection() throws Exception {
        try (Socket s = new Socket("127.0.0.1", app.getLocalPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((headers(TestingConfig.ADMIN_KEY) + BODY).getBytes(StandardCharsets.UTF_8));
            out.flush();
            String head = readHead(s.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 200");
            assertThat(head.toLowerCase(Locale.ROOT)).doesNotContain("connection: close");
        }
    }

    private static String headers(String key) {
        return "POST /execute_sql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + BODY.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n";
    }

    private static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).contains("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
