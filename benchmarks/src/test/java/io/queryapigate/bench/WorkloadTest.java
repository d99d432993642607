package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    private final List<Workload.Query> queries = Workload.queries("qag_bench_", 1000);

    @Test
    void sixQueriesPlusTheCachedTwinAllUseTheirDeclaredParametersOnly() {
        assertThat(queries).extracting(Workload.Query::name)
                .containsExactly("customer", "order_status", "order_history", "payments", "profile", "stock_level",
                        "order_status_cache_uniform", "order_status_cache_zipf");
        for (Workload.Query q : queries) {
            assertThat(q.markers()).as(q.name()).containsOnlyOnceElementsOf(q.parameters().keySet());
            assertThat(q.parameters().keySet()).as(q.name()).containsExactlyInAnyOrderElementsOf(q.markers());
            assertThat(q.jdbcSql()).as(q.name()).doesNotContain(":w", ":d", ":c", ":threshold");
        }
        assertThat(Workload.byName(queries, Workload.cached("zipf")).cacheTtl()).isEqualTo(30);
        assertThat(Workload.byName(queries, "stock_level").sql()).contains("COUNT(DISTINCT");
    }

    @Test
    void drawsAreDeterministicAndInRange() {
        List<Workload.Call> a = Workload.draws(2, "uniform", 5000, 1);
        List<Workload.Call> b = Workload.draws(2, "uniform", 5000, 1);
        assertThat(a).isEqualTo(b);
        for (Workload.Call c : a) {
            assertThat(c.w()).isBetween(1, 2);
            assertThat(c.d()).isBetween(1, Tpcc.DISTRICTS);
            assertThat(c.c()).isBetween(1, Tpcc.CUSTOMERS_PER_DISTRICT);
            assertThat(c.threshold()).isBetween(10, 20);
        }
    }

    @Test
    void zipfConcentratesOnAFewCustomersSpreadOverDistricts() {
        List<Workload.Call> z = Workload.draws(2, "zipf", 20_000, 1);
        Map<Workload.Call, Integer> byCustomer = new HashMap<>();
        for (Workload.Call c : z) {
            byCustomer.merge(new Workload.Call(c.w(), c.d(), c.c(), 0), 1, Integer::sum);
        }
        int top = byCustomer.values().stream().max(Integer::compare).orElseThrow();
        // s = 1 over 60,000 ranks: the first rank has 1/H(60000) ~ 8.7% of the draws
        assertThat(top).isBetween(1400, 2100);
        assertThat(byCustomer.size()).isLessThan(z.size() / 2);
        List<Workload.Call> u = Workload.draws(2, "uniform", 20_000, 1);
        assertThat(u.stream().map(c -> c.w() * 100_000 + c.d() * 10_000 + c.c()).distinct().count())
                .isGreaterThan(15_000);
    }

    @Test
    void urlsCarryTheParametersOfTheirQuery() {
        Workload.Call c = new Workload.Call(2, 7, 1234, 15);
        assertThat(c.query(Workload.byName(queries, "customer"))).isEqualTo("w=2&d=7&c=1234&page_size=100");
        assertThat(c.query(Workload.byName(queries, "stock_level"))).isEqualTo("w=2&d=7&threshold=15&page_size=100");
    }
}
