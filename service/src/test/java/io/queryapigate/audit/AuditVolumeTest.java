package io.queryapigate.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A chain longer than the verifier's page (1000 entries) verifies across pages, on SQLite and PostgreSQL; prints
 * what an append (in its own transaction, on one held connection as a pool lends it) and a verification cost
 * (docs/audit.md, "The hash chain and verification").
 */
class AuditVolumeTest {
    private static final int ENTRIES = 1500;

    static java.util.stream.Stream<AuditStores.Fresh> stores() {
        return AuditStores.both();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aLongChainVerifiesAcrossPages(AuditStores.Fresh s) {
        AuditChain chain = AuditChain.fromVariable("k".repeat(64));
        AuditLog log = s.log(chain, 1_000_000);
        long[] took = new long[2];
        s.jdbi().useHandle(held -> {
            long start = System.nanoTime();
            for (int i = 0; i < ENTRIES; i++) {
                String target = "t" + i;
                log.inTransaction(() -> log.append("create_thing", target, Map.of("name", target)));
            }
            took[0] = System.nanoTime() - start;
        });
        long start = System.nanoTime();
        Map<String, Object> report = new AuditVerifier(s.jdbi(), chain).verify();
        took[1] = System.nanoTime() - start;
        assertThat(report).containsEntry("intact", true).containsEntry("entries", (long) ENTRIES)
                .containsEntry("last_seq", (long) ENTRIES).containsEntry("keyed", true);
        System.out.printf("audit on %s: append %.2f ms per entry (its own transaction), verify %d entries in %d ms%n",
                s.name(), took[0] / 1e6 / ENTRIES, ENTRIES, took[1] / 1_000_000);
    }
}
