package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SchemaColumn;
import io.queryapigate.dialect.spi.SchemaTable;
import io.queryapigate.dialect.spi.TableNamespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Folds the rows of a catalogue query into {@link SchemaTable}s, for {@link
 * io.queryapigate.dialect.spi.Dialect#describeNamespace}: a dialect runs its catalogue query through its own {@code
 * execute} (so that it gets a read's session, time limit and parameter binding) with this as the sink, and {@link
 * #maxRows()} as the request's row cap.
 *
 * <p>Each row is one column of one relation, in this layout: {@code 0} catalog (or null), {@code 1} schema, {@code
 * 2} relation name, {@code 3} kind ({@code TABLE}, {@code VIEW}, anything else is {@link SchemaTable.Kind#OTHER}),
 * {@code 4} the relation's comment (null or blank for none), {@code 5} the column's name (null for a relation
 * without columns, from an outer join), and from {@code 6} on what the dialect's {@link ColumnReader} reads. The
 * rows of one relation must come together, its columns in declared order.
 *
 * <p>Bounded, so that a catalogue of any size cannot exhaust memory: at most {@value #MAX_TABLES} relations and
 * {@value #MAX_COLUMNS} columns in all. The first relation past either bound stops the read (its {@code row}
 * answers {@code false}); only whole relations are kept. {@link #tables()} sorts them by catalog, schema and name.
 * A full answer (10,000 tables of 10 columns with names and comments) retains about 27 MB.
 *
 * <p>Not thread-safe: one per call.
 */
public final class CatalogueSink implements RowSink {

    /** The most relations one answer holds. */
    public static final int MAX_TABLES = 10_000;
    /** The most columns one answer holds, over all its relations. */
    public static final int MAX_COLUMNS = 100_000;

    private static final Comparator<SchemaTable> ORDER = Comparator
            .comparing((SchemaTable t) -> Objects.requireNonNullElse(t.namespace().catalog(), ""))
            .thenComparing(t -> Objects.requireNonNullElse(t.namespace().schema(), ""))
            .thenComparing(SchemaTable::name);

    private final ColumnReader reader;
    private final List<SchemaTable> tables = new ArrayList<>();
    private int columnCount;
    private boolean truncated;
    private Object[] current; // the first six values of the relation being read
    private List<SchemaColumn> currentColumns = new ArrayList<>();

    /**
     * A sink for one catalogue query.
     *
     * @param reader reads a row's column facts, from position 5 on
     */
    public CatalogueSink(ColumnReader reader) {
        this.reader = requireNonNull(reader, "reader is null");
    }

    /**
     * The row cap to give the catalogue query: enough rows for {@value #MAX_TABLES} relations and {@value
     * #MAX_COLUMNS} columns and one more, so that this sink, not the dialect, is the one that stops.
     *
     * @return the cap
     */
    public static long maxRows() {
        return MAX_TABLES + (long) MAX_COLUMNS + 1;
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        if (columns.size() < 6) {
            throw new IllegalStateException("a catalogue query returns at least 6 columns, got " + columns.size());
        }
    }

    @Override
    public boolean row(Object[] values) {
        if (truncated) {
            return false; // a caller that feeds rows after the stop adds nothing
        }
        if (current == null || !sameRelation(values)) {
            finishCurrent();
            if (tables.size() == MAX_TABLES) {
                truncated = true;
                return false;
            }
            current = new Object[] {values[0], values[1], values[2], values[3], values[4]};
            currentColumns = new ArrayList<>();
        }
        if (values[5] == null) {
            return true;
        }
        if (columnCount == MAX_COLUMNS) {
            current = null; // a relation cut short is left out
            truncated = true;
            return false;
        }
        columnCount++;
        currentColumns.add(requireNonNull(reader.column(values), "the column reader returned null"));
        return true;
    }

    /**
     * The relations read, sorted by catalog, schema and name.
     *
     * @return the relations
     */
    public List<SchemaTable> tables() {
        finishCurrent();
        List<SchemaTable> sorted = new ArrayList<>(tables);
        sorted.sort(ORDER);
        return List.copyOf(sorted);
    }

    /**
     * Whether a bound left relations out.
     *
     * @return true when the catalogue had more than the answer holds
     */
    public boolean truncated() {
        return truncated;
    }

    private boolean sameRelation(Object[] values) {
        return Objects.equals(current[0], values[0]) && Objects.equals(current[1], values[1])
                && Objects.equals(current[2], values[2]);
    }

    private void finishCurrent() {
        if (current == null) {
            return;
        }
        String catalog = current[0] == null ? null : current[0].toString();
        String schema = current[1] == null ? null : current[1].toString();
        tables.add(new SchemaTable(new TableNamespace(catalog, schema), current[2].toString(), kind(current[3]),
                text(current[4]), currentColumns));
        current = null;
    }

    private static SchemaTable.Kind kind(Object value) {
        String kind = value == null ? "" : value.toString();
        return switch (kind) {
            case "TABLE" -> SchemaTable.Kind.TABLE;
            case "VIEW" -> SchemaTable.Kind.VIEW;
            default -> SchemaTable.Kind.OTHER;
        };
    }

    /**
     * A catalogue value as optional text: empty for null and for blank text (engines store "no comment" as an
     * empty string).
     *
     * @param value the value, or null
     * @return the text, or empty
     */
    public static Optional<String> text(Object value) {
        if (value == null) {
            return Optional.empty();
        }
        String text = value.toString();
        return text.isBlank() ? Optional.empty() : Optional.of(text);
    }

    /**
     * A catalogue flag as a boolean: {@link Boolean}, a number (non-zero is true) or text ({@code YES}, {@code
     * true}, {@code t}, {@code 1} are true, case ignored).
     *
     * @param value the value, or null (false)
     * @return the flag
     */
    public static boolean flag(Object value) {
        return switch (value) {
            case null -> false;
            case Boolean b -> b;
            case Number n -> n.longValue() != 0;
            default -> switch (value.toString().strip().toLowerCase(Locale.ROOT)) {
                case "yes", "y", "true", "t", "1" -> true;
                default -> false;
            };
        };
    }

    /**
     * Nullability from a catalogue's "is nullable" flag ({@link #flag}); {@link Nullability#UNKNOWN} for null.
     *
     * @param nullable the value, or null
     * @return the nullability
     */
    public static Nullability nullability(Object nullable) {
        if (nullable == null) {
            return Nullability.UNKNOWN;
        }
        return flag(nullable) ? Nullability.NULLABLE : Nullability.NO_NULLS;
    }

    /**
     * The first value a read of {@code sql} returns ({@link Dialect#serverVersion}'s {@code SELECT version()}).
     *
     * @param dialect the dialect to read through
     * @param sql a statement without parameters
     * @param timeout its time limit
     * @return the first row's first column as text, or empty when there is none
     * @throws io.queryapigate.dialect.spi.DialectException as {@code execute} does
     */
    public static Optional<String> firstValue(Dialect dialect, String sql, Duration timeout) {
        return firstColumn(dialect, QueryRequest.read(sql, List.of(), timeout, 1)).stream().findFirst();
    }

    /**
     * The names a read of {@code sql} returns in its first column, sorted ({@link Dialect#databases}), at most
     * {@value #MAX_TABLES}.
     *
     * @param dialect the dialect to read through
     * @param sql a statement without parameters
     * @param timeout its time limit
     * @return the names, sorted
     * @throws io.queryapigate.dialect.spi.DialectException as {@code execute} does
     */
    public static List<String> sortedNames(Dialect dialect, String sql, Duration timeout) {
        return firstColumn(dialect, QueryRequest.read(sql, List.of(), timeout, MAX_TABLES)).stream().sorted().toList();
    }

    /**
     * Runs {@code request} through {@code dialect}'s {@code execute} and answers the first value of each row as
     * text, nulls skipped: for a dialect's {@link Dialect#databases} and its other one-column catalogue reads.
     *
     * @param dialect the dialect, which runs the request as any call
     * @param request a read returning names in its first column
     * @return the values, in the result's order
     * @throws io.queryapigate.dialect.spi.DialectException as {@code execute} does
     */
    public static List<String> firstColumn(Dialect dialect, QueryRequest request) {
        List<String> values = new ArrayList<>();
        dialect.execute(request, new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] row) {
                if (row[0] != null) {
                    values.add(row[0].toString());
                }
                return true;
            }
        });
        return values;
    }

    /** Reads one column of a relation from a catalogue row. */
    @FunctionalInterface
    public interface ColumnReader {
        /**
         * The column that {@code row} describes.
         *
         * @param row the catalogue row; position 5 holds the column's name, never null here
         * @return the column
         */
        SchemaColumn column(Object[] row);
    }
}
