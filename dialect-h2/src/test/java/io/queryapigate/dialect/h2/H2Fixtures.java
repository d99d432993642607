package io.queryapigate.dialect.h2;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/** The tests' own access to H2 databases, as the administrator {@code sa} that creates them. */
final class H2Fixtures {
    static final String ADMIN = "sa";
    static final String ADMIN_PASSWORD = "sa-secret";

    /** 10^12 pairs counted one by one: hours of work, one row, no memory. */
    static final String SLOW_QUERY =
            "SELECT count(*) FROM system_range(1, 1000000) a, system_range(1, 1000000) b WHERE a.\"X\" + b.\"X\" = -1";
    /** 2 * 10^6 pairs: a second or so. */
    static final String MODERATELY_SLOW_QUERY =
            "SELECT count(*) FROM system_range(1, 2000) a, system_range(1, 1000) b WHERE a.\"X\" + b.\"X\" = -1";

    private H2Fixtures() {}

    /** Opens (creating if needed) the database at {@code url} ({@code jdbc:h2:file:...}, {@code jdbc:h2:tcp:...}). */
    static Connection admin(String url) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", ADMIN);
        properties.setProperty("password", ADMIN_PASSWORD);
        return new org.h2.Driver().connect(url, properties);
    }

    /** Runs {@code statements} as the administrator. */
    static void run(String url, List<String> statements) throws SQLException {
        try (Connection connection = admin(url); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** The URL of a database file, created with lower-case unquoted names as the contract's fixture expects. */
    static String fileUrl(Path database) {
        return "jdbc:h2:file:" + database + ";DATABASE_TO_LOWER=TRUE";
    }
}
