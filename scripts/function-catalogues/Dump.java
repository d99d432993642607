import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/**
 * Runs SQL statements through a JDBC driver (the exact driver jar the service ships) and prints the
 * result of the last one as TSV with a header line. Used by generate.py for the embedded engines.
 *
 * <pre>java -cp DRIVER.jar Dump.java JDBC_URL SQL [SQL...]
 * java -cp DRIVER.jar Dump.java JDBC_URL --probe SQL [SQL...]</pre>
 */
public class Dump {
    /** {@code --probe SQL...}: runs each statement on a fresh connection and prints {@code ok} or {@code error}. */
    static void probe(String[] args) throws Exception {
        StringBuilder out = new StringBuilder("result\tsql\n");
        for (int i = 2; i < args.length; i++) {
            String result;
            try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
                s.execute(args[i]);
                result = "ok";
            } catch (Exception e) {
                result = "error";
            }
            out.append(result).append('\t').append(args[i].replace('\t', ' ')).append('\n');
        }
        System.out.print(out);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("--probe")) {
            probe(args);
            return;
        }
        try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
            for (int i = 1; i < args.length - 1; i++) {
                s.execute(args[i]);
            }
            try (ResultSet rs = s.executeQuery(args[args.length - 1])) {
                ResultSetMetaData md = rs.getMetaData();
                StringBuilder out = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    out.append(i > 1 ? "\t" : "").append(md.getColumnLabel(i));
                }
                out.append('\n');
                while (rs.next()) {
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String v = rs.getString(i);
                        out.append(i > 1 ? "\t" : "").append(v == null ? "" : v.replace('\t', ' ').replace('\n', ' '));
                    }
                    out.append('\n');
                }
                System.out.print(out);
            }
        }
    }
}
