package io.queryapigate.guard;

import io.queryapigate.sql.SqlLexer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Traces masked columns through an admitted statement, on the guard's own parse: each result column is matched to
 * the masks its value is computed from, or the statement is refused ({@code 403 column_masked_unresolvable}, or
 * {@code column_masked_in_predicate} for a strict mask used outside the select list). It resolves or refuses, by
 * construction rather than by a list of known tricks:
 *
 * <ol>
 *   <li>Shape: a statement that reads a masked table must be one SELECT without WITH or set operations, and every
 *       reference to a masked table must be a table of its top-level FROM/JOIN (no subquery anywhere reads one),
 *       without an alias column list; no {@code *}, no ClickHouse ARRAY JOIN.</li>
 *   <li>Select items: every column reference at any depth of an item (subqueries, lambdas, function arguments,
 *       casts) that names a masked column masks the item; a bare reference to a masked table or its alias (a
 *       whole-row value: {@code row_to_json(p)}, {@code p::text}, {@code SELECT t FROM t}) is refused, as is a
 *       function called on a masked row in method syntax ({@code p.ssn.lower()}). A column named on a masked table
 *       that is not masked must be a real column of it ({@link MaskPlan#toVerify()}). Items that refer to another
 *       item's alias (ClickHouse, DuckDB) inherit its masks.</li>
 *   <li>Derived FROM items (LATERAL, UNNEST, VALUES, table functions, subqueries) may not refer to a masked table
 *       at all: their columns could carry masked values under any name.</li>
 *   <li>Everything else (WHERE, JOIN conditions, GROUP BY, HAVING, ORDER BY, windows): allowed, unless a strict
 *       mask is referred to (directly, by a whole-row value, by an item's alias or position).</li>
 *   <li>Finally the names are counted: every occurrence of a masked column's, a masked table's or its alias's name
 *       in the text (as the lexer reads it) must be one of the references the steps above looked at, so that a
 *       name the parser keeps somewhere else (a lambda parameter, an attribute, a keyword argument) is refused
 *       rather than missed.</li>
 * </ol>
 * Names are compared without regard to case or quoting (over-masking where engines fold differently, never
 * under-masking). The result's column count is checked against the number of items when the rows arrive.
 */
final class MaskTrace {
    static final String UNRESOLVABLE = "column_masked_unresolvable";
    static final String IN_PREDICATE = "column_masked_in_predicate";

    private final Names names;
    private final List<GuardMask> masks;
    /** Masked tables read by the statement (folded). */
    private final Set<TableName> maskedTables = new LinkedHashSet<>();
    /** Top-level FROM names (alias, or the table's own name) to the table they stand for (folded). */
    private final Map<String, TableName> fromNames = new HashMap<>();
    /** Folded top-level tables to their names as the dialect resolves them (case kept where it matters). */
    private final Map<TableName, TableName> resolved = new HashMap<>();
    private final Set<Object> topTables = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MaskPlan.ColumnRef> toVerify = new LinkedHashSet<>();

    private MaskTrace(Names names, List<GuardMask> masks) {
        this.names = names;
        this.masks = masks;
    }

    /** The plan, or null when the statement reads no masked table. */
    static MaskPlan trace(Statement statement, SqlLexer.Result lex, Names names, GuardOptions options,
            Set<TableName> tables) {
        if (options.masks().isEmpty()) {
            return null;
        }
        MaskTrace t = new MaskTrace(names, options.masks());
        for (TableName read : tables) {
            TableName folded = Names.fold(read);
            for (GuardMask m : options.masks()) {
                if (m.table().equals(folded)) {
                    t.maskedTables.add(folded);
                }
            }
        }
        return t.maskedTables.isEmpty() ? null : t.trace(statement, lex);
    }

    private static GuardException unresolvable(String why) {
        return new GuardException(403, UNRESOLVABLE, "This API key has masked columns and the query's use of them "
                + "cannot be traced: " + why + ".");
    }

    private MaskPlan trace(Statement statement, SqlLexer.Result lex) {
        PlainSelect plain = shape(statement);
        List<FromItem> derived = new ArrayList<>();
        from(plain.getFromItem(), derived);
        if (plain.getJoins() != null) {
            for (Join j : plain.getJoins()) {
                if (j.isArray()) {
                    throw unresolvable("ARRAY JOIN cannot be used on a query that reads a masked table");
                }
                from(j.getFromItem(), derived);
            }
        }
        List<Object> all = AstSweep.nodes(statement);
        for (Object node : all) {
            if (node instanceof Table table && !topTables.contains(table) && masked(tableName(table))) {
                throw unresolvable("the masked table " + tableName(table) + " is read outside the top-level FROM");
            }
        }

        List<SelectItem<?>> items = plain.getSelectItems();
        int n = items.size();
        List<Set<Integer>> byItem = new ArrayList<>(n);
        Map<String, Integer> itemAliases = new HashMap<>();
        Set<Object> inItems = identitySet();
        List<List<Object>> itemNodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SelectItem<?> item = items.get(i);
            if (item.getAlias() != null && item.getAlias().getName() != null) {
                itemAliases.putIfAbsent(key(item.getAlias().getName()), i);
            }
            List<Object> nodes = AstSweep.nodes(item.getExpression());
            itemNodes.add(nodes);
            inItems.addAll(nodes);
            Set<Object> counted = countStars(nodes);
            Set<Integer> found = new TreeSet<>();
            for (Object node : nodes) {
                if (node instanceof AllColumns && !counted.contains(node)) {
                    throw unresolvable("'*' cannot be used on a query that reads a masked table; list the columns");
                }
                if (node instanceof Column c) {
                    found.addAll(touch(c, true).masks);
                } else if (node instanceof Function fn) {
                    methodCall(fn);
                }
            }
            byItem.add(found);
        }
        inheritAliases(itemNodes, itemAliases, byItem);

        for (FromItem item : derived) {
            for (Object node : AstSweep.nodes(item)) {
                if (node instanceof Column c && touch(c, false).any()) {
                    throw unresolvable("a derived table, LATERAL, UNNEST or table function in FROM refers to the "
                            + "masked table");
                }
                if (node instanceof Function fn) {
                    methodCall(fn);
                }
            }
            inItems.addAll(AstSweep.nodes(item));
        }
        for (Object node : all) {
            if (inItems.contains(node)) {
                continue;
            }
            if (node instanceof Column c) {
                Touch touch = touch(c, false);
                Integer aliased = c.getTable() == null ? itemAliases.get(key(c.getColumnName())) : null;
                if (touch.strict() || (aliased != null && anyStrict(byItem.get(aliased)))) {
                    throw new GuardException(403, IN_PREDICATE, "The masked column " + describe(c) + " may not "
                            + "be used to filter, join, group or order rows with this API key (a strict masking "
                            + "rule).");
                }
            } else if (node instanceof Function fn) {
                methodCall(fn);
            }
        }
        positions(plain, byItem);
        countNames(all, lex);
        return new MaskPlan(n, byItem, toVerify);
    }

    /** The {@code *} of {@code count(*)}, which counts rows and carries no column's value. */
    private static Set<Object> countStars(List<Object> nodes) {
        Set<Object> out = identitySet();
        for (Object node : nodes) {
            if (node instanceof Function fn && "count".equalsIgnoreCase(fn.getName()) && fn.getParameters() != null
                    && fn.getParameters().size() == 1 && fn.getParameters().get(0) instanceof AllColumns star
                    && star.getClass() == AllColumns.class) {
                out.add(star);
            } else if (node instanceof AnalyticExpression ae && "count".equalsIgnoreCase(ae.getName())
                    && ae.getExpression() instanceof AllColumns star && star.getClass() == AllColumns.class) {
                out.add(star);
            }
        }
        return out;
    }

    /** The one PlainSelect a statement reading a masked table must be. */
    private static PlainSelect shape(Statement statement) {
        if (!(statement instanceof Select select)) {
            throw unresolvable("only a SELECT can read a masked table");
        }
        while (true) {
            if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
                throw unresolvable("masked columns are traced only through a single SELECT without WITH");
            }
            if (select instanceof ParenthesedSelect ps && ps.getSelect() != null) {
                select = ps.getSelect();
            } else {
                break;
            }
        }
        if (!(select instanceof PlainSelect plain)) {
            throw unresolvable("masked columns are traced only through a single SELECT without UNION, INTERSECT, "
                    + "EXCEPT or VALUES");
        }
        return plain;
    }

    private void from(FromItem item, List<FromItem> derived) {
        if (item == null) {
            return;
        }
        if (item instanceof Table table && table.getNameParts() != null && !table.getNameParts().isEmpty()
                && !isLiteral(table)) {
            TableName name = tableName(table);
            resolved.putIfAbsent(name, names.resolve(names.parts(table.getNameParts())));
            topTables.add(table);
            Alias alias = table.getAlias();
            if (masked(name) && alias != null && alias.getAliasColumns() != null
                    && !alias.getAliasColumns().isEmpty()) {
                throw unresolvable("the masked table " + name + " is renamed with a column list");
            }
            String own = alias != null && alias.getName() != null ? key(alias.getName()) : Names.fold(name.name());
            fromNames.putIfAbsent(own, name);
            return;
        }
        derived.add(item);
    }

    private boolean isLiteral(Table table) {
        List<String> parts = names.parts(table.getNameParts());
        String last = parts.isEmpty() ? "" : parts.get(parts.size() - 1);
        return last.startsWith("'") || last.startsWith("E'") || last.startsWith("$");
    }

    private TableName tableName(Table table) {
        List<String> parts = names.parts(table.getNameParts());
        if (parts.isEmpty() || isLiteral(table)) {
            return null;
        }
        return Names.fold(names.resolve(parts));
    }

    private boolean masked(TableName t) {
        return t != null && maskedTables.contains(t);
    }

    private String key(String raw) {
        return Names.fold(names.original(raw));
    }

    /** What one column reference reaches of the masked tables. */
    private record Touch(Set<Integer> masks, boolean strict, boolean table) {
        boolean any() {
            return !masks.isEmpty() || table;
        }
    }

    /**
     * The masks a column reference reads. In a select item ({@code inItem}) a whole-row reference to a masked
     * table is refused; elsewhere it counts as touching every mask of the table.
     */
    private Touch touch(Column c, boolean inItem) {
        String col = key(c.getColumnName());
        List<String> qualifier = c.getTable() == null ? List.of() : names.parts(c.getTable().getNameParts());
        Set<Integer> found = new TreeSet<>();
        TableName target = null;
        if (col.startsWith("#")) {
            // DuckDB's positional reference: #3 is the third column of the FROM clause, whatever its name
            if (inItem) {
                throw unresolvable("positional column references (" + col + ") cannot be traced");
            }
            Set<Integer> all = new TreeSet<>();
            maskedTables.forEach(t -> all.addAll(masksOf(t)));
            return new Touch(all, anyStrict(all), true);
        }
        if (qualifier.isEmpty()) {
            TableName whole = fromNames.get(col);
            if (masked(whole) || maskedTableNamed(col) != null) {
                TableName t = masked(whole) ? whole : maskedTableNamed(col);
                if (inItem) {
                    throw unresolvable("the whole row of the masked table " + t + " is used as a value");
                }
                return new Touch(masksOf(t), anyStrict(masksOf(t)), true);
            }
            for (int i = 0; i < masks.size(); i++) {
                if (masks.get(i).column().equals(col) && maskedTables.contains(masks.get(i).table())) {
                    found.add(i);
                }
            }
            return new Touch(found, anyStrict(found), false);
        }
        if (qualifier.size() == 1) {
            target = fromNames.get(Names.fold(qualifier.get(0)));
        } else {
            TableName resolved = Names.fold(names.resolve(qualifier));
            if (masked(resolved) || topTableNamed(resolved)) {
                target = resolved;
            } else if (fromNames.containsKey(Names.fold(qualifier.get(0)))
                    && masked(fromNames.get(Names.fold(qualifier.get(0))))) {
                // p.field.sub on a masked row: a field of a composite value we cannot see into
                if (inItem) {
                    throw unresolvable("a field of the masked table's row is read through " + describe(c));
                }
                TableName t = fromNames.get(Names.fold(qualifier.get(0)));
                return new Touch(masksOf(t), anyStrict(masksOf(t)), true);
            }
        }
        if (target == null) {
            // a qualifier the top level does not define (a subquery's own alias, a struct): matched by name
            for (int i = 0; i < masks.size(); i++) {
                if (masks.get(i).column().equals(col) && maskedTables.contains(masks.get(i).table())) {
                    found.add(i);
                }
            }
            return new Touch(found, anyStrict(found), false);
        }
        if (!masked(target)) {
            return new Touch(Set.of(), false, false);
        }
        for (int i = 0; i < masks.size(); i++) {
            if (masks.get(i).table().equals(target) && masks.get(i).column().equals(col)) {
                found.add(i);
            }
        }
        if (found.isEmpty()) {
            toVerify.add(new MaskPlan.ColumnRef(resolved.getOrDefault(target, target), col));
        }
        return new Touch(found, anyStrict(found), false);
    }

    private boolean topTableNamed(TableName t) {
        return fromNames.containsValue(t);
    }

    private TableName maskedTableNamed(String name) {
        for (TableName t : maskedTables) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    private Set<Integer> masksOf(TableName t) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < masks.size(); i++) {
            if (masks.get(i).table().equals(t)) {
                out.add(i);
            }
        }
        return out;
    }

    private boolean anyStrict(Set<Integer> found) {
        for (int i : found) {
            if (masks.get(i).strict()) {
                return true;
            }
        }
        return false;
    }

    /** A function called on a value in method syntax ({@code ssn.lower()}, {@code p.ssn.upper()}). */
    private void methodCall(Function fn) {
        List<String> parts = fn.getMultipartName();
        if (parts == null || parts.size() < 2) {
            return;
        }
        for (String raw : parts.subList(0, parts.size() - 1)) {
            String part = key(raw);
            if (fromNames.containsKey(part) && masked(fromNames.get(part)) || maskedTableNamed(part) != null
                    || isMaskedColumnName(part)) {
                throw unresolvable("the function " + String.join(".", parts) + " is called on a masked value");
            }
        }
    }

    private boolean isMaskedColumnName(String name) {
        for (GuardMask m : masks) {
            if (m.column().equals(name) && maskedTables.contains(m.table())) {
                return true;
            }
        }
        return false;
    }

    /** Items that refer to another item's alias read what that item reads (to a fixed point: aliases chain). */
    private void inheritAliases(List<List<Object>> itemNodes, Map<String, Integer> aliases, List<Set<Integer>> byItem) {
        if (aliases.isEmpty()) {
            return;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < itemNodes.size(); i++) {
                for (Object node : itemNodes.get(i)) {
                    if (node instanceof Column c && c.getTable() == null) {
                        Integer j = aliases.get(key(c.getColumnName()));
                        if (j != null && j != i && byItem.get(i).addAll(byItem.get(j))) {
                            changed = true;
                        }
                    }
                }
            }
        }
    }

    /** ORDER BY / GROUP BY by position (or DuckDB's ALL) on an item that reads a strict mask. */
    private void positions(PlainSelect plain, List<Set<Integer>> byItem) {
        List<Expression> keys = new ArrayList<>();
        if (plain.getOrderByElements() != null) {
            for (OrderByElement e : plain.getOrderByElements()) {
                keys.add(e.getExpression());
            }
        }
        if (plain.getGroupBy() != null && plain.getGroupBy().getGroupByExpressionList() != null) {
            keys.addAll(plain.getGroupBy().getGroupByExpressionList());
        }
        for (Expression e : keys) {
            Set<Integer> items = new TreeSet<>();
            if (e instanceof LongValue v && v.getValue() >= 1 && v.getValue() <= byItem.size()) {
                items.addAll(byItem.get((int) v.getValue() - 1));
            } else if (e instanceof Column c && c.getTable() == null && key(c.getColumnName()).equals("all")) {
                byItem.forEach(items::addAll);
            }
            if (anyStrict(items)) {
                throw new GuardException(403, IN_PREDICATE, "A masked column may not be used to group or order rows "
                        + "with this API key (a strict masking rule).");
            }
        }
    }

    /**
     * Every occurrence of a sensitive name in the text (a masked column's, a masked table's, an alias of one) must
     * be accounted for by a name the trace looked at; otherwise the parser keeps it somewhere the trace does not.
     */
    private void countNames(List<Object> all, SqlLexer.Result lex) {
        Set<String> sensitive = new LinkedHashSet<>();
        for (GuardMask m : masks) {
            if (maskedTables.contains(m.table())) {
                sensitive.add(m.column());
            }
        }
        for (TableName t : maskedTables) {
            sensitive.add(t.name());
        }
        fromNames.forEach((name, table) -> {
            if (masked(table)) {
                sensitive.add(name);
            }
        });
        Map<String, Integer> inText = new HashMap<>();
        for (String token : tokens(lex)) {
            String k = Names.fold(token);
            if (sensitive.contains(k)) {
                inText.merge(k, 1, Integer::sum);
            }
        }
        if (inText.isEmpty()) {
            return;
        }
        Map<String, Integer> seen = new HashMap<>();
        for (Object node : all) {
            if (node instanceof Table t) {
                count(seen, names.parts(t.getNameParts()));
            } else if (node instanceof Column c) {
                count(seen, List.of(names.original(c.getColumnName())));
                if (c.getTable() != null) {
                    count(seen, names.parts(c.getTable().getNameParts()));
                }
            } else if (node instanceof Function fn && fn.getMultipartName() != null) {
                for (String p : fn.getMultipartName()) {
                    count(seen, List.of(names.original(p)));
                }
            } else if (node instanceof Alias a) {
                if (a.getName() != null) {
                    count(seen, List.of(names.original(a.getName())));
                }
                if (a.getAliasColumns() != null) {
                    for (Alias.AliasColumn ac : a.getAliasColumns()) {
                        count(seen, List.of(names.original(ac.name)));
                    }
                }
            }
        }
        for (Map.Entry<String, Integer> e : inText.entrySet()) {
            if (seen.getOrDefault(e.getKey(), 0) < e.getValue()) {
                throw unresolvable("the name " + e.getKey() + " is used in a form the masking cannot follow");
            }
        }
    }

    private static void count(Map<String, Integer> seen, List<String> originals) {
        for (String o : originals) {
            if (o != null && !o.isEmpty()) {
                seen.merge(Names.fold(o), 1, Integer::sum);
            }
        }
    }

    /** The identifier tokens of the text as the lexer read it: words, and quoted identifiers as written. */
    static List<String> tokens(SqlLexer.Result lex) {
        String code = lex.code();
        List<String> out = new ArrayList<>();
        int quoted = 0;
        int i = 0;
        int n = code.length();
        while (i < n) {
            char c = code.charAt(i);
            if (c == SqlLexer.IDENTIFIER) {
                int end = i;
                while (end < n && code.charAt(end) == SqlLexer.IDENTIFIER) {
                    end++;
                }
                // adjacent quoted identifiers ("a""b" is one) are told apart by their written lengths
                int at = i;
                while (at < end) {
                    if (quoted >= lex.identifiers().size()) {
                        throw unresolvable("the quoted names could not be read back");
                    }
                    String raw = lex.identifiers().get(quoted++);
                    out.add(raw);
                    at += raw.length();
                }
                i = end;
            } else if (SqlLexer.isIdentStart(c)) {
                int end = i + 1;
                while (end < n && SqlLexer.isIdentPart(code.charAt(end))) {
                    end++;
                }
                // a word directly after a digit is part of a number (1e5, 0x1f), not a name
                if (i == 0 || !Character.isDigit(code.charAt(i - 1))) {
                    out.add(code.substring(i, end));
                }
                i = end;
            } else {
                i++;
            }
        }
        return out;
    }

    private String describe(Column c) {
        List<String> parts = new ArrayList<>();
        if (c.getTable() != null) {
            parts.addAll(names.parts(c.getTable().getNameParts()));
        }
        parts.add(names.original(c.getColumnName()));
        return String.join(".", parts);
    }

    private static Set<Object> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
