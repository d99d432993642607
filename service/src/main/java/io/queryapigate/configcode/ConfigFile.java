package io.queryapigate.configcode;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.queryapigate.auth.KeyHasher;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * One file of a configuration directory: its path in the directory ({@code queries/film.yaml}), its SHA-256, the
 * object it declares and the line each of its fields starts on, so that a problem names its file and line.
 */
final class ConfigFile {
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

    private final String path;
    private final String sha256;
    private final JsonNode body;
    private final Map<String, Integer> lines;

    private ConfigFile(String path, String sha256, JsonNode body, Map<String, Integer> lines) {
        this.path = path;
        this.sha256 = sha256;
        this.body = body;
        this.lines = lines;
    }

    /**
     * Reads a file's YAML (JSON is YAML too). A file that does not parse, or holds no mapping, is a problem at its
     * line; then {@link #body()} is null.
     */
    static ConfigFile parse(String path, String text, Problems problems) {
        String sha = sha256(text);
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser p = YAML.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME) {
                    lines.putIfAbsent(p.getParsingContext().pathAsPointer().toString(),
                            p.currentTokenLocation().getLineNr());
                }
            }
            JsonNode body = YAML.readTree(text);
            if (body == null || !body.isObject()) {
                problems.add(path, 1, "must hold one mapping of fields (name: ..., ...)");
                return new ConfigFile(path, sha, null, lines);
            }
            return new ConfigFile(path, sha, body, lines);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getLineNr());
            String why = e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException yaml
                    ? (yaml.getContext() == null ? "" : yaml.getContext() + ": ") + yaml.getProblem()
                    : e.getOriginalMessage().lines().findFirst().orElse("");
            problems.add(path, line, "is not valid YAML: " + why);
            return new ConfigFile(path, sha, null, lines);
        } catch (IOException e) {
            problems.add(path, 1, "cannot be read: " + e.getMessage());
            return new ConfigFile(path, sha, null, lines);
        }
    }

    String path() {
        return path;
    }

    String sha256() {
        return sha256;
    }

    /** The declared object, or null when the file does not parse. */
    JsonNode body() {
        return body;
    }

    /** The line a top-level field starts on; the first line when the file has no such field. */
    int line(String field) {
        return lines.getOrDefault("/" + field, 1);
    }

    /** The line a field starts on, top-level or a parameter's; {@code fallback}'s line when it is neither. */
    int line(String field, String fallback) {
        Integer line = lines.get("/" + field);
        if (line == null) {
            line = lines.get("/parameters/" + field);
        }
        return line != null ? line : line(fallback);
    }

    static String sha256(String text) {
        return KeyHasher.hashHex(text);
    }
}
