package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the dialect learned about a server when it opened a connection: its flavour and version, from {@code SELECT
 * VERSION(), @@version_comment}. Connector/J's own metadata is not used: it reports every MariaDB as 5.5 (from the
 * {@code 5.5.5-} prefix MariaDB puts in its handshake for old clients).
 *
 * @param flavor MySQL or MariaDB
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version
 * @param version {@code VERSION()} as the server returned it
 * @param versionComment {@code @@version_comment}, or empty
 */
public record ServerInfo(Flavor flavor, int major, int minor, int patch, String version, String versionComment) {

    private static final Pattern NUMBERS = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    /** Validates the fields. */
    public ServerInfo {
        requireNonNull(flavor, "flavor is null");
        requireNonNull(version, "version is null");
        requireNonNull(versionComment, "versionComment is null");
    }

    /** The two server families this dialect speaks to. */
    public enum Flavor {
        /** Oracle MySQL (and compatible builds such as Percona Server). */
        MYSQL,
        /** MariaDB. */
        MARIADB;

        /**
         * The lowercase name used in configuration and documentation.
         *
         * @return {@code mysql} or {@code mariadb}
         */
        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Parses what the server answered to {@code SELECT VERSION(), @@version_comment}.
     *
     * @param version {@code VERSION()}, for example {@code 10.11.19-MariaDB-0+deb12u1} or {@code 8.4.3}
     * @param versionComment {@code @@version_comment}, or null
     * @return the server info
     * @throws IllegalArgumentException when the version has no {@code major.minor} prefix
     */
    public static ServerInfo parse(String version, String versionComment) {
        requireNonNull(version, "version is null");
        String comment = versionComment == null ? "" : versionComment;
        String v = version.strip();
        boolean mariadb = v.toLowerCase(Locale.ROOT).contains("mariadb")
                || comment.toLowerCase(Locale.ROOT).contains("mariadb");
        if (mariadb && v.startsWith("5.5.5-")) {
            v = v.substring("5.5.5-".length()); // the replication-compatibility prefix, if a proxy passes it on
        }
        Matcher m = NUMBERS.matcher(v);
        if (!m.find()) {
            throw new IllegalArgumentException("cannot read the server version from '" + version + "'");
        }
        int patch = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return new ServerInfo(mariadb ? Flavor.MARIADB : Flavor.MYSQL, Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)), patch, version, comment);
    }

    /**
     * A nominal server of a flavour, for plans shown before any connection was opened (when the flavour is pinned
     * in configuration).
     *
     * @param flavor the flavour
     * @return MySQL 8.4.0 or MariaDB 10.11.0
     */
    public static ServerInfo nominal(Flavor flavor) {
        return flavor == Flavor.MARIADB
                ? new ServerInfo(flavor, 10, 11, 0, "10.11.0-MariaDB", "")
                : new ServerInfo(flavor, 8, 4, 0, "8.4.0", "");
    }

    /**
     * Whether this version is at least {@code major.minor.patch}.
     *
     * @param maj major
     * @param min minor
     * @param pat patch
     * @return true when this server is that version or newer
     */
    public boolean atLeast(int maj, int min, int pat) {
        if (major != maj) {
            return major > maj;
        }
        if (minor != min) {
            return minor > min;
        }
        return patch >= pat;
    }

    /**
     * Refuses servers without what the session strategy needs: {@code START TRANSACTION READ ONLY} and a
     * statement time limit (MySQL 5.7.8 for {@code MAX_EXECUTION_TIME}; MariaDB 10.1.2 for {@code
     * max_statement_time} and {@code SET STATEMENT}).
     *
     * @throws IllegalStateException naming the version and the minimum
     */
    public void requireSupported() {
        boolean ok = flavor == Flavor.MARIADB ? atLeast(10, 1, 2) : atLeast(5, 7, 8);
        if (!ok) {
            throw new IllegalStateException("unsupported server " + version + ": the mysql dialect needs "
                    + (flavor == Flavor.MARIADB ? "MariaDB 10.1.2" : "MySQL 5.7.8") + " or newer");
        }
    }

    /**
     * The session variable holding the default access mode of the next transactions: {@code transaction_read_only}
     * on MySQL 5.7.20+ and MariaDB 11.1+, {@code tx_read_only} before (MariaDB 10.11 has only the latter).
     *
     * @return the variable name
     */
    public String readOnlyVariable() {
        boolean modern = flavor == Flavor.MARIADB ? atLeast(11, 1, 0) : atLeast(5, 7, 20);
        return modern ? "transaction_read_only" : "tx_read_only";
    }

    /**
     * A short form for logs and plans.
     *
     * @return for example {@code MariaDB 10.11.19}
     */
    public String label() {
        return (flavor == Flavor.MARIADB ? "MariaDB " : "MySQL ") + major + "." + minor + "." + patch;
    }
}
