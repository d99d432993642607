package io.queryapigate.guard;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.MaskPlan;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.guard.TableName;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Column masking: the guard traces, on its own parse of the statement, which masked columns each result column is
 * computed from ({@link MaskPlan}; see {@code guard/MaskTrace} for what it admits and refuses); this class turns
 * that into actions (the strictest matching rule per result column: {@code null} over {@code fixed} over {@code
 * last} over {@code hash}), checks with the database the columns the statement names on a masked table that no rule
 * covers (each must be a real column: PostgreSQL reads {@code p.row_to_json} as a call with the whole row), and
 * replaces the values as the rows arrive, refusing a result whose column count differs from the statement's items.
 */
public final class Masking {
    private static final Logger LOG = LoggerFactory.getLogger(Masking.class);

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

    /**
     * Actions by output column index; empty when nothing in the result is masked.
     *
     * @param columns the number of result columns the statement must return, or -1 when no masked table is read
     */
    public record Plan(Map<Integer, Action> actions, int columns) {
        public static final Plan NONE = new Plan(Map.of(), -1);

        public boolean isEmpty() {
            return actions.isEmpty() && columns < 0;
        }
    }

    private record TableKey(String connection, TableName table) {}

    private final byte[] hashKey;
    /** The real columns (folded) of masked tables, per connection: tables change rarely, a call must not wait. */
    private final Cache<TableKey, Set<String>> columns = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(java.time.Duration.ofMinutes(5)).build();

    /** {@code hashKey} may be null: keys with hash rules are then refused when they are created. */
    public Masking(String hashKey) {
        this.hashKey = hashKey == null || hashKey.isBlank() ? null : hashKey.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The plan for one checked statement and one key's rules (in the order the guard's masks were built from).
     *
     * @throws ApiException 403 {@code column_masked_unresolvable} when a column named on a masked table is not one
     *     of its real columns (a whole-row call in disguise) or the table's columns cannot be read
     */
    public Plan plan(GuardResult verdict, List<MaskRule> rules, Connection connection) {
        MaskPlan traced = verdict.masks();
        if (traced == null) {
            return Plan.NONE;
        }
        for (MaskPlan.ColumnRef ref : traced.toVerify()) {
            Set<String> real = columnsOf(connection, ref.table());
            if (!real.contains(ref.column())) {
                throw unresolvable(ref.table() + "." + ref.column() + " is not a column of the masked table (a "
                        + "function applied to its whole row)");
            }
        }
        Map<Integer, Action> actions = new HashMap<>();
        List<Set<Integer>> byColumn = traced.masksByColumn();
        for (int i = 0; i < byColumn.size(); i++) {
            Action strictest = null;
            for (int r : byColumn.get(i)) {
                MaskRule rule = rules.get(r);
                Action a = new Action(rule.action(), rule.value(), rule.keep() == null ? 0 : rule.keep());
                if (strictest == null || a.strictness() > strictest.strictness()) {
                    strictest = a;
                }
            }
            if (strictest != null) {
                actions.put(i, strictest);
            }
        }
        return new Plan(Map.copyOf(actions), traced.columns());
    }

    private Set<String> columnsOf(Connection connection, TableName table) {
        return columns.get(new TableKey(connection.name(), table), k -> describe(connection, table));
    }

    /** Asks the database for the table's columns: {@code SELECT * FROM <table> WHERE 1 = 0}. */
    private static Set<String> describe(Connection connection, TableName table) {
        LexicalRules rules = connection.lexicalRules();
        char q = connection.family() == SqlDialectFamily.MYSQL || connection.family() == SqlDialectFamily.CLICKHOUSE
                || rules.has(LexicalRules.Feature.DOUBLE_QUOTED_STRINGS)
                && rules.has(LexicalRules.Feature.BACKTICK_IDENTIFIERS) ? '`' : '"';
        StringBuilder sql = new StringBuilder("SELECT * FROM ");
        List<String> parts = table.parts();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                sql.append('.');
            }
            sql.append(q).append(parts.get(i).replace(String.valueOf(q), String.valueOf(q) + q)).append(q);
        }
        sql.append(" WHERE 1 = 0");
        Set<String> out = new HashSet<>();
        try {
            connection.dialect().execute(new QueryRequest(sql.toString(), List.of(), AccessMode.READ,
                    connection.timeout(), 1, false, "mask-columns", null), new RowSink() {
                        @Override
                        public void columns(List<ColumnInfo> columns) {
                            for (ColumnInfo c : columns) {
                                out.add(c.name().toLowerCase(Locale.ROOT));
                            }
                        }

                        @Override
                        public boolean row(Object[] values) {
                            return false;
                        }
                    });
        } catch (DialectException e) {
            LOG.warn("connection '{}': cannot read the columns of the masked table {}: {}", connection.name(), table,
                    e.getMessage());
            throw unresolvable("the columns of the masked table " + table + " cannot be read");
        }
        return Set.copyOf(out);
    }

    private static ApiException unresolvable(String why) {
        return ApiException.forbidden(GuardException.COLUMN_MASKED_UNRESOLVABLE,
                "This API key has masked columns and the query's use of them cannot be traced: " + why + ".");
    }

    /**
     * Wraps a sink so masked columns are replaced before any format sees them; a result whose column count is not
     * the plan's is refused.
     */
    public RowSink apply(Plan plan, RowSink target) {
        RowSink delegate = target;
        if (plan.isEmpty()) {
            return delegate;
        }
        int max = plan.actions().keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
        Action[] byIndex = new Action[max + 1];
        plan.actions().forEach((i, a) -> byIndex[i] = a);
        return new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {
                if (columns.size() != plan.columns()) {
                    // the statement expanded into more (or fewer) columns than it has items (ClickHouse untuple,
                    // PROCEDURE ANALYSE, ...): masks by position would land on the wrong columns
                    throw unresolvable("the result has " + columns.size() + " columns for " + plan.columns()
                            + " select items");
                }
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
