package io.queryapigate.secrets;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ${file:/run/secrets/db}}: a file's content (what Docker and Kubernetes secrets, the Secrets Store CSI driver
 * and Vault Agent write), one trailing newline dropped. Only files inside an allow-listed directory
 * ({@code secrets.fileDirectories}) are read: a path with {@code ..}, or whose real path (links followed) leaves
 * the directory, is refused, and so is a file over {@value #MAX_BYTES} bytes.
 */
public final class FileProvider implements SecretProvider {
    /** The largest file read as a secret. */
    public static final int MAX_BYTES = 64 * 1024;

    private final List<Path> directories;

    /** @param directories absolute directories files may be read from; none allows no file */
    public FileProvider(List<Path> directories) {
        List<Path> real = new ArrayList<>();
        for (Path d : directories) {
            if (!d.isAbsolute()) {
                throw new IllegalArgumentException("secrets.fileDirectories: '" + d + "' must be an absolute path");
            }
            real.add(realOrNormal(d));
        }
        this.directories = List.copyOf(real);
    }

    @Override
    public String prefix() {
        return "file";
    }

    @Override
    public String refusal(String reference) {
        if (directories.isEmpty()) {
            return "secrets.fileDirectories is empty: no file may be read";
        }
        Path path;
        try {
            path = Path.of(reference);
        } catch (RuntimeException e) {
            return "'" + reference + "' is not a path";
        }
        if (!path.isAbsolute()) {
            return "'" + reference + "' must be an absolute path";
        }
        for (Path part : path) {
            if (part.toString().equals("..")) {
                return "'" + reference + "' may not contain ..";
            }
        }
        if (!inside(realOrNormal(path))) {
            return "'" + reference + "' is not inside a directory secrets.fileDirectories allows";
        }
        return null;
    }

    @Override
    public Secret fetch(String reference) {
        Path real;
        try {
            real = Path.of(reference).toRealPath();
        } catch (IOException e) {
            throw new SecretUnavailableException("the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        // where the path really leads is checked again and opened as that, so a link changed meanwhile gains nothing
        if (!inside(real)) {
            throw new SecretUnavailableException("the file's real path is outside the allowed directories");
        }
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
            throw new SecretUnavailableException("not a regular file");
        }
        byte[] data;
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            data = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new SecretUnavailableException("the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (data.length > MAX_BYTES) {
            throw new SecretUnavailableException("the file is larger than " + MAX_BYTES / 1024 + " KiB");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            throw new SecretUnavailableException("the file is not UTF-8 text");
        }
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        return new Secret(text, null);
    }

    private boolean inside(Path real) {
        for (Path d : directories) {
            if (real.startsWith(d) && !real.equals(d)) {
                return true;
            }
        }
        return false;
    }

    /** The real path when it exists (links followed), else the path normalized. */
    private static Path realOrNormal(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
