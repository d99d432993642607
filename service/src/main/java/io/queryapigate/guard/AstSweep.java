package io.queryapigate.guard;

import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.guard.DialectProfile.FunctionClass;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.execute.Execute;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.insert.InsertConflictAction;
import net.sf.jsqlparser.statement.insert.InsertDuplicateAction;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.ForUpdateClause;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.MySqlSelectIntoClause;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Walks every node of a parsed statement, whatever its type, by reflection over the parser's AST classes (their
 * fields are cached per class), so that no part of the tree is skipped because a visitor forgot a node type.
 * Along the way it resolves table names per scope (a CTE name shadows a table only inside the query that defines
 * it, and only for unqualified names), records each table as read or written by the field that holds it, and
 * collects everything the guard's rules look at: nested statements and their kinds, write operations, function
 * calls, table functions, string-literal file sources, locking clauses, INTO targets and variable assignments.
 *
 * <p>The walk is iterative (no recursion), so a deep expression tree cannot overflow the stack, and it stops after
 * {@link #MAX_NODES} nodes.
 */
final class AstSweep {
    static final int MAX_NODES = 500_000;

    enum Role { READ, WRITE, QUALIFIER }

    /** A table function used in FROM. */
    record TableFn(String name, String qualifier) {}

    /** A function call: lower-case name and the schema qualifier (lower case) or null. */
    record Call(String name, String qualifier) {}

    /** Everything found. */
    static final class Findings {
        final EnumSet<StatementKind> kinds = EnumSet.noneOf(StatementKind.class);
        final TreeSet<String> ops = new TreeSet<>();
        final Set<String> sessionOps = new TreeSet<>();
        final Set<TableName> reads = new LinkedHashSet<>();
        final Set<TableName> writes = new LinkedHashSet<>();
        final Set<TableFn> tableFunctions = new LinkedHashSet<>();
        final Set<String> functions = new LinkedHashSet<>();
        final Set<Call> calls = new LinkedHashSet<>();
        /** Casts to types whose input resolves an object name (PostgreSQL reg* types). */
        final Set<String> nameCasts = new LinkedHashSet<>();
        boolean temporaryTable;
        final Map<String, Set<FunctionClass>> flaggedFunctions = new LinkedHashMap<>();
        final List<String> fileSources = new ArrayList<>();
        final List<String> hiddenWrites = new ArrayList<>();
        boolean lockingRead;
        /** The statement is an EXPLAIN (or MariaDB's ANALYZE) of the statement swept. */
        boolean explained;
        boolean userVariables;
        /** Reads of session or system variables ({@code @x}, {@code @@rand_seed1}). */
        boolean variableReads;
        boolean show;
        /** The SHOW statements' text, lower case. */
        final List<String> shown = new ArrayList<>();
        int nodes;

        StatementKind kind() {
            StatementKind k = StatementKind.READ;
            for (StatementKind s : kinds) {
                if (s.ordinal() > k.ordinal()) {
                    k = s;
                }
            }
            return k;
        }

        void op(StatementKind kind, String op) {
            kinds.add(kind);
            if (op != null) {
                ops.add(op);
                if (kind == StatementKind.SESSION) {
                    sessionOps.add(op);
                }
            }
        }
    }

    private record Scope(Scope parent, String cte) {
        boolean isCte(String key) {
            for (Scope s = this; s != null; s = s.parent) {
                if (s.cte != null && s.cte.equals(key)) {
                    return true;
                }
            }
            return false;
        }
    }

    private record Work(Object node, Scope scope, Role role) {}

    /** A reference-typed field of an AST class, with the role a table held directly in it plays. */
    private record FieldRef(Field field, Role role, boolean withItems) {}

    private static final Map<String, Role> FIELD_ROLES = new java.util.HashMap<>();

    static {
        for (String k : List.of("Insert.table", "InsertBulk.table", "OracleMultiInsertClause.table", "Update.table",
                "Delete.table", "Delete.tables", "Merge.table", "Upsert.table", "PlainSelect.intoTables",
                "PlainSelect.intoTempTable", "OutputClause.outputTable", "CreateTable.table", "CreateView.view",
                "AlterView.view", "Alter.table", "AlterExpressionPartition.partitionTable",
                "AlterExpressionPartition.exchangeTable", "RenameTableStatement.tableNames", "Analyze.tables",
                "Comment.table", "Comment.view", "CreateIndex.table", "CreatePolicy.table", "CreateTrigger.table",
                "Drop.names", "Truncate.table", "Truncate.tables", "LockStatement.table",
                "RefreshMaterializedViewStatement.view", "Import.table", "DBMSDestination.table",
                "SetIdentityInsertStatement.table", "SpannerInterleaveIn.table", "PublicationTable.table")) {
            FIELD_ROLES.put(k, Role.WRITE);
        }
        for (String k : List.of("Column.table", "Column.resolvedTable", "Table.resolvedTable",
                "AllTableColumns.table", "Select.forUpdateTables", "ForUpdateClause.tables", "CreateTrigger.trigger",
                "CreateTrigger.otherTrigger", "EventStatement.event", "AlterEvent.renameTo",
                "ScriptSourceDestination.script", "CheckConstraint.table")) {
            FIELD_ROLES.put(k, Role.QUALIFIER);
        }
    }

    private static final ClassValue<FieldRef[]> FIELDS = new ClassValue<>() {
        @Override
        protected FieldRef[] computeValue(Class<?> type) {
            List<FieldRef> out = new ArrayList<>();
            for (Class<?> c = type; c != null && isAstClass(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                        continue;
                    }
                    Class<?> t = f.getType();
                    if (t.isPrimitive() || t == String.class || Number.class.isAssignableFrom(t) || t == Boolean.class
                            || t == Character.class || t.isEnum() || t.getName().startsWith("net.sf.jsqlparser.parser.")
                            || t == StringBuilder.class) {
                        continue;
                    }
                    String key = c.getSimpleName() + "." + f.getName();
                    Role role = FIELD_ROLES.get(key);
                    if (role == Role.QUALIFIER && !Table.class.isAssignableFrom(t)
                            && !Collection.class.isAssignableFrom(t)) {
                        role = null;
                    }
                    if (role == Role.QUALIFIER) {
                        continue; // a qualifier names a FROM item; it is no table read of its own
                    }
                    f.setAccessible(true);
                    boolean withItems = f.getName().equals("withItemsList");
                    out.add(new FieldRef(f, role, withItems));
                }
            }
            return out.toArray(new FieldRef[0]);
        }
    };

    private static boolean isAstClass(Class<?> c) {
        return c.getName().startsWith("net.sf.jsqlparser.");
    }

    private final DialectProfile profile;
    private final TableName.Naming naming;
    private final GuardOptions options;
    private final Findings f = new Findings();
    private final ArrayDeque<Work> stack = new ArrayDeque<>();
    private final Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Table nodes that are no tables (the array of a ClickHouse ARRAY JOIN). */
    private final Set<Object> notTables = Collections.newSetFromMap(new IdentityHashMap<>());

    private final Names names;

    private AstSweep(DialectProfile profile, GuardOptions options, Names names) {
        this.profile = profile;
        this.options = options;
        this.naming = names.naming();
        this.names = names;
    }

    /**
     * @param names the text's quoted identifiers, as the lexer found them ({@link SqlLexer.Result})
     */
    static Findings sweep(Statement root, DialectProfile profile, GuardOptions options, Names names) {
        AstSweep s = new AstSweep(profile, options, names);
        s.stack.push(new Work(root, null, Role.READ));
        s.run();
        return s.f;
    }

    /**
     * Every AST node reachable from {@code root} (itself included), each once, by the same complete walk over the
     * parser's fields as the sweep; a column's or a locking clause's table qualifier is not visited as a node of its
     * own. Collections and maps are walked through, not returned.
     */
    static List<Object> nodes(Object root) {
        List<Object> out = new ArrayList<>();
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Object> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Object node = stack.pop();
            if (node instanceof Collection<?> c) {
                c.forEach(o -> {
                    if (o != null) {
                        stack.push(o);
                    }
                });
                if (!isAstClass(node.getClass())) {
                    continue;
                }
            } else if (node instanceof Map<?, ?> m) {
                m.forEach((k, v) -> {
                    if (k != null) {
                        stack.push(k);
                    }
                    if (v != null) {
                        stack.push(v);
                    }
                });
                continue;
            } else if (node instanceof Object[] arr) {
                for (Object o : arr) {
                    if (o != null) {
                        stack.push(o);
                    }
                }
                continue;
            }
            Class<?> k = node.getClass();
            if (!isAstClass(k) || node instanceof Enum<?> || k.getName().startsWith("net.sf.jsqlparser.parser.")
                    || !seen.add(node)) {
                continue;
            }
            if (out.size() >= MAX_NODES) {
                throw GuardException.notParseable("The statement is too large to check.");
            }
            out.add(node);
            for (FieldRef r : FIELDS.get(k)) {
                try {
                    Object v = r.field.get(node);
                    if (v != null) {
                        stack.push(v);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + r.field, e);
                }
            }
        }
        return out;
    }

    private void run() {
        while (!stack.isEmpty()) {
            Work w = stack.pop();
            if (++f.nodes > MAX_NODES) {
                throw GuardException.notParseable("The statement is too large to check.");
            }
            visit(w.node, w.scope, w.role);
        }
    }

    private void push(Object node, Scope scope, Role role) {
        if (node != null) {
            stack.push(new Work(node, scope, role));
        }
    }

    private void visit(Object node, Scope scope, Role role) {
        if (node instanceof Table t) {
            table(t, scope, role);
            if (visited.add(node)) {
                fields(node, scope);
            }
            return;
        }
        if (node instanceof Collection<?> c) {
            List<Object> items = new ArrayList<>(c);
            for (int i = items.size() - 1; i >= 0; i--) {
                push(items.get(i), scope, role);
            }
            if (isAstClass(node.getClass()) && visited.add(node)) {
                fields(node, scope);
            }
            return;
        }
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                push(e.getKey(), scope, role);
                push(e.getValue(), scope, role);
            }
            return;
        }
        if (node instanceof Object[] arr) {
            for (Object o : arr) {
                push(o, scope, role);
            }
            return;
        }
        Class<?> k = node.getClass();
        if (!isAstClass(k) || node instanceof Enum<?> || k.getName().startsWith("net.sf.jsqlparser.parser.")) {
            return;
        }
        if (!visited.add(node)) {
            return;
        }
        inspect(node);
        if (node instanceof InExpression in) {
            inTable(in, scope);
        }
        Scope inner = withItems(node, scope);
        fields(node, inner);
    }

    /** Pushes the fields of an AST node (the WITH list excepted: {@link #withItems} did it). */
    private void fields(Object node, Scope scope) {
        FieldRef[] refs = FIELDS.get(node.getClass());
        for (int i = refs.length - 1; i >= 0; i--) {
            FieldRef r = refs[i];
            if (r.withItems) {
                continue;
            }
            Object v;
            try {
                v = r.field.get(node);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + r.field, e);
            }
            push(v, scope, r.role == null ? Role.READ : r.role);
        }
    }

    /**
     * A node with a WITH list: each CTE body sees the CTEs before it (and itself when the list is RECURSIVE); the
     * rest of the node sees them all. Returns the scope for the rest.
     */
    private Scope withItems(Object node, Scope scope) {
        List<?> items = null;
        for (FieldRef r : FIELDS.get(node.getClass())) {
            if (r.withItems) {
                try {
                    Object v = r.field.get(node);
                    if (v instanceof List<?> l && !l.isEmpty()) {
                        items = l;
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + r.field, e);
                }
            }
        }
        if (items == null) {
            return scope;
        }
        boolean recursive = false;
        for (Object o : items) {
            if (o instanceof WithItem<?> wi && wi.isRecursive()) {
                recursive = true;
            }
        }
        Scope s = scope;
        List<Work> bodies = new ArrayList<>(items.size());
        for (Object o : items) {
            String name = o instanceof WithItem<?> wi && wi.getAlias() != null && wi.getAlias().getName() != null
                    ? naming.key(original(wi.getAlias().getName())) : null;
            Scope own = recursive && name != null ? new Scope(s, name) : s;
            bodies.add(new Work(o, own, Role.READ));
            if (name != null) {
                s = new Scope(s, name);
            }
        }
        for (int i = bodies.size() - 1; i >= 0; i--) {
            stack.push(bodies.get(i));
        }
        return s;
    }

    private String original(String part) {
        return names.original(part);
    }

    private void table(Table t, Scope scope, Role role) {
        if (role == Role.QUALIFIER || notTables.contains(t)) {
            return;
        }
        reference(t.getNameParts(), scope, role);
    }

    /**
     * A table named by the parser's name parts (innermost first, as JSqlParser keeps them): a CTE in scope, a file
     * read through a string literal, or a table, resolved and recorded as read or written.
     */
    private void reference(List<String> inner, Scope scope, Role role) {
        if (inner == null || inner.isEmpty()) {
            return;
        }
        List<String> parts = names.parts(inner);
        if (parts.isEmpty()) {
            return;
        }
        String last = parts.get(parts.size() - 1);
        if (parts.size() == 1 && (last.startsWith("'") || last.startsWith("E'") || last.startsWith("$"))) {
            f.fileSources.add("a string literal");
            return;
        }
        if (options.dialect() == SqlDialectFamily.DUCKDB && parts.size() == 1 && TableName.Naming.isQuoted(last)
                && last.chars().anyMatch(ch -> ch == '.' || ch == '/' || ch == '\\' || ch == ':' || ch == '*')) {
            // DuckDB's replacement scans read "data.csv" or "s3://b/k.parquet" as files when no such table exists
            f.fileSources.add(last);
            return;
        }
        if (parts.size() == 1 && !TableName.Naming.isQuoted(last) && last.equalsIgnoreCase("dual")
                && (options.dialect() == SqlDialectFamily.MYSQL || options.dialect() == SqlDialectFamily.GENERIC)) {
            return;
        }
        if (role == Role.READ && parts.size() == 1 && scope != null && scope.isCte(naming.key(last))) {
            return;
        }
        TableName name = names.resolve(parts);
        (role == Role.WRITE ? f.writes : f.reads).add(name);
    }

    /**
     * {@code x IN name}, unparenthesised: ClickHouse and SQLite read the table {@code name} (SQLite also a table-valued
     * function, {@code x IN json_each(...)}); the parser sees a column. Counted as a table read in every dialect (where
     * the form is invalid the database refuses it anyway).
     */
    private void inTable(InExpression in, Scope scope) {
        Expression right = in.getRightExpression();
        if (right instanceof Column c && c.getColumnName() != null) {
            List<String> inner = new ArrayList<>();
            inner.add(c.getColumnName());
            if (c.getTable() != null && c.getTable().getNameParts() != null) {
                inner.addAll(c.getTable().getNameParts());
            }
            reference(inner, scope, Role.READ);
        } else if (right instanceof Function fn && !(right instanceof TableFunction)) {
            String[] q = qualified(fn.getMultipartName(), fn.getName());
            if (q[0] != null) {
                f.tableFunctions.add(new TableFn(q[0], q[1]));
            }
        }
    }

    /** Records what the node itself means (statement kind, write op, function, locking, INTO, ...). */
    private void inspect(Object node) {
        if (node instanceof Statement) {
            statement(node);
        }
        if (node instanceof TableFunction tf) {
            List<Function> fns = tf.getFunctions();
            if (fns == null || fns.isEmpty()) {
                fns = tf.getFunction() == null ? List.of() : List.of(tf.getFunction());
            }
            for (Function fn : fns) {
                String[] q = qualified(fn.getMultipartName(), fn.getName());
                if (q[0] != null) {
                    f.tableFunctions.add(new TableFn(q[0], q[1]));
                    f.calls.add(new Call(q[0], q[1]));
                }
            }
        } else if (node instanceof Function fn) {
            function(fn.getMultipartName(), fn.getName());
        } else if (node instanceof AnalyticExpression ae) {
            function(null, ae.getName());
        } else if (node instanceof NextValExpression) {
            function(null, "nextval");
        } else if (node instanceof CastExpression cast && cast.getColDataType() != null
                && isNameType(cast.getColDataType().getDataType())) {
            f.nameCasts.add(DialectProfile.lower(cast.getColDataType().getDataType()));
        } else if (node instanceof CreateTable ct && isTemporary(ct)) {
            f.temporaryTable = true;
        } else if (node instanceof VariableAssignment) {
            f.userVariables = true;
        } else if (node instanceof UserVariable) {
            f.variableReads = true;
        } else if (node instanceof Join j) {
            if (j.isArray() && j.getFromItem() instanceof Table t) {
                notTables.add(t); // ClickHouse ARRAY JOIN arr: arr is an array column
            }
        } else if (node instanceof MySqlSelectIntoClause into) {
            if (into.getType() == MySqlSelectIntoClause.Type.VARIABLES) {
                f.userVariables = true;
            } else {
                f.op(StatementKind.WRITE, "outfile");
                f.hiddenWrites.add("INTO " + into.getType());
            }
        } else if (node instanceof InsertConflictAction ca) {
            if (ca.getConflictActionType() == ConflictActionType.DO_UPDATE) {
                f.op(StatementKind.WRITE, "update");
            }
        } else if (node instanceof InsertDuplicateAction) {
            f.op(StatementKind.WRITE, "update");
        } else if (node instanceof ForUpdateClause fu) {
            if (fu.getMode() == null || isLocking(fu.getMode())) {
                f.lockingRead = true;
            }
        }
        String simple = node.getClass().getSimpleName();
        switch (simple) {
            case "MergeInsert" -> f.op(StatementKind.WRITE, "insert");
            case "MergeUpdate" -> f.op(StatementKind.WRITE, "update");
            case "MergeDelete" -> f.op(StatementKind.WRITE, "delete");
            case "ShowStatement", "ShowColumnsStatement", "ShowTablesStatement", "ShowIndexStatement" -> {
                f.show = true;
                f.shown.add(node.toString().toLowerCase(java.util.Locale.ROOT));
            }
            default -> { }
        }
        if (node instanceof Select sel) {
            if (sel.getForMode() != null && isLocking(sel.getForMode())) {
                f.lockingRead = true;
            }
            if (sel.getForUpdate() != null && (sel.getForUpdate().getMode() == null
                    || isLocking(sel.getForUpdate().getMode()))) {
                f.lockingRead = true;
            }
        }
        if (node instanceof PlainSelect ps) {
            if ((ps.getIntoTables() != null && !ps.getIntoTables().isEmpty()) || ps.getIntoTempTable() != null) {
                f.op(StatementKind.WRITE, "create");
                f.hiddenWrites.add("SELECT ... INTO");
            }
        }
    }

    /** PostgreSQL's object-identifier types whose input looks up an object by name ({@code 'secret'::regclass}). */
    private static boolean isNameType(String type) {
        if (type == null) {
            return false;
        }
        String t = DialectProfile.lower(type.strip());
        int dot = t.lastIndexOf('.');
        t = dot >= 0 ? t.substring(dot + 1) : t;
        return t.startsWith("reg") && Set.of("regclass", "regproc", "regprocedure", "regoper", "regoperator",
                "regtype", "regconfig", "regdictionary", "regnamespace", "regrole", "regcollation").contains(t);
    }

    private static boolean isTemporary(CreateTable ct) {
        List<String> options = ct.getCreateOptionsStrings();
        if (options == null) {
            return false;
        }
        for (String o : options) {
            String u = o.toUpperCase(java.util.Locale.ROOT);
            if (u.equals("TEMPORARY") || u.equals("TEMP")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isLocking(ForMode m) {
        return m == ForMode.UPDATE || m == ForMode.SHARE || m == ForMode.NO_KEY_UPDATE || m == ForMode.KEY_SHARE;
    }

    private void statement(Object node) {
        String simple = node.getClass().getSimpleName();
        if (node instanceof Select) {
            f.kinds.add(StatementKind.READ);
            return;
        }
        if (node instanceof Upsert u) {
            String op = switch (u.getUpsertType() == null ? "REPLACE" : u.getUpsertType().name()) {
                case "UPSERT" -> "upsert";
                case "INSERT_OR_ABORT", "INSERT_OR_FAIL", "INSERT_OR_IGNORE", "INSERT_OR_ROLLBACK" -> "insert";
                default -> "replace";
            };
            f.op(StatementKind.WRITE, op);
            return;
        }
        if (node instanceof Execute ex) {
            String op = ex.getExecType() == null ? "call" : switch (ex.getExecType()) {
                case EXECUTE -> "execute";
                case EXEC -> "exec";
                default -> "call";
            };
            f.op(StatementKind.SESSION, op);
            return;
        }
        switch (simple) {
            case "ExplainStatement" -> {
                f.kinds.add(StatementKind.READ);
                f.explained = true;
            }
            case "DescribeStatement", "ShowStatement", "ShowColumnsStatement",
                    "ShowTablesStatement", "ShowIndexStatement" -> f.kinds.add(StatementKind.READ);
            case "Insert", "InsertBulk" -> f.op(StatementKind.WRITE, "insert");
            case "Update" -> f.op(StatementKind.WRITE, "update");
            case "Delete" -> f.op(StatementKind.WRITE, "delete");
            case "Merge" -> f.op(StatementKind.WRITE, "merge");
            case "ParenthesedInsert", "ParenthesedUpdate", "ParenthesedDelete" -> f.kinds.add(StatementKind.WRITE);
            case "Import" -> f.op(StatementKind.WRITE, "import");
            case "Export" -> f.op(StatementKind.WRITE, "export");
            case "Drop" -> f.op(StatementKind.DDL, "drop");
            case "Truncate" -> f.op(StatementKind.DDL, "truncate");
            case "RenameTableStatement" -> f.op(StatementKind.DDL, "rename");
            case "Grant" -> f.op(StatementKind.DDL, "grant");
            case "Revoke" -> f.op(StatementKind.DDL, "revoke");
            case "Comment" -> f.op(StatementKind.DDL, "comment");
            case "Analyze" -> f.op(StatementKind.DDL, "analyze");
            case "RefreshMaterializedViewStatement" -> f.op(StatementKind.DDL, "refresh");
            case "PurgeStatement" -> f.op(StatementKind.DDL, "purge");
            case "SetStatement", "SetIdentityInsertStatement" -> f.op(StatementKind.SESSION, "set");
            case "ResetStatement" -> f.op(StatementKind.SESSION, "reset");
            case "Commit" -> f.op(StatementKind.SESSION, "commit");
            case "RollbackStatement" -> f.op(StatementKind.SESSION, "rollback");
            case "SavepointStatement" -> f.op(StatementKind.SESSION, "savepoint");
            case "UseStatement" -> f.op(StatementKind.SESSION, "use");
            case "SessionStatement" -> f.op(StatementKind.SESSION, "session");
            case "DeclareStatement" -> f.op(StatementKind.SESSION, "declare");
            case "AlterSession" -> f.op(StatementKind.SESSION, "alter");
            case "LockStatement" -> f.op(StatementKind.SESSION, "lock");
            default -> {
                if (simple.startsWith("Create")) {
                    f.op(StatementKind.DDL, "create");
                } else if (simple.startsWith("Alter")) {
                    f.op(StatementKind.DDL, "alter");
                } else {
                    f.op(StatementKind.OTHER, simple.toLowerCase(java.util.Locale.ROOT).replace("statement", ""));
                }
            }
        }
    }

    /** {name, qualifier} lower case without quotes; name null when unknown. */
    private String[] qualified(List<String> multipart, String name) {
        List<String> parts = multipart != null && !multipart.isEmpty() ? multipart
                : name == null ? List.of() : List.of(name.split("\\."));
        if (parts.isEmpty()) {
            return new String[] {null, null};
        }
        String n = unquote(parts.get(parts.size() - 1));
        String q = parts.size() >= 2 ? unquote(parts.get(parts.size() - 2)) : null;
        return new String[] {n, q};
    }

    private String unquote(String s) {
        if (s == null) {
            return null;
        }
        String t = original(s.strip());
        if (TableName.Naming.isQuoted(t)) {
            t = t.substring(1, t.length() - 1);
        }
        return DialectProfile.lower(t);
    }

    private void function(List<String> multipart, String name) {
        String[] q = qualified(multipart, name);
        if (q[0] == null) {
            return;
        }
        f.functions.add(q[0]);
        f.calls.add(new Call(q[0], q[1]));
        Set<FunctionClass> fc = profile.classify(q[0]);
        if (!fc.isEmpty()) {
            f.flaggedFunctions.putIfAbsent(q[0], fc);
        }
    }
}
