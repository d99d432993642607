package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One line of the guard corpus: {@code dialect | caller | expectation | sql}.
 *
 * <ul>
 *   <li>dialect: {@code pg}, {@code mysql}, {@code duckdb}, {@code clickhouse}, {@code trino}, {@code sqlite},
 *       {@code generic}; each with fixed connection defaults (see {@link #options()});</li>
 *   <li>caller: {@code ro} or {@code rw}, then optional {@code t=a,b} (allowed tables; {@code t=} for none),
 *       {@code ops=insert,update} (allowed write operations), {@code files} (file functions allowed), {@code
 *       fn=a,s.b} (functions the operator allows beyond the catalogue), {@code mask=table.col,...} (masked
 *       columns), {@code admin} (the administrator key);</li>
 *   <li>expectation: a refusal code ({@code read_only}, {@code multiple_statements}, ...) or {@code ok} /
 *       {@code ok:<kind>}, optionally followed by {@code r=} (tables read), {@code w=} (tables written),
 *       {@code ops=} (write operations) and {@code tf=} (table functions), each a comma-separated exact set;</li>
 *   <li>sql: the rest of the line; {@code {nl}}, {@code {cr}}, {@code {tab}} stand for control characters.</li>
 * </ul>
 */
record GuardCase(String section, int line, String dialectName, String caller, String expectation, String sql) {

    static List<GuardCase> parse(String section, String block) {
        List<GuardCase> out = new ArrayList<>();
        String[] lines = block.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isBlank() || l.stripLeading().startsWith("#")) {
                continue;
            }
            String[] p = l.split("\\|", 4);
            if (p.length != 4) {
                throw new IllegalArgumentException(section + ":" + (i + 1) + " is not 'dialect | caller | expect | sql'");
            }
            String sql = p[3].strip().replace("{nl}", "\n").replace("{cr}", "\r").replace("{tab}", "\t");
            out.add(new GuardCase(section, i + 1, p[0].strip(), p[1].strip(), p[2].strip(), sql));
        }
        return out;
    }

    SqlDialectFamily dialect() {
        return switch (dialectName) {
            case "pg" -> SqlDialectFamily.POSTGRES;
            case "mysql" -> SqlDialectFamily.MYSQL;
            case "duckdb" -> SqlDialectFamily.DUCKDB;
            case "clickhouse" -> SqlDialectFamily.CLICKHOUSE;
            case "trino" -> SqlDialectFamily.TRINO;
            case "sqlite" -> SqlDialectFamily.SQLITE;
            case "generic" -> SqlDialectFamily.GENERIC;
            default -> throw new IllegalArgumentException("unknown dialect " + dialectName);
        };
    }

    GuardOptions options() {
        SqlDialectFamily d = dialect();
        String[] words = caller.split("\\s+");
        GuardOptions o = switch (words[0]) {
            case "ro" -> GuardOptions.readOnly(d);
            case "rw" -> GuardOptions.writer(d);
            default -> throw new IllegalArgumentException("caller must start with ro or rw: " + caller);
        };
        o = switch (d) {
            case POSTGRES -> o.withDefaults("shopdb", "public");
            case MYSQL -> o.withDefaults(null, "shop");
            case DUCKDB -> o.withDefaults("memory", "main");
            case CLICKHOUSE -> o.withDefaults(null, "default");
            case TRINO -> o.withDefaults("hive", "web");
            case SQLITE -> o.withDefaults(null, "main");
            case GENERIC -> o;
        };
        for (int i = 1; i < words.length; i++) {
            String w = words[i];
            if (w.startsWith("t=")) {
                o = o.withAllowedTables(list(w.substring(2)));
            } else if (w.startsWith("ops=")) {
                o = o.withAllowedWriteOps(list(w.substring(4)));
            } else if (w.equals("files")) {
                o = o.withFileFunctions(true);
            } else if (w.equals("admin")) {
                o = o.withAdministrator(true);
            } else if (w.startsWith("fn=")) {
                o = o.withExtraFunctions(list(w.substring(3)));
            } else if (w.startsWith("mask=")) {
                List<GuardMask> masks = new ArrayList<>();
                for (String m : list(w.substring(5))) {
                    int dot = m.lastIndexOf('.');
                    masks.add(new GuardMask(TableName.parse(m.substring(0, dot), d, o.defaultCatalog(),
                            o.defaultSchema()), m.substring(dot + 1), false));
                }
                o = o.withMasks(masks);
            } else {
                throw new IllegalArgumentException("unknown caller option " + w);
            }
        }
        return o;
    }

    private static List<String> list(String csv) {
        return csv.isEmpty() ? List.of() : Arrays.asList(csv.split(","));
    }

    /** Runs the case against the guard and asserts the expectation. */
    void verify(SqlGuard guard) {
        String[] words = expectation.split("\\s+");
        String head = words[0];
        if (head.equals("ok") || head.startsWith("ok:")) {
            GuardResult r;
            try {
                r = guard.check(sql, options());
            } catch (GuardException e) {
                fail("%s: expected the statement to pass but got %s (%s)", this, e.code(), e.getMessage());
                return;
            }
            if (head.startsWith("ok:")) {
                assertThat(r.kind()).as("%s: kind", this).isEqualTo(StatementKind.valueOf(head.substring(3).toUpperCase(Locale.ROOT)));
            }
            for (int i = 1; i < words.length; i++) {
                String w = words[i];
                int eq = w.indexOf('=');
                String key = w.substring(0, eq);
                Set<String> want = new TreeSet<>(list(w.substring(eq + 1)));
                Set<String> got = switch (key) {
                    case "r" -> strings(r.tablesRead());
                    case "w" -> strings(r.tablesWritten());
                    case "ops" -> new TreeSet<>(r.writeOps());
                    case "tf" -> new TreeSet<>(r.tableFunctions());
                    default -> throw new IllegalArgumentException("unknown assertion " + key);
                };
                assertThat(got).as("%s: %s", this, key).isEqualTo(want);
            }
        } else {
            try {
                GuardResult r = guard.check(sql, options());
                fail("%s: expected %s but the statement passed as %s (ops %s, read %s, written %s)", this, head, r.kind(),
                        r.writeOps(), r.tablesRead(), r.tablesWritten());
            } catch (GuardException e) {
                assertThat(e.code()).as("%s: refusal code (message: %s)", this, e.getMessage()).isEqualTo(head);
                assertThat(e.status()).isEqualTo(switch (head) {
                    case "multiple_statements", "sql_not_parseable" -> 400;
                    case "sql_too_long" -> 413;
                    default -> 403;
                });
                assertThat(e.getMessage()).isNotBlank();
            }
        }
    }

    private static Set<String> strings(Set<TableName> names) {
        return names.stream().map(TableName::toString).collect(Collectors.toCollection(TreeSet::new));
    }

    boolean expectsRefusal() {
        return !expectation.startsWith("ok");
    }

    @Override
    public String toString() {
        String s = sql.replace("\n", "⏎").replace("\r", "␍").replace("\t", "⇥");
        return section + ":" + line + " [" + dialectName + " " + caller + "] " + expectation + " :: "
                + (s.length() > 110 ? s.substring(0, 110) + "…" : s);
    }

    static Set<String> codes() {
        return new LinkedHashSet<>(List.of(GuardException.MULTIPLE_STATEMENTS, GuardException.SQL_NOT_PARSEABLE,
                GuardException.READ_ONLY, GuardException.TABLE_NOT_ALLOWED, GuardException.WRITE_OP_NOT_ALLOWED,
                GuardException.SQL_TOO_LONG, GuardException.FUNCTION_NOT_ALLOWED));
    }
}
