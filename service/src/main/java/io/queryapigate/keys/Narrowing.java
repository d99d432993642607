package io.queryapigate.keys;

import io.queryapigate.auth.Grants;
import io.queryapigate.auth.IpRange;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.Quota;
import io.queryapigate.limits.Rate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A key made from a role: what it may do is the role's grants narrowed by the key's own, field by field, so that the
 * key can never reach or do more than its role, whatever either says:
 * <ul>
 *   <li>{@code connections}, {@code queries}: the key's names that the role has too ({@code "*"} on either side is
 *       the other side's list);</li>
 *   <li>{@code adhoc_sql}, {@code allow_writes}: only when both allow it;</li>
 *   <li>{@code allowed_write_ops}, {@code allowed_tables}: the names in both (either side unset: the other's);</li>
 *   <li>{@code allowed_ips}: the key's ranges that lie inside one of the role's (either side unset: the other's);</li>
 *   <li>{@code mask}: the role's rules, and the key's on columns the role does not mask (strict when either is);</li>
 *   <li>{@code rate_limit}: the lower of the two; {@code quota}: each count the lower, when both count per the same
 *       period (per another period: the role's); {@code max_rows}, {@code max_concurrent}, {@code query_timeout}:
 *       the lower.</li>
 * </ul>
 * A key made from a role starts from {@link #AS_THE_ROLE}: everything the role has, until its own fields narrow it.
 */
public final class Narrowing {
    /** A key's own grants that narrow nothing: the key gets exactly its role's. */
    public static final Grants AS_THE_ROLE = new Grants(List.of("*"), List.of("*"), true, true, null, null, null,
            null, null, null, null, null, null);

    private Narrowing() {}

    /** What a key made from {@code role} may do, given its own grants. */
    public static Grants apply(Grants role, Grants own) {
        return new Grants(
                reach(role.connections(), own.connections()),
                reach(role.queries(), own.queries()),
                role.adhocSql() && own.adhocSql(),
                role.allowWrites() && own.allowWrites(),
                common(role.allowedWriteOps(), own.allowedWriteOps()),
                common(role.allowedTables(), own.allowedTables()),
                ips(role.allowedIps(), own.allowedIps()),
                masks(role.mask(), own.mask()),
                rate(role.rateLimit(), own.rateLimit()),
                quota(role.quota(), own.quota()),
                lower(role.maxRows(), own.maxRows()),
                lower(role.maxConcurrent(), own.maxConcurrent()),
                lower(role.queryTimeout(), own.queryTimeout()));
    }

    /** The names in {@code own} the role does not reach (empty when it reaches them all; {@code "*"} is the role's). */
    public static List<String> beyond(List<String> role, List<String> own) {
        if (role.contains("*")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String name : own) {
            if (!name.equals("*") && !role.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /** The ranges in {@code own} that lie inside none of the role's (empty when the role has no restriction). */
    public static List<String> rangesBeyond(List<String> role, List<String> own) {
        List<String> out = new ArrayList<>();
        if (role == null || own == null) {
            return out;
        }
        for (String range : own) {
            if (!inside(range, role)) {
                out.add(range);
            }
        }
        return out;
    }

    private static List<String> reach(List<String> role, List<String> own) {
        if (own.contains("*")) {
            return role;
        }
        if (role.contains("*")) {
            return own;
        }
        List<String> out = new ArrayList<>(own);
        out.retainAll(role);
        return out;
    }

    private static List<String> common(List<String> role, List<String> own) {
        if (role == null) {
            return own;
        }
        if (own == null) {
            return role;
        }
        List<String> out = new ArrayList<>();
        for (String name : own) {
            for (String r : role) {
                if (r.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)) && !out.contains(name)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    private static List<String> ips(List<String> role, List<String> own) {
        if (role == null) {
            return own;
        }
        if (own == null) {
            return role;
        }
        List<String> out = new ArrayList<>();
        for (String range : own) {
            if (inside(range, role)) {
                out.add(range);
            }
        }
        return out;
    }

    private static boolean inside(String range, List<String> outer) {
        IpRange inner = IpRange.of(range);
        for (String o : outer) {
            IpRange r = IpRange.of(o);
            if (r.network().length == inner.network().length && r.prefix() <= inner.prefix()
                    && r.contains(inner.network())) {
                return true;
            }
        }
        return false;
    }

    private static List<MaskRule> masks(List<MaskRule> role, List<MaskRule> own) {
        if (own.isEmpty()) {
            return role;
        }
        Map<String, MaskRule> byColumn = new LinkedHashMap<>();
        for (MaskRule r : role) {
            byColumn.put(r.column().toLowerCase(Locale.ROOT), r);
        }
        for (MaskRule k : own) {
            String column = k.column().toLowerCase(Locale.ROOT);
            MaskRule r = byColumn.get(column);
            if (r == null) {
                byColumn.put(column, k);
            } else if (k.isStrict() && !r.isStrict()) {
                byColumn.put(column, new MaskRule(r.column(), r.action(), r.value(), r.keep(), true));
            }
        }
        return new ArrayList<>(byColumn.values());
    }

    private static String rate(String role, String own) {
        if (role == null || own == null) {
            return role == null ? own : role;
        }
        Rate r = Rate.of(role);
        Rate k = Rate.of(own);
        // count / period compared without division (counts have at most 9 digits, periods at most 30 days)
        return k.count() * r.period().toMillis() < r.count() * k.period().toMillis() ? own : role;
    }

    private static Quota quota(Quota role, Quota own) {
        if (role == null || own == null) {
            return role == null ? own : role;
        }
        if (!role.per().equals(own.per())) {
            return role;
        }
        return new Quota(lower(role.calls(), own.calls()), lower(role.rows(), own.rows()), role.per());
    }

    private static <T extends Comparable<T>> T lower(T role, T own) {
        if (role == null || own == null) {
            return role == null ? own : role;
        }
        return own.compareTo(role) < 0 ? own : role;
    }
}
