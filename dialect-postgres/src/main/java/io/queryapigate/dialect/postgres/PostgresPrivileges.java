package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Dialect#privilegeWarnings} for PostgreSQL: one catalog query, run as a read call of the dialect, reads the
 * connection's role attributes ({@code rolsuper}, {@code rolbypassrls}, {@code rolcreaterole},
 * {@code rolreplication}) and its membership (direct or inherited, {@code pg_has_role(..., 'MEMBER')}) in the
 * predefined roles that reach beyond tables: files, programs, other sessions, every table.
 */
final class PostgresPrivileges {
    private static final String DOCS = " (docs/security.md, \"The database user\")";

    /** Predefined roles worth a warning, in report order, with what a member can do. */
    static final Map<String, String> ROLES = rolesInOrder();

    /**
     * One row: the role's name, its attributes, and the predefined roles above it is a member of (comma-separated,
     * only those that exist on this server version).
     */
    static final String QUERY = "SELECT r.rolname, r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolreplication,"
            + " (SELECT string_agg(b.rolname, ',' ORDER BY b.rolname) FROM pg_catalog.pg_roles b"
            + " WHERE b.rolname IN (" + String.join(", ", ROLES.keySet().stream().map(n -> "'" + n + "'").toList())
            + ") AND pg_catalog.pg_has_role(r.oid, b.oid, 'MEMBER'))"
            + " FROM pg_catalog.pg_roles r WHERE r.rolname = current_user";

    private PostgresPrivileges() {}

    private static Map<String, String> rolesInOrder() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("pg_read_server_files", "read any file the database server can read (pg_read_file, COPY ... FROM"
                + " 'file')");
        m.put("pg_write_server_files", "write files on the database server (COPY ... TO 'file')");
        m.put("pg_execute_server_program", "run programs on the database server (COPY ... PROGRAM)");
        m.put("pg_signal_backend", "cancel and terminate other sessions (pg_terminate_backend)");
        m.put("pg_read_all_data", "read every table, view and sequence whatever their grants");
        m.put("pg_write_all_data", "write every table whatever its grants");
        m.put("pg_read_all_stats", "see the SQL text of every session (pg_stat_activity; pg_monitor includes it)");
        return java.util.Collections.unmodifiableMap(m);
    }

    static List<String> check(Dialect dialect, Duration timeout) {
        Duration limit = timeout == null || timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout;
        List<Object[]> rows = new ArrayList<>();
        try {
            dialect.execute(QueryRequest.read(QUERY, List.of(), limit, 2), new RowSink() {
                @Override
                public void columns(List<ColumnInfo> columns) {}

                @Override
                public boolean row(Object[] values) {
                    rows.add(values.clone());
                    return true;
                }
            });
        } catch (RuntimeException e) {
            return List.of("could not check the database user's privileges: " + e.getMessage());
        }
        if (rows.size() != 1) {
            return List.of("could not check the database user's privileges: current_user is not in pg_roles");
        }
        Object[] r = rows.get(0);
        return warnings(String.valueOf(r[0]), Boolean.TRUE.equals(r[1]), Boolean.TRUE.equals(r[2]),
                Boolean.TRUE.equals(r[3]), Boolean.TRUE.equals(r[4]), r[5] == null ? "" : r[5].toString());
    }

    /** The lines for one role's attributes and predefined-role memberships (comma-separated). */
    static List<String> warnings(String role, boolean superuser, boolean bypassRls, boolean createRole,
            boolean replication, String memberOf) {
        String who = "PostgreSQL role " + quote(role);
        if (superuser) {
            // a superuser is a member of every role and bypasses everything: one line says it all
            return List.of(who + " is a superuser: it can read and write files on the database server, run"
                    + " programs there, terminate other sessions, and bypass every grant and row-level security"
                    + " policy. Connect as a role with only CONNECT on the database, USAGE on the schemas and SELECT"
                    + " on the tables the gateway serves" + DOCS + ".");
        }
        List<String> out = new ArrayList<>();
        if (bypassRls) {
            out.add(who + " has BYPASSRLS: row-level security policies do not apply to it. Remove it (ALTER ROLE "
                    + quote(role) + " NOBYPASSRLS)" + DOCS + ".");
        }
        if (createRole) {
            out.add(who + " has CREATEROLE: it can create roles and, before PostgreSQL 16, grant itself any"
                    + " non-superuser role such as pg_read_server_files. Remove it (ALTER ROLE " + quote(role)
                    + " NOCREATEROLE)" + DOCS + ".");
        }
        if (replication) {
            out.add(who + " has REPLICATION: it can stream every change to every table of the server. Remove it"
                    + " (ALTER ROLE " + quote(role) + " NOREPLICATION)" + DOCS + ".");
        }
        List<String> members = memberOf.isBlank() ? List.of() : List.of(memberOf.split(","));
        for (Map.Entry<String, String> e : ROLES.entrySet()) {
            if (members.contains(e.getKey())) {
                out.add(who + " is a member of " + e.getKey() + ": it can " + e.getValue() + ". Revoke the"
                        + " membership (REVOKE " + e.getKey() + " FROM " + quote(role) + ", or from the role it"
                        + " inherits it through)" + DOCS + ".");
            }
        }
        return List.copyOf(out);
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
