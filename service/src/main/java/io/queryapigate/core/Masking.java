package io.queryapigate.core;

import io.queryapigate.auth.MaskRule;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.SqlDialectFamily;
import io.queryapigate.guard.TableName;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Column masking by provenance. For a key with masking rules, each output column of a statement is traced to the
 * source columns its expression reads; an output column that reads a masked column is replaced by the strictest
 * matching action ({@code null} over {@code fixed} over {@code last} over {@code hash}).
 *
 * <p>Tracing is deliberately narrow, and refuses ({@code 403 column_masked_unresolvable}) whenever a masked table
 * is involved and the trace could be wrong: a masked table read anywhere but directly in the top-level FROM/JOIN of
 * a single SELECT (subqueries, CTEs, set operations, derived tables), {@code *} or {@code t.*} over a query that
 * reads a masked table, a column qualified by an unknown name, or SQL the parser cannot read. An unqualified column
 * that could come from several tables is masked when any of them has a rule for that name (over-masking rather
 * than leaking). Inference through WHERE, GROUP BY or ORDER BY is
 * not prevented: a masked column may still filter rows.
 */
public final class Masking {
    /** What replaces an output column's values. */
    public record Action(String kind, String value, int keep) {
        int strictness() {
            return switch (kind) {
                case "null" -> 4;
                case "fixed" -> 3;
                case "last" -> 2;
                default -> 1;
            };
        }
    }

    /** Actions by output column index; empty when nothing in the result is masked. */
    public record Plan(Map<Integer, Action> actions) {
        public boolean isEmpty() {
            return actions.isEmpty();
        }
    }

    private record Rule(TableName table, String column, Action action) {}

    private final byte[] hashKey;

    /** {@code hashKey} may be null: keys with hash rules are then refused when they are created. */
    public Masking(String hashKey) {
        this.hashKey = hashKey == null || hashKey.isBlank() ? null : hashKey.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The plan for one statement and one key's rules.
     *
     * @throws ApiException 403 {@code column_masked_unresolvable} when a masked column could leak untraced
     */
    public Plan plan(String jdbcSql, GuardResult verdict, List<MaskRule> rules, SqlDialectFamily family,
            TableNamespace ns) {
        List<Rule> parsed = new ArrayList<>();
        for (MaskRule r : rules) {
            int dot = r.column().lastIndexOf('.');
            TableName table = TableName.parse(r.column().substring(0, dot), family, ns.catalog(), ns.schema());
            parsed.add(new Rule(table, unquote(r.column().substring(dot + 1)),
                    new Action(r.action(), r.value(), r.keep() == null ? 0 : r.keep())));
        }
        Set<TableName> maskedTables = new HashSet<>();
        for (Rule r : parsed) {
            if (verdict.tables().contains(r.table())) {
                maskedTables.add(r.table());
            }
        }
        if (maskedTables.isEmpty()) {
            return new Plan(Map.of());
        }
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(jdbcSql);
        } catch (JSQLParserException e) {
            throw unresolvable("the statement could not be traced");
        }
        if (!(statement instanceof Select select) || !(select instanceof PlainSelect plain)
                || (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty())) {
            throw unresolvable("masked columns are traced only through a single SELECT without WITH or UNION");
        }
        Map<String, TableName> aliases = new HashMap<>();
        List<TableName> fromTables = new ArrayList<>();
        addFrom(plain.getFromItem(), aliases, fromTables, family, ns);
        if (plain.getJoins() != null) {
            for (Join j : plain.getJoins()) {
                addFrom(j.getFromItem(), aliases, fromTables, family, ns);
            }
        }
        for (TableName t : maskedTables) {
            if (!fromTables.contains(t)) {
                throw unresolvable("the masked table " + t + " is read inside a subquery");
            }
        }
        Map<Integer, Action> actions = new HashMap<>();
        List<SelectItem<?>> items = plain.getSelectItems();
        for (int i = 0; i < items.size(); i++) {
            Expression e = items.get(i).getExpression();
            if (e instanceof AllColumns) {
                throw unresolvable("'*' cannot be used on a query that reads a masked table; list the columns");
            }
            List<Column> columns = new ArrayList<>();
            e.accept(new ExpressionVisitorAdapter<Void>() {
                @Override
                public <S> Void visit(Column column, S context) {
                    columns.add(column);
                    return null;
                }

                @Override
                public <S> Void visit(AllColumns all, S context) {
                    throw unresolvable("'*' cannot be used on a query that reads a masked table");
                }
            }, null);
            Action strictest = null;
            for (Column c : columns) {
                String name = unquote(c.getColumnName());
                List<TableName> candidates = new ArrayList<>();
                Table t = c.getTable();
                if (t != null && t.getName() != null) {
                    TableName resolved = aliases.get(key(t.getFullyQualifiedName()));
                    if (resolved == null) {
                        throw unresolvable("the column " + c + " names an unknown table");
                    }
                    candidates.add(resolved);
                } else {
                    candidates.addAll(fromTables);
                }
                List<Action> matches = new ArrayList<>();
                for (Rule r : parsed) {
                    if (r.column().equals(name) && candidates.contains(r.table())) {
                        matches.add(r.action());
                    }
                }
                for (Action a : matches) {
                    if (strictest == null || a.strictness() > strictest.strictness()) {
                        strictest = a;
                    }
                }
            }
            if (strictest != null) {
                actions.put(i, strictest);
            }
        }
        return new Plan(Map.copyOf(actions));
    }

    private static void addFrom(FromItem item, Map<String, TableName> aliases, List<TableName> tables,
            SqlDialectFamily family, TableNamespace ns) {
        if (item == null) {
            return;
        }
        if (item instanceof Table t) {
            TableName name = TableName.parse(t.getFullyQualifiedName(), family, ns.catalog(), ns.schema());
            tables.add(name);
            aliases.put(key(t.getAlias() != null ? t.getAlias().getName() : t.getFullyQualifiedName()), name);
            aliases.putIfAbsent(key(t.getName()), name);
        } else if (item.getAlias() != null) {
            aliases.put(key(item.getAlias().getName()), new TableName(null, null, "\u0000derived"));
        }
    }

    private static String key(String name) {
        return unquote(name);
    }

    private static String unquote(String s) {
        String t = s.strip();
        StringBuilder out = new StringBuilder();
        for (String part : t.split("\\.")) {
            if (out.length() > 0) {
                out.append('.');
            }
            if (part.length() >= 2 && (part.startsWith("\"") || part.startsWith("`")) && part.endsWith(part.substring(0, 1))) {
                out.append(part, 1, part.length() - 1);
            } else {
                out.append(part.toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }

    private static ApiException unresolvable(String why) {
        return ApiException.forbidden("column_masked_unresolvable",
                "This API key has masked columns and the query's use of them cannot be traced: " + why + ".");
    }

    /**
     * Wraps a sink so masked columns are replaced before any format sees them (and JSON-typed columns arrive as
     * nested values, see {@link JsonColumns}).
     */
    public RowSink apply(Plan plan, RowSink target) {
        RowSink delegate = JsonColumns.wrap(target);
        if (plan.isEmpty()) {
            return delegate;
        }
        int max = plan.actions().keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
        Action[] byIndex = new Action[max + 1];
        plan.actions().forEach((i, a) -> byIndex[i] = a);
        return new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {
                delegate.columns(columns);
            }

            @Override
            public boolean row(Object[] values) {
                for (int i = 0; i < byIndex.length && i < values.length; i++) {
                    if (byIndex[i] != null && values[i] != null) {
                        values[i] = mask(byIndex[i], values[i]);
                    }
                }
                return delegate.row(values);
            }

            @Override
            public void onCancellable(Runnable cancel) {
                delegate.onCancellable(cancel);
            }
        };
    }

    Object mask(Action a, Object value) {
        return switch (a.kind()) {
            case "null" -> null;
            case "fixed" -> a.value();
            case "last" -> {
                String s = String.valueOf(value);
                int keep = Math.min(a.keep(), s.length());
                yield "*".repeat(s.length() - keep) + s.substring(s.length() - keep);
            }
            case "hash" -> hmac(String.valueOf(value));
            default -> null;
        };
    }

    private String hmac(String value) {
        if (hashKey == null) {
            return null;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(hashKey, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
