package io.queryapigate.configcode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A configuration directory on disk: its YAML files read as path to text, and an export written into it. */
public final class ConfigDirectory {
    private static final List<String> KIND_FOLDERS = List.of("connections", "queries", "api_keys", "roles",
            "descriptions");

    private ConfigDirectory() {}

    /**
     * Every {@code .yaml} and {@code .yml} file under {@code dir} (hidden folders such as {@code .git} skipped), by
     * its path relative to it with {@code /} separators. Files in the wrong place are read too, so that checking
     * the directory reports them.
     */
    public static SortedMap<String, String> read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        SortedMap<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path relative = dir.relativize(file);
                boolean hidden = false;
                for (Path part : relative) {
                    hidden |= part.toString().startsWith(".");
                }
                String name = file.getFileName().toString();
                if (!hidden && Files.isRegularFile(file) && (name.endsWith(".yaml") || name.endsWith(".yml"))) {
                    out.put(relative.toString().replace(java.io.File.separatorChar, '/'), Files.readString(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * Writes an export into {@code dir}: each file replaced whole (written beside it, then moved over it), and the
     * YAML files of the kinds' folders that the export no longer has removed, so the directory is the store.
     *
     * @return the paths removed
     */
    public static List<String> write(Path dir, Map<String, String> files) {
        List<String> removed = new ArrayList<>();
        try {
            for (String kind : KIND_FOLDERS) {
                Files.createDirectories(dir.resolve(kind));
            }
            for (Map.Entry<String, String> e : files.entrySet()) {
                Path target = dir.resolve(e.getKey());
                Path part = target.resolveSibling("." + target.getFileName() + ".part");
                Files.writeString(part, e.getValue());
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            for (String path : read(dir).keySet()) {
                if (!files.containsKey(path) && KIND_FOLDERS.stream().anyMatch(k -> path.startsWith(k + "/"))) {
                    Files.delete(dir.resolve(path));
                    removed.add(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return removed;
    }
}
