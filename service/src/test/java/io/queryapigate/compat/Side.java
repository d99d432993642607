package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One gateway under comparison: where it listens, its administrator key, and the variables its setups and cases
 * saved (key secrets, cache entry keys). Sends a corpus step as a real HTTP/1.1 request.
 */
final class Side {
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final String base;
    private final String adminKey;
    private final Map<String, String> vars = new HashMap<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();

    Side(String name, String base, String adminKey, Map<String, String> vars) {
        this.name = name;
        this.base = base;
        this.adminKey = adminKey;
        this.vars.putAll(vars);
    }

    String name() {
        return name;
    }

    /** An HTTP answer: status, headers by lower-case name, the body's bytes. */
    record Answer(int status, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : String.join(", ", v);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body as JSON when it is JSON (whatever its Content-Type says), else null. */
        JsonNode json() {
            if (body.length == 0) {
                return null;
            }
            try {
                return Normaliser.MAPPER.readTree(body);
            } catch (IOException e) {
                return null;
            }
        }
    }

    /**
     * Sends the step (its body for this gateway) and keeps what it says to save: a JSON pointer into the answer's
     * body, or {@code header:<name>}.
     */
    Answer send(Corpus.Step step) {
        // a variable a setup did not save stays as ${name}: sent percent-encoded, the answer shows it
        String path = substitute(step.path()).replace("${", "%24%7B").replace("}", "%7D");
        StringBuilder uri = new StringBuilder(base).append(path);
        char sep = step.path().contains("?") ? '&' : '?';
        for (Map.Entry<String, String> q : step.query()) {
            uri.append(sep).append(encode(q.getKey())).append('=').append(encode(substitute(q.getValue())));
            sep = '&';
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri.toString())).timeout(Duration.ofSeconds(60));
        String key = key(step.key());
        if (key != null) {
            if (step.auth().equals("bearer")) {
                b.header("Authorization", "Bearer " + key);
            } else {
                b.header("X-API-Key", key);
            }
        }
        b.header("X-Request-Id", step.id());
        step.headers().forEach((h, v) -> b.setHeader(h, substitute(v)));
        String body = null;
        JsonNode json = step.bodyFor(name);
        if (step.rawBody() != null) {
            body = substitute(step.rawBody());
        } else if (json != null) {
            body = write(substitute(json));
        }
        String contentType = step.contentType() != null ? step.contentType() : body != null ? "application/json" : null;
        if (contentType != null && !contentType.equals("none")) {
            b.header("Content-Type", contentType);
        }
        b.method(step.method(), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        Answer answer;
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            Map<String, List<String>> headers = new TreeMap<>();
            r.headers().map().forEach((h, v) -> headers.put(h.toLowerCase(Locale.ROOT), v));
            answer = new Answer(r.statusCode(), headers, r.body());
        } catch (IOException e) {
            answer = new Answer(-1, Map.of(), ("no answer: " + e).getBytes(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        save(step, answer);
        return answer;
    }

    private void save(Corpus.Step step, Answer answer) {
        if (step.save().isEmpty()) {
            return;
        }
        JsonNode json = answer.json();
        step.save().forEach((var, from) -> {
            if (from.startsWith("header:")) {
                String h = answer.header(from.substring("header:".length()));
                if (h != null) {
                    vars.put(var, h);
                }
                return;
            }
            JsonNode v = json == null ? null : json.at(from);
            if (v != null && v.isValueNode() && !v.isNull()) {
                vars.put(var, v.asText());
            }
        });
    }

    private String key(String who) {
        return switch (who) {
            case "admin" -> adminKey;
            case "none" -> null;
            default -> who.startsWith("=") ? who.substring(1) : vars.getOrDefault(who, "${" + who + "}");
        };
    }

    /** ${name} replaced by this gateway's variable; an unknown one is left as it is (the answer will show it). */
    String substitute(String s) {
        if (s == null || !s.contains("${")) {
            return s;
        }
        Matcher m = VAR.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(vars.getOrDefault(m.group(1), m.group())));
        }
        return m.appendTail(out).toString();
    }

    private JsonNode substitute(JsonNode n) {
        if (n.isTextual()) {
            return TextNode.valueOf(substitute(n.asText()));
        }
        if (n instanceof ObjectNode o) {
            ObjectNode copy = JSON.createObjectNode();
            o.fields().forEachRemaining(e -> copy.set(e.getKey(), substitute(e.getValue())));
            return copy;
        }
        if (n instanceof ArrayNode a) {
            ArrayNode copy = JSON.createArrayNode();
            a.forEach(v -> copy.add(substitute(v)));
            return copy;
        }
        return n;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String write(JsonNode n) {
        try {
            return JSON.writeValueAsString(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
