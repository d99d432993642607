package io.queryapigate.jwt;

import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.Quota;
import io.queryapigate.limits.Rate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Several roles' grants as one, the most capable set (an issuer's {@code combineRoles}): reach adds up (connections,
 * queries, ad-hoc SQL, writes), a restriction holds only where every role has it (a null list, no restriction,
 * wins; otherwise the lists are joined; a column stays masked only when every role masks it alike), and each
 * numeric limit takes the larger value (none wins).
 */
final class RoleUnion {
    private RoleUnion() {}

    static Grants of(List<Grants> all) {
        Grants first = all.get(0);
        if (all.size() == 1) {
            return first;
        }
        Set<String> connections = new LinkedHashSet<>();
        Set<String> queries = new LinkedHashSet<>();
        boolean adhoc = false;
        boolean writes = false;
        List<String> writeOps = List.of();
        List<String> tables = List.of();
        List<String> ips = List.of();
        List<MaskRule> mask = first.mask();
        String rate = first.rateLimit();
        Quota quota = first.quota();
        Integer maxRows = first.maxRows();
        Integer maxConcurrent = first.maxConcurrent();
        BigDecimal timeout = first.queryTimeout();
        for (Grants g : all) {
            connections.addAll(g.connections());
            queries.addAll(g.queries());
            adhoc |= g.adhocSql();
            writes |= g.allowWrites();
            writeOps = g.allowWrites() ? union(writeOps, g.allowedWriteOps()) : writeOps;
            tables = union(tables, g.allowedTables());
            ips = union(ips, g.allowedIps());
            List<MaskRule> common = new ArrayList<>(mask);
            common.retainAll(g.mask());
            mask = common;
            rate = rate == null || g.rateLimit() == null ? null : faster(rate, g.rateLimit());
            quota = quota == null || g.quota() == null ? null : larger(quota, g.quota());
            maxRows = maxRows == null || g.maxRows() == null ? null : Math.max(maxRows, g.maxRows());
            maxConcurrent = maxConcurrent == null || g.maxConcurrent() == null ? null
                    : Math.max(maxConcurrent, g.maxConcurrent());
            timeout = timeout == null || g.queryTimeout() == null ? null : timeout.max(g.queryTimeout());
        }
        return new Grants(List.copyOf(connections), List.copyOf(queries), adhoc, writes, writes ? writeOps : null,
                tables, ips, mask, rate, quota, maxRows, maxConcurrent, timeout);
    }

    // null (no restriction) wins; a union otherwise
    private static List<String> union(List<String> so, List<String> more) {
        if (so == null || more == null) {
            return null;
        }
        Set<String> all = new LinkedHashSet<>(so);
        all.addAll(more);
        return List.copyOf(all);
    }

    private static String faster(String a, String b) {
        Rate x = Rate.of(a);
        Rate y = Rate.of(b);
        // calls per millisecond, compared without division: x.count / x.period >= y.count / y.period
        return BigDecimal.valueOf(x.count()).multiply(BigDecimal.valueOf(y.period().toMillis()))
                .compareTo(BigDecimal.valueOf(y.count()).multiply(BigDecimal.valueOf(x.period().toMillis()))) >= 0
                ? a : b;
    }

    private static Quota larger(Quota a, Quota b) {
        if (!a.per().equals(b.per())) {
            return "month".equals(a.per()) ? a : b; // a month's budget is the larger
        }
        Long calls = a.calls() == null || b.calls() == null ? null : Math.max(a.calls(), b.calls());
        Long rows = a.rows() == null || b.rows() == null ? null : Math.max(a.rows(), b.rows());
        return calls == null && rows == null ? null : new Quota(calls, rows, a.per());
    }
}
