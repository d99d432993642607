package io.queryapigate.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.call.CallResult;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a call's result becomes a response: body, headers, caching and conditional requests. */
class CallsTest {
    private static CallResult cached(String etag) {
        return new CallResult("[]".getBytes(StandardCharsets.UTF_8), 0, false, "demo", "MISS", etag, 60,
                "application/json", null, Map.of("X-Page", "1"), null);
    }

    @Test
    void aBodyComesWithItsHeaders() {
        Response r = Calls.respond(cached("\"abc\""), null);
        assertThat(r.getStatus()).isEqualTo(200);
        assertThat(r.getHeaderString("X-Page")).isEqualTo("1");
        assertThat(r.getHeaderString("X-Cache")).isEqualTo("MISS");
        assertThat(r.getHeaderString("ETag")).isEqualTo("\"abc\"");
        assertThat(r.getHeaderString("Cache-Control")).isEqualTo("private, max-age=60");
    }

    @Test
    void aMatchingEtagAnswers304() {
        assertThat(Calls.respond(cached("\"abc\""), "\"abc\"").getStatus()).isEqualTo(304);
        assertThat(Calls.respond(cached("\"abc\""), "\"x\", W/\"abc\"").getStatus()).isEqualTo(304);
        assertThat(Calls.respond(cached("\"abc\""), "*").getStatus()).isEqualTo(304);
        assertThat(Calls.respond(cached("\"abc\""), "\"other\"").getStatus()).isEqualTo(200);
        CallResult uncached = new CallResult("[]".getBytes(StandardCharsets.UTF_8), 0, false, "demo");
        assertThat(Calls.respond(uncached, "*").getStatus()).as("no ETag, no 304").isEqualTo(200);
    }

    @Test
    void aStreamNamesItsFile() {
        CallResult stream = new CallResult(null, 0, false, "demo", null, null, 0, "text/csv",
                "attachment; filename=\"result.csv\"", Map.of(), out -> out.write('x'));
        Response r = Calls.respond(stream, null);
        assertThat(r.getHeaderString("Content-Disposition")).contains("result.csv");
        assertThat(r.getMediaType().toString()).isEqualTo("text/csv");
    }
}
