package io.queryapigate.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tampering with the stored chain directly (plain SQL on the real SQLite file and the real PostgreSQL store), each
 * way: verification names the first broken {@code seq} and why.
 */
class AuditVerifierTest {
    private static final String KEY = "k".repeat(40);
    private static final String OTHER_KEY = "o".repeat(40);

    record Tamper(String name, Consumer<Handle> change, long seq, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> tampering() {
        Stream<Tamper> ways = Stream.of(
                new Tamper("content edited", h -> h.execute("UPDATE audit_log SET entry_json = REPLACE(entry_json,"
                        + " '\"t3\"', '\"tX\"'), target = 'tX' WHERE seq = 3"), 3, "edited"),
                new Tamper("a filtered column edited", h -> h.execute("UPDATE audit_log SET action = 'other'"
                        + " WHERE seq = 3"), 3, "edited"),
                new Tamper("edited and hashed again", h -> rehash(h, 3, "\"t3\"", "\"tX\""), 3, "edited"),
                new Tamper("one removed", h -> h.execute("DELETE FROM audit_log WHERE seq = 3"), 3, "removed"),
                new Tamper("oldest deleted, not trimmed", h -> h.execute("DELETE FROM audit_log WHERE seq <= 2"), 1,
                        "removed"),
                new Tamper("newest deleted", h -> h.execute("DELETE FROM audit_log WHERE seq >= 5"), 5, "removed"),
                new Tamper("inserted after the head", h -> insertAfterHead(h), 7, "inserted"),
                new Tamper("inserted between two", AuditVerifierTest::insertBetween, 4, "inserted"),
                new Tamper("two swapped", h -> {
                    h.execute("UPDATE audit_log SET seq = -3 WHERE seq = 3");
                    h.execute("UPDATE audit_log SET seq = 3 WHERE seq = 4");
                    h.execute("UPDATE audit_log SET seq = 4 WHERE seq = -3");
                }, 3, "reordered"));
        return ways.flatMap(t -> Stream.of(Arguments.of(AuditStores.sqlite(), t),
                Arguments.of(AuditStores.postgres(), t)));
    }

    private static void six(AuditStores.Fresh s, AuditChain chain) {
        AuditLog log = s.log(chain, 500);
        for (int i = 1; i <= 6; i++) {
            String target = "t" + i;
            log.inTransaction(() -> log.append("create_thing", target, Map.of("n", target)));
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("tampering")
    void aTamperedChainNamesTheFirstBrokenEntryAndWhy(AuditStores.Fresh s, Tamper tamper) {
        six(s, AuditChain.unkeyed());
        AuditVerifier verifier = new AuditVerifier(s.jdbi(), AuditChain.unkeyed());
        assertThat(verifier.verify()).containsEntry("intact", true).containsEntry("entries", 6L);
        s.jdbi().useHandle(tamper.change()::accept);
        Map<String, Object> report = verifier.verify();
        assertThat(report).containsEntry("intact", false);
        assertThat(breakOf(report)).containsEntry("seq", tamper.seq())
                .containsEntry("problem", tamper.problem());
    }

    static Stream<AuditStores.Fresh> stores() {
        return AuditStores.both();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anUnkeyedEntryAfterKeyedOnesIsABreak(AuditStores.Fresh s) {
        AuditChain keyed = AuditChain.fromVariable(KEY);
        six(s, keyed);
        AuditVerifier verifier = new AuditVerifier(s.jdbi(), keyed);
        assertThat(verifier.verify()).containsEntry("intact", true).containsEntry("keyed", true);
        // whoever can write to the store, without the key, hashes an edit as an unkeyed entry
        s.jdbi().useHandle(h -> rehash(h, 3, "\"t3\"", "\"tX\""));
        Map<String, Object> report = verifier.verify();
        assertThat(breakOf(report)).containsEntry("seq", 3L)
                .containsEntry("problem", "unkeyed_after_keyed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anEntrySignedWithAnotherKeyIsEdited(AuditStores.Fresh s) {
        six(s, AuditChain.fromVariable(KEY));
        s.jdbi().useHandle(h -> {
            AuditRow row = h.attach(AuditDao.class).at(6).orElseThrow();
            String forged = AuditChain.fromVariable(OTHER_KEY).hash(row.prevHash(), 6, row.entryJson());
            h.execute("UPDATE audit_log SET hash = ? WHERE seq = 6", forged);
            h.execute("UPDATE audit_chain SET hash = ? WHERE name = 'head'", forged);
        });
        Map<String, Object> report = new AuditVerifier(s.jdbi(), AuditChain.fromVariable(KEY)).verify();
        assertThat(breakOf(report)).containsEntry("seq", 6L).containsEntry("problem", "edited");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void whileRotatingEveryListedKeyVerifiesAndTheFirstSigns(AuditStores.Fresh s) {
        six(s, AuditChain.fromVariable(KEY));
        AuditChain rotating = AuditChain.fromVariable(OTHER_KEY + "," + KEY);
        AuditLog log = s.log(rotating, 500);
        log.inTransaction(() -> log.append("create_thing", "t7", Map.of()));
        assertThat(new AuditVerifier(s.jdbi(), rotating).verify()).containsEntry("intact", true)
                .containsEntry("entries", 7L);
        // the old key alone no longer verifies the newest entry
        assertThat(new AuditVerifier(s.jdbi(), AuditChain.fromVariable(KEY)).verify())
                .containsEntry("intact", false);
        // without any key the keyed entries cannot be checked, and are counted so
        assertThat(new AuditVerifier(s.jdbi(), AuditChain.unkeyed()).verify()).containsEntry("intact", true)
                .containsEntry("unchecked_without_key", 7);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> breakOf(Map<String, Object> report) {
        return (Map<String, Object>) report.get("break");
    }

    private static void rehash(Handle h, long seq, String from, String to) {
        AuditRow row = h.attach(AuditDao.class).at(seq).orElseThrow();
        String json = row.entryJson().replace(from, to);
        String hash = AuditChain.unkeyed().hash(row.prevHash(), seq, json);
        h.execute("UPDATE audit_log SET entry_json = ?, target = 'tX', hash = ? WHERE seq = ?", json, hash, seq);
    }

    private static void insertAfterHead(Handle h) {
        AuditRow last = h.attach(AuditDao.class).at(6).orElseThrow();
        String json = last.entryJson().replace("\"seq\":6", "\"seq\":7");
        h.execute("INSERT INTO audit_log (seq, at_ms, actor_kind, actor, address, action, target, workspace,"
                + " request_id, entry_json, prev_hash, hash) VALUES (7, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                last.atMs(), last.actorKind(), last.actor(), last.address(), last.action(), last.target(),
                last.workspace(), last.requestId(), json, last.hash(), AuditChain.unkeyed().hash(last.hash(), 7, json));
    }

    private static void insertBetween(Handle h) {
        for (long seq = 6; seq >= 4; seq--) {
            h.execute("UPDATE audit_log SET seq = ? WHERE seq = ?", seq + 1, seq);
        }
        AuditRow third = h.attach(AuditDao.class).at(3).orElseThrow();
        String json = third.entryJson().replace("\"seq\":3", "\"seq\":4");
        h.execute("INSERT INTO audit_log (seq, at_ms, actor_kind, actor, address, action, target, workspace,"
                + " request_id, entry_json, prev_hash, hash) VALUES (4, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                third.atMs(), third.actorKind(), third.actor(), third.address(), third.action(), third.target(),
                third.workspace(), third.requestId(), json, third.hash(),
                AuditChain.unkeyed().hash(third.hash(), 4, json));
        h.execute("UPDATE audit_chain SET seq = 7 WHERE name = 'head'");
    }
}
