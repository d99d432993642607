package io.queryapigate.importer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.Quota;
import io.queryapigate.importer.PythonStore.PyKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The original's key model (apikeys.py) as explicit grants: what each converted key may run here is what it could run
 * there, checked through {@link Caller}'s own rules; restrictions carry over or stop the key.
 */
class PythonGrantsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HASH = "a".repeat(64);
    /** Original query names with their names here; 'gone' is not imported. */
    private static final Map<String, String> QUERIES = new HashMap<>(Map.of("film", "film", "by rating", "by_rating",
            "sales", "sales"));
    private static final PythonGrants.Context CONTEXT;

    static {
        QUERIES.put("gone", null);
        CONTEXT = new PythonGrants.Context(QUERIES, Map.of("shop", List.of("by rating", "gone")),
                Map.of("demo", "demo", "crm db", "crm_db"), false);
    }

    private static PythonGrants.Converted convert(String details) {
        try {
            return PythonGrants.convert(new PyKey("k", HASH, true, null, null, JSON.readTree(details), null, null),
                    CONTEXT);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Caller caller(PythonGrants.Converted c) {
        assertThat(c.blocker()).isNull();
        return new Caller(7, "k", false, c.grants());
    }

    @Test
    void everyConnectionReachesEverySavedQueryAndAdHocSqlEverywhere() {
        PythonGrants.Converted c = convert("{\"connections\": \"*\", \"queries\": []}");
        Caller k = caller(c);
        assertThat(k.canRunQuery("anything", "any")).isTrue();
        assertThat(k.canRunAdHoc("any")).isTrue();
        assertThat(c.warnings()).anyMatch(w -> w.startsWith("broad:"));
    }

    @Test
    void aConnectionGrantReachesItsQueriesItsAdHocSqlAndRunningOthersThere() {
        PythonGrants.Converted c = convert("{\"connections\": [\"demo\", \"crm db\"]}");
        Caller k = caller(c);
        assertThat(c.grants().connections()).containsExactly("demo", "crm_db");
        assertThat(k.canRunQuery("x", "demo")).isTrue();
        assertThat(k.canRunQuery("x", "crm_db")).isTrue();
        assertThat(k.canRunQuery("x", "other")).isFalse();
        assertThat(k.canRunAdHoc("demo")).isTrue();
        assertThat(k.canRunAdHoc("other")).isFalse();
        assertThat(k.canUseConnection("demo")).isTrue();
        assertThat(c.warnings()).anyMatch(w -> w.contains("ad-hoc SQL on demo, crm_db"));
    }

    @Test
    void aQueryGrantReachesThatQueryOnItsOwnConnectionOnlyAndNoAdHocSql() {
        PythonGrants.Converted c = convert("{\"connections\": [], \"queries\": [\"film\", \"by rating\","
                + " {\"name\": \"sales\", \"allow_writes\": true}, \"not yet made\"]}");
        Caller k = caller(c);
        assertThat(c.grants().queries()).containsExactly("by_rating", "film", "not yet made", "sales");
        assertThat(k.canRunQuery("film", "demo")).isTrue();
        assertThat(k.canRunQuery("by_rating", "demo")).isTrue();
        assertThat(k.canRunQuery("other", "demo")).isFalse();
        assertThat(k.canUseConnection("demo")).isFalse();
        assertThat(k.canRunAdHoc("demo")).isFalse();
        assertThat(k.canWrite(true)).isFalse();
        assertThat(c.warnings()).anyMatch(w -> w.startsWith("narrower: its write grant through query 'sales'"));
    }

    @Test
    void everyQueryByNameIsKeptAndNamedBroad() {
        PythonGrants.Converted c = convert("{\"connections\": [], \"queries\": \"*\"}");
        assertThat(caller(c).canRunQuery("whatever", "demo")).isTrue();
        assertThat(caller(c).canRunAdHoc("demo")).isFalse();
        assertThat(c.warnings()).anyMatch(w -> w.startsWith("broad: runs every saved query by name"));
    }

    @Test
    void aCollectionGrantBecomesGrantsOnTheQueriesInItNowAndDropsOnesNotImported() {
        PythonGrants.Converted c = convert("{\"connections\": [], \"collections\": [\"shop\", \"empty\"]}");
        assertThat(c.grants().queries()).containsExactly("by_rating");
        assertThat(c.warnings()).anyMatch(w -> w.contains("collection 'shop'"))
                .anyMatch(w -> w.contains("collection 'empty'"))
                .anyMatch(w -> w.contains("query 'gone' is dropped"));
    }

    @Test
    void restrictionsCarryOver() {
        PythonGrants.Converted c = convert("""
                {"connections": ["demo"], "allow_writes": true, "allowed_write_ops": ["INSERT", "update"],
                 "allowed_tables": ["film", "main.customer"], "allowed_ips": ["10.0.0.0/8", "::1"],
                 "rate_limit": " 60 / Minutes ", "quota": {"calls": 1000, "per": "month"}}""");
        Grants g = c.grants();
        assertThat(g.allowWrites()).isTrue();
        assertThat(g.allowedWriteOps()).containsExactly("insert", "update");
        assertThat(g.allowedTables()).containsExactly("film", "main.customer");
        assertThat(g.allowedIps()).containsExactly("10.0.0.0/8", "::1");
        assertThat(g.rateLimit()).isEqualTo("60/minute");
        assertThat(g.quota()).isEqualTo(new Quota(1000L, null, "month"));
        assertThat(convert("{\"connections\": [], \"allowed_tables\": []}").grants().allowedTables()).isEmpty();
        assertThat(convert("{\"connections\": []}").grants().allowedTables()).isNull();
    }

    @Test
    void limitsAndQuotasCarryOver() {
        PythonGrants.Converted c = convert("""
                {"connections": [], "quota": {"calls": 100, "rows": 500, "per": "day"}, "max_rows": 50,
                 "max_concurrent": 2, "query_timeout": 1.5}""");
        Grants g = c.grants();
        assertThat(g.quota()).isEqualTo(new Quota(100L, 500L, "day"));
        assertThat(g.maxRows()).isEqualTo(50);
        assertThat(g.maxConcurrent()).isEqualTo(2);
        assertThat(g.queryTimeout()).isEqualByComparingTo("1.5");
        assertThat(c.warnings()).isEmpty();
        assertThat(convert("{\"max_rows\": 0}").blocker()).contains("max_rows").contains("whole number");
    }

    @Test
    void writeOperationsTheGuardNeverReportsAreDropped() {
        PythonGrants.Converted c = convert("{\"connections\": [\"demo\"], \"allow_writes\": true,"
                + " \"allowed_write_ops\": [\"insert\", \"vacuum\"]}");
        assertThat(c.grants().allowedWriteOps()).containsExactly("insert");
        assertThat(c.warnings()).anyMatch(w -> w.contains("'vacuum' dropped"));
    }

    @Test
    void masksBecomeOursOrStopTheKey() {
        PythonGrants.Converted c = convert("""
                {"connections": ["demo"], "mask": [{"column": "Customer.Email", "action": "null"},
                 {"column": "customer.last_name", "action": "mask"}, {"column": "customer.phone", "action": "drop"},
                 {"column": "v.x", "action": "keep"}]}""");
        assertThat(c.grants().mask()).containsExactly(new MaskRule("customer.email", "null", null, null),
                new MaskRule("customer.last_name", "null", null, null),
                new MaskRule("customer.phone", "null", null, null));
        assertThat(convert("{\"mask\": [{\"column\": \"*.email\", \"action\": \"null\"}]}").blocker())
                .contains("wildcard");
        assertThat(convert("{\"mask\": [{\"column\": \"c.email\", \"action\": \"hash\"}]}").blocker())
                .contains("security.maskingKey");
    }

    @Test
    void noReachStaysNoReach() {
        Caller k = caller(convert("{\"connections\": [], \"queries\": []}"));
        assertThat(k.canRunQuery("film", "demo")).isFalse();
        assertThat(k.canRunAdHoc("demo")).isFalse();
    }

    @Test
    void aHashThatIsNotSha256StopsTheKey() throws Exception {
        PythonGrants.Converted c = PythonGrants.convert(new PyKey("k", "xyz", true, null, null,
                JSON.readTree("{}"), null, null), CONTEXT);
        assertThat(c.blocker()).contains("SHA-256");
    }
}
