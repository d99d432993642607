package io.queryapigate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A tiny real-HTTP client for tests. */
public final class Http {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public Http(String base) {
        this.base = base;
    }

    /** A response with its body parsed as JSON when it is JSON. */
    public record Reply(int status, String body, HttpResponse<String> raw) {
        public JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + body, e);
            }
        }

        /** Asserts a refusal: the status (the body shown when it differs) and the envelope's code. */
        public void assertRefused(int expectedStatus, String expectedCode) {
            org.assertj.core.api.Assertions.assertThat(status).as(body).isEqualTo(expectedStatus);
            org.assertj.core.api.Assertions.assertThat(json().get("code").asText()).as(body).isEqualTo(expectedCode);
        }

        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    /**
     * Saves a query on the connection {@code demo} through the management API with {@code key}, and fails unless it
     * was created.
     *
     * @param extra more fields of the body ({@code collection}, {@code tags}, ...)
     */
    public void saveQuery(String key, String name, String sql, Map<String, Object> parameters, boolean publish,
            String description, Map<String, Object> extra) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("parameters", parameters);
        body.put("connection_name", "demo");
        body.put("publish", publish);
        body.put("description", description);
        body.putAll(extra);
        Reply r = post("/api/v1/queries", key, json(body));
        if (r.status() != 201) {
            throw new AssertionError("saving the query '" + name + "' answered " + r.status() + ": " + r.body());
        }
    }

    public Reply get(String path, String key) {
        return send(builder(path, key).GET().build());
    }

    public Reply post(String path, String key, String json) {
        return send(builder(path, key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public Reply delete(String path, String key) {
        return send(builder(path, key).DELETE().build());
    }

    public Reply patch(String path, String key, String json) {
        return request("PATCH", path, key, json);
    }

    /** Any method, with a JSON body (or none: null) and extra headers as name, value pairs. */
    public Reply request(String method, String path, String key, String json, String... headers) {
        HttpRequest.Builder b = builder(path, key);
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public HttpRequest.Builder builder(String path, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (key != null) {
            b.header("X-API-Key", key);
        }
        return b;
    }

    /**
     * Waits (up to 90 s) until a server started as a process answers {@code /health}; fails with its log when it
     * dies or does not come up.
     */
    public void awaitHealth(Process server, java.nio.file.Path log) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 90_000;
        while (true) {
            try {
                if (get("/health", null).status() == 200) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            if (!server.isAlive() || System.currentTimeMillis() > deadline) {
                throw new AssertionError("the server did not start:\n" + java.nio.file.Files.readString(log));
            }
            Thread.sleep(200);
        }
    }

    public Reply send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends {@code request} and reads only the answer's status and headers, then closes it: for an endless answer
     * (a {@code GET /events} stream). The reply's body is empty.
     */
    public Reply headersOnly(HttpRequest request) {
        try {
            HttpResponse<java.io.InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            r.body().close();
            HttpResponse<String> headers = new HttpResponse<>() {
                @Override
                public int statusCode() {
                    return r.statusCode();
                }

                @Override
                public HttpRequest request() {
                    return r.request();
                }

                @Override
                public java.util.Optional<HttpResponse<String>> previousResponse() {
                    return java.util.Optional.empty();
                }

                @Override
                public java.net.http.HttpHeaders headers() {
                    return r.headers();
                }

                @Override
                public String body() {
                    return "";
                }

                @Override
                public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
                    return r.sslSession();
                }

                @Override
                public URI uri() {
                    return r.uri();
                }

                @Override
                public HttpClient.Version version() {
                    return r.version();
                }
            };
            return new Reply(r.statusCode(), "", headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates an API key with the administrator key and returns its secret. */
    public String key(String name, java.util.Map<String, Object> grants) {
        java.util.Map<String, Object> body = new java.util.LinkedHashMap<>(grants);
        body.put("name", name);
        Reply r = post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, json(body));
        if (r.status() != 201) {
            throw new AssertionError("cannot create key " + name + ": " + r.status() + " " + r.body());
        }
        return r.json().get("secret").asText();
    }

    /**
     * A workspace {@code w} made with the break-glass key, holding a DuckDB connection {@code w_conn} (a table
     * {@code t} with one value, {@code v}) and a published saved query {@code w_q} ({@code SELECT v FROM t}).
     */
    public void workspaceWithQuery(String w) throws IOException {
        String admin = TestingConfig.ADMIN_KEY;
        for (Reply r : java.util.List.of(
                post("/api/v1/workspaces", admin, json(Map.of("name", w))),
                post("/w/" + w + "/api/v1/connections", admin, json(TestingConfig.duckdbConnection(w + "_conn", "v"))),
                post("/w/" + w + "/api/v1/queries", admin, json(Map.of("name", w + "_q", "sql", "SELECT v FROM t",
                        "connection_name", w + "_conn", "publish", true))))) {
            if (r.status() != 201) {
                throw new AssertionError("cannot make workspace " + w + ": " + r.status() + " " + r.body());
            }
        }
    }

    /** Runs ad-hoc SQL on a connection with a key. */
    public Reply sql(String key, String connection, String sql) {
        return post("/execute_sql", key, json(java.util.Map.of("sql", sql, "connection_name", connection)));
    }

    public static String json(Object o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
