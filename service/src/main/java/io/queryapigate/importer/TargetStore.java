package io.queryapigate.importer;

import io.queryapigate.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The gateway's store the import writes into. A real import migrates it first; a dry run changes nothing, so it
 * reads it as it is, or, when the store does not exist yet, an empty one made in a temporary file and removed after.
 */
public final class TargetStore implements AutoCloseable {
    private final Store store;
    private final Path temporary;

    private TargetStore(Store store, Path temporary) {
        this.store = store;
        this.temporary = temporary;
    }

    public static TargetStore open(String url, String user, String password, boolean dryRun) {
        boolean sqlite = url.startsWith("jdbc:sqlite:");
        Path file = sqlite ? Path.of(url.substring("jdbc:sqlite:".length())) : null;
        if (!dryRun) {
            try {
                if (file != null && file.getParent() != null) {
                    Files.createDirectories(file.getParent());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Store.migrate(url, user, password);
            return new TargetStore(Store.connect(url, user, password), null);
        }
        if (file != null && !Files.exists(file)) {
            try {
                Path empty = Files.createTempFile("qag-import-dry-run-", ".db");
                String emptyUrl = "jdbc:sqlite:" + empty;
                Store.migrate(emptyUrl, null, null);
                return new TargetStore(Store.connect(emptyUrl, null, null), empty);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (Store.pendingMigrations(url, user, password) > 0) {
            throw new ImportException("This gateway's store (" + url.replaceAll("//[^@/]*@", "//***@") + ") has an"
                    + " older schema than this release; a dry run changes nothing, so it cannot compare against it."
                    + " Start the gateway once (it migrates the store), or import without --dry-run.");
        }
        return new TargetStore(Store.connect(url, user, password), null);
    }

    public Store store() {
        return store;
    }

    @Override
    public void close() {
        if (temporary != null) {
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                try {
                    Files.deleteIfExists(Path.of(temporary + suffix));
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }
}
