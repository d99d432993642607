package io.queryapigate.dialect.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@link io.queryapigate.dialect.spi.Dialect#privilegeWarnings} for SQLite. A SQLite file has no users: whoever
 * can write the file (or create files in its directory, such as the {@code -wal} and {@code -journal} files SQLite
 * trusts) can change what the gateway serves, bypassing every rule of the gateway. The check reads the file's and
 * its directory's POSIX permissions and warns when other users may write them, and when the path is a symbolic
 * link (the file served is then wherever the link points, which whoever can change the link decides).
 */
final class SqlitePrivileges {
    private SqlitePrivileges() {}

    static List<String> check(Path databaseFile) {
        List<String> out = new ArrayList<>();
        try {
            if (Files.isSymbolicLink(databaseFile)) {
                out.add("SQLite database " + databaseFile + " is a symbolic link (to " + Files.readSymbolicLink(databaseFile)
                        + "): the gateway serves whatever file it points at. Point the connection's url at the file"
                        + " itself.");
            }
            if (!Files.exists(databaseFile)) {
                return List.of("could not check SQLite database " + databaseFile + ": the file does not exist");
            }
            if (othersMayWrite(databaseFile)) {
                out.add("SQLite database " + databaseFile + " is writable by other users of the machine: they can"
                        + " change what the gateway serves without going through it. Make it writable by the"
                        + " gateway's user only (chmod o-w, g-w).");
            }
            Path directory = databaseFile.toAbsolutePath().getParent();
            if (directory != null && othersMayWrite(directory)) {
                out.add("The directory of SQLite database " + databaseFile + " is writable by other users of the"
                        + " machine: they can replace the file or plant a -wal or -journal file that SQLite"
                        + " replays. Make the directory writable by the gateway's user only.");
            }
        } catch (IOException | UnsupportedOperationException e) {
            return List.of("could not check the permissions of SQLite database " + databaseFile + ": " + e.getMessage());
        }
        return List.copyOf(out);
    }

    /** Whether the group or others may write {@code path} (the sticky bit of a directory is not visible here). */
    private static boolean othersMayWrite(Path path) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
        return permissions.contains(PosixFilePermission.OTHERS_WRITE) || permissions.contains(PosixFilePermission.GROUP_WRITE);
    }
}
