package io.queryapigate.guard;

import java.util.Locale;
import java.util.Objects;

/**
 * One masked column, as the guard traces it: results computed from {@code table.column} must be replaced.
 *
 * @param table the table, resolved against the connection's defaults ({@link TableName#parse})
 * @param column the column name as the rule gives it; compared without regard to case or quoting
 * @param strict true when the column may appear nowhere but the select list (not in WHERE, JOIN, GROUP BY, ORDER
 *     BY, HAVING or window clauses), which closes the oracle that filtering on a masked column opens
 */
public record GuardMask(TableName table, String column, boolean strict) {

    public GuardMask {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
        column = Names.fold(column);
        table = Names.fold(table);
    }

    @Override
    public String toString() {
        return table + "." + column.toLowerCase(Locale.ROOT) + (strict ? " (strict)" : "");
    }
}
