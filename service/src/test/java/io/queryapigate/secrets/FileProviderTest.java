package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileProviderTest {
    @TempDir
    Path root;

    private SecretReferences refs(Path... allowed) {
        return new SecretReferences(List.of(new FileProvider(List.of(allowed))), Duration.ofMinutes(5),
                Clock.systemUTC());
    }

    @Test
    void readsAFileInsideAnAllowedDirectoryWithoutItsTrailingNewline() throws IOException {
        Path dir = Files.createDirectories(root.resolve("run/secrets"));
        Files.writeString(dir.resolve("db"), "s3cret\n");
        Files.writeString(dir.resolve("crlf"), "two\nlines\r\n");
        Files.writeString(dir.resolve("bare"), "bare");
        SecretReferences refs = refs(dir);
        assertThat(refs.resolve("sales", "${file:" + dir.resolve("db") + "}").value()).isEqualTo("s3cret");
        assertThat(refs.resolve("sales", "${file:" + dir.resolve("crlf") + "}").value()).isEqualTo("two\nlines");
        assertThat(refs.resolve("sales", "${file:" + dir.resolve("bare") + "}").value()).isEqualTo("bare");
    }

    @Test
    void refusesWhatLeavesTheAllowedDirectories() throws IOException {
        Path dir = Files.createDirectories(root.resolve("allowed"));
        Path outside = Files.writeString(root.resolve("outside"), "not yours");
        Files.createSymbolicLink(dir.resolve("link"), outside);
        SecretReferences refs = refs(dir);
        assertThatThrownBy(() -> refs.resolve("sales", "${file:" + dir + "/../outside}"))
                .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("may not contain ..");
        assertThatThrownBy(() -> refs.resolve("sales", "${file:" + dir.resolve("link") + "}"))
                .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("not inside a directory")
                .hasMessageNotContaining("not yours");
        assertThatThrownBy(() -> refs.resolve("sales", "${file:" + outside + "}"))
                .hasMessageContaining("not inside a directory");
        assertThatThrownBy(() -> refs.resolve("sales", "${file:relative/path}"))
                .hasMessageContaining("must be an absolute path");
        assertThatThrownBy(() -> refs().resolve("sales", "${file:" + outside + "}"))
                .hasMessageContaining("secrets.fileDirectories is empty");
    }

    @Test
    void aLinkInsideTheDirectoryIsFollowedAndAnAllowedDirectoryMayBeALink() throws IOException {
        Path real = Files.createDirectories(root.resolve("real"));
        Files.writeString(real.resolve("db"), "v\n");
        Files.createSymbolicLink(real.resolve("current"), real.resolve("db"));
        Path alias = Files.createSymbolicLink(root.resolve("alias"), real);
        assertThat(refs(alias).resolve("s", "${file:" + alias.resolve("current") + "}").value()).isEqualTo("v");
    }

    @Test
    void refusesLargeFilesMissingFilesAndDirectories() throws IOException {
        Path dir = Files.createDirectories(root.resolve("d"));
        Files.write(dir.resolve("big"), new byte[FileProvider.MAX_BYTES + 1]);
        Files.write(dir.resolve("limit"), "x".repeat(FileProvider.MAX_BYTES).getBytes());
        Files.createDirectories(dir.resolve("sub"));
        SecretReferences refs = refs(dir);
        assertThatThrownBy(() -> refs.resolve("s", "${file:" + dir.resolve("big") + "}"))
                .hasMessageContaining("larger than 64 KiB");
        assertThat(refs.resolve("s", "${file:" + dir.resolve("limit") + "}").value()).hasSize(FileProvider.MAX_BYTES);
        assertThatThrownBy(() -> refs.resolve("s", "${file:" + dir.resolve("missing") + "}"))
                .hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> refs.resolve("s", "${file:" + dir.resolve("sub") + "}"))
                .hasMessageContaining("not a regular file");
    }

    @Test
    void aRelativeAllowedDirectoryStopsStartupNamingTheKey() {
        assertThatThrownBy(() -> new FileProvider(List.of(Path.of("secrets"))))
                .hasMessageContaining("secrets.fileDirectories");
    }
}
