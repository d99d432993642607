package io.queryapigate.guard;

import java.util.List;
import java.util.Set;

/**
 * Where masked columns flow in an admitted statement: for each result column, which of the caller's masks
 * ({@link GuardOptions#masks()}, by index) its value is computed from.
 *
 * @param columns how many result columns the statement returns; a result with another count cannot be masked by
 *     position and must be refused
 * @param masksByColumn per result column, the indexes of the masks it reads (empty when it reads none)
 * @param toVerify columns the statement names on a masked table that are not masked: each must be a real column of
 *     that table (PostgreSQL also reads {@code p.row_to_json} as a call with the whole row), which only the database
 *     can tell
 */
public record MaskPlan(int columns, List<Set<Integer>> masksByColumn, Set<ColumnRef> toVerify) {

    public MaskPlan {
        masksByColumn = List.copyOf(masksByColumn);
        toVerify = Set.copyOf(toVerify);
    }

    /** A column named on a table: the table as resolved (folded), the column folded. */
    public record ColumnRef(TableName table, String column) {}
}
