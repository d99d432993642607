import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.sqlite.JDBC;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The floor of benchmarks/datasette/side_by_side.sh: the same lookup straight over xerial's sqlite-jdbc on the same
 * file, one call at a time, in two ways: one connection kept open (the least any client can do), and a read-only
 * connection opened per call with PRAGMA query_only as the sqlite dialect opens it. Prints one line per round and
 * way: "jdbc-kept <round> <median us> <calls/s>".
 *
 * <p>Usage: java -cp sqlite-jdbc.jar DirectJdbc.java FILE ROUNDS CALLS_PER_ROUND
 */
public class DirectJdbc {
    static final String SQL = "SELECT f.film_id, f.title, f.release_year, f.rating, f.rental_rate, f.length,"
            + " count(r.rental_id) AS rentals FROM film f LEFT JOIN rental r ON r.film_id = f.film_id"
            + " WHERE f.film_id = ? GROUP BY f.film_id";

    interface Call {
        void run(int i) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0];
        int rounds = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        SQLiteConfig config = new SQLiteConfig();
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        config.resetOpenMode(SQLiteOpenMode.READWRITE);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        config.setPragma(SQLiteConfig.Pragma.LIMIT_ATTACHED, "0");
        Properties readOnly = config.toProperties();
        try (Connection kept = new JDBC().connect(url, readOnly);
                PreparedStatement statement = kept.prepareStatement(SQL)) {
            Call keptCall = i -> lookup(statement, i);
            Call perCall = i -> {
                try (Connection c = new JDBC().connect(url, readOnly)) {
                    try (Statement s = c.createStatement()) {
                        s.execute("PRAGMA query_only = ON");
                    }
                    try (PreparedStatement p = c.prepareStatement(SQL)) {
                        lookup(p, i);
                    }
                }
            };
            run(keptCall, calls * 2);
            run(perCall, calls * 2);
            for (int round = 1; round <= rounds; round++) {
                double[] a = run(keptCall, calls);
                double[] b = run(perCall, calls);
                System.out.printf("jdbc-kept %d %.1f %.0f%n", round, a[0], a[1]);
                System.out.printf("jdbc-per-call %d %.1f %.0f%n", round, b[0], b[1]);
            }
        }
    }

    static void lookup(PreparedStatement statement, int i) throws Exception {
        statement.setLong(1, 1 + i % 300);
        int rows = 0;
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                for (int c = 1; c <= 7; c++) {
                    rs.getObject(c);
                }
                rows++;
            }
        }
        if (rows != 1) {
            throw new IllegalStateException("film " + (1 + i % 300) + " returned " + rows + " rows");
        }
    }

    /** Median microseconds per call and calls per second over {@code n} sequential calls. */
    static double[] run(Call call, int n) throws Exception {
        long[] samples = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            call.run(i);
            samples[i] = System.nanoTime() - t;
            total += samples[i];
        }
        Arrays.sort(samples);
        return new double[] {samples[n / 2] / 1000.0, n / (total / 1e9)};
    }
}
