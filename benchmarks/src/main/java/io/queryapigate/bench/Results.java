package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;

/** results.jsonl: one JSON object per line, flushed as it is written. */
final class Results implements AutoCloseable {
    private final BufferedWriter out;
    private int errors;

    Results(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    static ObjectNode line(String type) {
        ObjectNode n = Http.JSON.createObjectNode();
        n.put("type", type);
        n.put("t", Instant.now().toString());
        return n;
    }

    synchronized void write(ObjectNode n) {
        try {
            out.write(Http.JSON.writeValueAsString(n));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (n.path("type").asText().equals("error")) {
            errors++;
        }
    }

    void error(String block, int round, String config, String query, Throwable e) {
        ObjectNode n = line("error");
        n.put("block", block);
        n.put("round", round);
        n.put("config", config);
        if (query != null) {
            n.put("query", query);
        }
        n.put("message", String.valueOf(e.getMessage()));
        n.put("exception", e.getClass().getName());
        write(n);
        System.err.println("ERROR " + block + " r" + round + " " + config + (query == null ? "" : " " + query) + ": "
                + e.getMessage());
    }

    void put(ObjectNode n, Map<String, ?> values) {
        values.forEach((k, v) -> n.set(k, Http.JSON.valueToTree(v)));
    }

    int errors() {
        return errors;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
