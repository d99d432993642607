package io.queryapigate.dialect.mysql;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link Dialect#privilegeWarnings} for MySQL and MariaDB: {@code SHOW GRANTS}, run as a read call of the dialect,
 * and its global ({@code ON *.*}) grants. MariaDB lists the grants of the session's active (default) role there too;
 * MySQL 8 lists only the account's own (privileges of its roles are not seen). Only privilege names are read from
 * the lines: they also carry the password hash, which never reaches a warning.
 */
final class MySqlPrivileges {
    private static final String DOCS = " (docs/security.md, \"The database user\")";

    /** {@code GRANT <privileges> ON <target> TO <grantee> [IDENTIFIED ...] [WITH GRANT OPTION ...]}. */
    private static final Pattern GRANT = Pattern.compile(
            "GRANT (.+?) ON (\\S+) TO ((?:`[^`]*`|'[^']*'|[^\\s@`']+)(?:@(?:`[^`]*`|'[^']*'|\\S+))?)(.*)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** Global privileges worth a warning, in report order, with what they allow. */
    static final Map<String, String> POWERS = powersInOrder();

    /** Global privileges that change data or schema in every database. */
    private static final List<String> GLOBAL_WRITES = List.of("INSERT", "UPDATE", "DELETE", "CREATE", "DROP",
            "ALTER", "INDEX", "CREATE VIEW", "CREATE ROUTINE", "ALTER ROUTINE", "EVENT", "TRIGGER", "DELETE HISTORY");

    private MySqlPrivileges() {}

    private static Map<String, String> powersInOrder() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("SUPER", "kill other sessions, change global settings and write while the server is read_only");
        m.put("FILE", "read and write files on the database server (LOAD_FILE(), SELECT ... INTO OUTFILE, LOAD"
                + " DATA INFILE)");
        m.put("PROCESS", "see the SQL text of every session (SHOW PROCESSLIST)");
        m.put("CONNECTION ADMIN", "kill other accounts' sessions");
        m.put("SYSTEM VARIABLES ADMIN", "change global server settings");
        m.put("SHUTDOWN", "stop the database server");
        m.put("CREATE USER", "create, change and drop accounts");
        m.put("GRANT OPTION", "give its privileges to other accounts");
        m.put("REPLICATION SLAVE", "read the binary log: every change to every table");
        m.put("REPLICATION REPLICA", "read the binary log: every change to every table");
        m.put("SELECT", "read every database, including the mysql system schema (account password hashes)");
        return java.util.Collections.unmodifiableMap(m);
    }

    static List<String> check(Dialect dialect, Duration timeout) {
        Duration limit = timeout == null || timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout;
        List<String> lines = new ArrayList<>();
        String[] account = {null};
        try {
            dialect.execute(QueryRequest.read("SHOW GRANTS", List.of(), limit, 1000), new RowSink() {
                @Override
                public void columns(List<ColumnInfo> columns) {
                    if (columns.size() == 1 && columns.get(0).name().startsWith("Grants for ")) {
                        account[0] = columns.get(0).name().substring("Grants for ".length());
                    }
                }

                @Override
                public boolean row(Object[] values) {
                    if (values.length > 0 && values[0] != null) {
                        lines.add(values[0].toString());
                    }
                    return true;
                }
            });
        } catch (RuntimeException e) {
            return List.of("could not check the database user's privileges: " + e.getMessage());
        }
        return warnings(account[0], lines);
    }

    /**
     * The lines for one account's {@code SHOW GRANTS} output.
     *
     * @param account the account as {@code user@host} (the column name of SHOW GRANTS), or null
     * @param grants the output's lines
     * @return one line per finding
     */
    static List<String> warnings(String account, List<String> grants) {
        String who = "MySQL/MariaDB account " + (account == null ? "of this connection" : quoteAccount(account));
        Map<String, String> global = new LinkedHashMap<>(); // privilege -> grantee it came through
        boolean all = false;
        String allGrantee = null;
        for (String line : grants) {
            Matcher m = GRANT.matcher(line.strip());
            if (!m.matches() || !m.group(2).equals("*.*")) {
                continue; // role grants (no ON), PROXY, database and table grants
            }
            String grantee = m.group(3);
            for (String p : m.group(1).split(",")) {
                String name = p.strip().toUpperCase(Locale.ROOT).replace('_', ' ').replaceAll("\\s+", " ");
                if (name.equals("ALL PRIVILEGES") || name.equals("ALL")) {
                    all = true;
                    allGrantee = allGrantee == null ? grantee : allGrantee;
                } else if (!name.isEmpty() && !name.equals("USAGE")) {
                    global.putIfAbsent(name, grantee);
                }
            }
            if (m.group(4).toUpperCase(Locale.ROOT).contains("WITH GRANT OPTION")) {
                global.putIfAbsent("GRANT OPTION", grantee);
            }
        }
        if (all) {
            return List.of(who + " has ALL PRIVILEGES ON *.* (granted to " + allGrantee + "), as root does: it can"
                    + " read and write files on the database server, kill other sessions, see every session's SQL"
                    + " and read and change every database. Connect as an account with only SELECT on the"
                    + " database the gateway serves (GRANT SELECT ON db.* TO ...)" + DOCS + ".");
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : POWERS.entrySet()) {
            String grantee = global.get(e.getKey());
            if (grantee != null) {
                out.add(who + " has " + e.getKey() + " ON *.* (granted to " + grantee + "): it can " + e.getValue()
                        + ". Revoke it (REVOKE " + e.getKey() + " ON *.* FROM " + grantee + ")" + DOCS + ".");
            }
        }
        List<String> writes = GLOBAL_WRITES.stream().filter(global::containsKey).toList();
        if (!writes.isEmpty()) {
            out.add(who + " has " + String.join(", ", writes) + " ON *.* (granted to " + global.get(writes.get(0))
                    + "): it can change every database on the server. Grant writes, if any, on the gateway's"
                    + " database only (GRANT ... ON db.* TO ...)" + DOCS + ".");
        }
        return List.copyOf(out);
    }

    private static String quoteAccount(String account) {
        int at = account.lastIndexOf('@');
        return at < 0 ? "'" + account + "'" : "'" + account.substring(0, at) + "'@'" + account.substring(at + 1) + "'";
    }
}
