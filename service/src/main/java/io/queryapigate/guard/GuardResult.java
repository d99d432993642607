package io.queryapigate.guard;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.SortedSet;

/**
 * What the guard found in an admitted statement. Immutable and independent of the call, so a service may cache it
 * per saved-query version (together with the options it was checked with).
 *
 * @param kind the statement's classification (the most severe of the statement and anything nested in it)
 * @param writeOps the operation keywords of every non-read part, lower case and sorted ({@code insert},
 *     {@code delete}, {@code create}, {@code call}, ...); empty for a read
 * @param tablesRead the tables read (FROM, JOIN, subqueries at any depth, CTE bodies, USING, DESCRIBE targets),
 *     CTE names excluded per scope
 * @param tablesWritten the targets of writes and DDL
 * @param tableFunctions the names (lower case) of table functions used in FROM, generators included
 * @param functions the names (lower case, unqualified) of every function called anywhere
 * @param lockingRead true for {@code FOR UPDATE}, {@code FOR SHARE}, {@code FOR NO KEY UPDATE}, {@code FOR KEY SHARE}
 * @param parsed false when the parser could not read the statement and it was admitted on its leading keyword
 *     (only for unrestricted writers, and for SHOW/DESCRIBE forms the parser lacks); tables are then unknown
 * @param masks where the caller's masked columns flow, when the statement reads a masked table; null otherwise
 */
public record GuardResult(
        StatementKind kind,
        SortedSet<String> writeOps,
        Set<TableName> tablesRead,
        Set<TableName> tablesWritten,
        Set<String> tableFunctions,
        Set<String> functions,
        boolean lockingRead,
        boolean parsed,
        MaskPlan masks) {

    public GuardResult {
        writeOps = Collections.unmodifiableSortedSet(writeOps);
        tablesRead = Collections.unmodifiableSet(tablesRead);
        tablesWritten = Collections.unmodifiableSet(tablesWritten);
        tableFunctions = Collections.unmodifiableSet(tableFunctions);
        functions = Collections.unmodifiableSet(functions);
    }

    /** This result with where the caller's masked columns flow. */
    GuardResult withMasks(MaskPlan plan) {
        return new GuardResult(kind, writeOps, tablesRead, tablesWritten, tableFunctions, functions, lockingRead,
                parsed, plan);
    }

    /** True when the statement is a plain read. */
    public boolean isRead() {
        return kind == StatementKind.READ;
    }

    /** True when a table function was used in FROM. */
    public boolean usesTableFunctions() {
        return !tableFunctions.isEmpty();
    }

    /** Every table read or written. */
    public Set<TableName> tables() {
        Set<TableName> all = new LinkedHashSet<>(tablesRead);
        all.addAll(tablesWritten);
        return Collections.unmodifiableSet(all);
    }
}
