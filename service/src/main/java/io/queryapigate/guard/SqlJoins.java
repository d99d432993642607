package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The joins of a statement, for showing an administrator where a saved query's data comes from ({@code GET
 * .../flow}); never consulted for a decision, which is the {@link SqlGuard}'s alone. Best effort: each {@code SELECT}
 * (the outer one first, then CTEs, set operations and subqueries in {@code FROM}) contributes its joins in order,
 * each from the table before it; a statement the parser cannot read has none.
 */
public final class SqlJoins {
    /** One join: the table (or alias) before it, the one it joins, its kind ({@code LEFT JOIN}) and its condition. */
    public record SqlJoin(String left, String right, String type, String on) {}

    private static final int MAX_ON = 200;

    private SqlJoins() {}

    /** The joins of {@code sql}, read as the connection's SQL family reads it, within the guard's time limit. */
    public static List<SqlJoin> of(String sql, SqlDialectFamily family) {
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(sql, SqlGuard.PARSER_THREADS, parser -> {
                DialectProfile.of(family).configure(parser);
                parser.withTimeOut(SqlGuard.DEFAULT_PARSE_TIMEOUT.toMillis());
            });
        } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
            return List.of();
        }
        List<SqlJoin> out = new ArrayList<>();
        if (!(statement instanceof Select root)) {
            return out;
        }
        Deque<Select> selects = new ArrayDeque<>();
        selects.add(root);
        while (!selects.isEmpty()) {
            Select s = selects.poll();
            if (s.getWithItemsList() != null) {
                for (WithItem<?> w : s.getWithItemsList()) {
                    if (w.getSelect() != null) {
                        selects.add(w.getSelect());
                    }
                }
            }
            if (s instanceof PlainSelect ps) {
                joins(ps, out, selects);
            } else if (s instanceof SetOperationList set) {
                selects.addAll(set.getSelects());
            } else if (s instanceof ParenthesedSelect p && p.getSelect() != null) {
                selects.add(p.getSelect());
            }
        }
        return out;
    }

    private static void joins(PlainSelect ps, List<SqlJoin> out, Deque<Select> selects) {
        FromItem from = ps.getFromItem();
        if (from instanceof Select nested) {
            selects.add(nested);
        }
        String previous = from == null ? null : name(from);
        if (ps.getJoins() == null) {
            return;
        }
        for (Join j : ps.getJoins()) {
            FromItem item = j.getFromItem();
            if (item instanceof Select nested) {
                selects.add(nested);
            }
            String right = item == null ? null : name(item);
            String on = j.getOnExpressions() == null ? "" : j.getOnExpressions().stream().map(Expression::toString)
                    .collect(Collectors.joining(" AND "));
            out.add(new SqlJoin(previous, right, type(j), on.length() > MAX_ON ? on.substring(0, MAX_ON) : on));
            previous = right;
        }
    }

    private static String type(Join j) {
        StringBuilder t = new StringBuilder();
        if (j.isNatural()) {
            t.append("NATURAL ");
        }
        if (j.isLeft()) {
            t.append("LEFT ");
        } else if (j.isRight()) {
            t.append("RIGHT ");
        } else if (j.isFull()) {
            t.append("FULL ");
        } else if (j.isCross()) {
            t.append("CROSS ");
        } else if (j.isInner()) {
            t.append("INNER ");
        }
        if (j.isOuter()) {
            t.append("OUTER ");
        }
        return t.append("JOIN").toString().toUpperCase(Locale.ROOT);
    }

    /** A table's own name (unquoted), else the item's alias. */
    private static String name(FromItem item) {
        if (item instanceof Table t) {
            return t.getUnquotedName();
        }
        return item.getAlias() == null ? null : item.getAlias().getName();
    }
}
