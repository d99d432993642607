package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.audit.AuditChain;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rekey and the startup check on a real (SQLite) store: which key each sealed password is under, moving them. */
class RekeyTest {
    private static final String OLD = SecretBox.newKey();
    private static final String NEW = SecretBox.newKey();
    private static final String LOST = SecretBox.newKey();

    @TempDir
    Path home;
    private Jdbi jdbi;
    private Store store;

    private Rekey.Recorder audit() {
        AuditLog log = new AuditLog(store, AuditChain.unkeyed(), java.time.Clock.systemUTC(), 500);
        return (action, changes) -> log.append(action, "secret_key", changes);
    }

    @BeforeEach
    void store() {
        String url = "jdbc:sqlite:" + home.resolve("store.db");
        Store.migrate(url, null, null);
        store = Store.connect(url, null, null);
        jdbi = store.jdbi();
    }

    private void connection(String name, String key, String password) {
        String sealed = key == null ? null : SecretBox.of(key).seal(password, Rekey.context(name));
        jdbi.useHandle(h -> h.createUpdate("INSERT INTO connections (name, dialect, url, password_sealed, pool_size,"
                + " properties, allowed_functions, created_at, updated_at) VALUES (:n, 'postgres', 'jdbc:x', :s, 4,"
                + " '{}', '[]', 0, 0)").bind("n", name).bind("s", sealed).execute());
    }

    private String sealedOf(String name) {
        return jdbi.withHandle(h -> h.createQuery("SELECT password_sealed FROM connections WHERE name = :n")
                .bind("n", name).mapTo(String.class).one());
    }

    @Test
    void reportsWhichKeyEachValueIsUnderThenMovesThemAllToTheFirst() {
        connection("a", OLD, "pa");
        connection("b", OLD, "pb");
        connection("c", NEW, "pc");
        connection("literal-less", null, null);
        SecretBox rotating = SecretBox.of(NEW + "," + OLD);
        Rekey rekey = new Rekey(jdbi, rotating, audit());
        Rekey.Report before = rekey.check();
        assertThat(before.toJson()).isEqualTo(Map.of("keys", 2, "values", 3, "by_key", List.of(1, 2),
                "under_old_keys", 2, "undecryptable", List.of()));
        String cBefore = sealedOf("c");

        Rekey.Report after = rekey.rekey();
        assertThat(after.rekeyed()).isEqualTo(2);
        assertThat(after.byKey()).containsExactly(3, 0);
        assertThat(after.describe()).isEqualTo("3 encrypted password(s), 2 key(s) listed: 3 under the first key,"
                + " 0 under key 2.");
        assertThat(sealedOf("c")).as("already under the first key: left as it is").isEqualTo(cBefore);
        SecretBox onlyNew = SecretBox.of(NEW);
        assertThat(onlyNew.open(sealedOf("a"), Rekey.context("a"))).isEqualTo("pa");
        assertThat(onlyNew.open(sealedOf("b"), Rekey.context("b"))).isEqualTo("pb");
        assertThat(rekey.rekey().rekeyed()).as("again: nothing to move").isZero();
        SecretKeyCheck.verify(jdbi, onlyNew);
    }

    @Test
    void aValueNoListedKeyDecryptsStopsRekeyAndStartup() {
        connection("a", OLD, "pa");
        connection("gone", LOST, "pg");
        String aBefore = sealedOf("a");
        Rekey rekey = new Rekey(jdbi, SecretBox.of(NEW + "," + OLD), audit());
        assertThatThrownBy(rekey::rekey).isInstanceOf(Rekey.Refused.class)
                .hasMessageContaining("connection 'gone'").hasMessageContaining("nothing was changed")
                .satisfies(e -> assertThat(((Rekey.Refused) e).code()).isEqualTo("password_undecryptable"));
        assertThat(sealedOf("a")).as("one transaction: nothing moved").isEqualTo(aBefore);
        assertThatThrownBy(() -> SecretKeyCheck.verify(jdbi, SecretBox.of(NEW + "," + OLD)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No key in QUERYAPIGATE_SECRET_KEY decrypts the stored password of"
                        + " connection 'gone'").hasMessageContaining("--forget-undecryptable")
                .hasMessageNotContaining("connection 'a'");

        assertThat(rekey.forgetUndecryptable()).containsExactly("gone");
        assertThat(sealedOf("gone")).isNull();
        SecretKeyCheck.verify(jdbi, SecretBox.of(NEW + "," + OLD));
        assertThat(rekey.rekey().rekeyed()).isEqualTo(1);
    }

    @Test
    void withoutAKeyStartupStopsNamingTheConnectionsAndRekeyIsRefused() {
        SecretKeyCheck.verify(jdbi, SecretBox.of(null)); // nothing sealed: nothing to check
        connection("sales", OLD, "ps");
        assertThatThrownBy(() -> SecretKeyCheck.verify(jdbi, SecretBox.of(null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("encrypted password of connection 'sales'")
                .hasMessageContaining("QUERYAPIGATE_SECRET_KEY is not set");
        Rekey rekey = new Rekey(jdbi, SecretBox.of(""), audit());
        assertThatThrownBy(rekey::rekey).isInstanceOf(Rekey.Refused.class)
                .satisfies(e -> assertThat(((Rekey.Refused) e).code()).isEqualTo("secret_key_required"));
        assertThatThrownBy(rekey::check).isInstanceOf(Rekey.Refused.class);
        assertThat(rekey.report().undecryptable()).containsExactly("sales");
    }

    @Test
    void rekeysAPostgresStoreToo() {
        TestingPostgres.Database db = TestingPostgres.freshDatabase("rekey");
        try {
            Store.migrate(db.url(), db.user(), db.password());
            store = Store.connect(db.url(), db.user(), db.password());
            jdbi = store.jdbi();
            connection("a", OLD, "pa");
            connection("b", NEW, "pb");
            Rekey rekey = new Rekey(jdbi, SecretBox.of(NEW + "," + OLD), audit());
            assertThat(rekey.rekey().rekeyed()).isEqualTo(1);
            assertThat(SecretBox.of(NEW).open(sealedOf("a"), Rekey.context("a"))).isEqualTo("pa");
            SecretKeyCheck.verify(jdbi, SecretBox.of(NEW));
            assertThatThrownBy(() -> SecretKeyCheck.verify(jdbi, SecretBox.of(OLD)))
                    .hasMessageContaining("connection 'a', connection 'b'");
        } finally {
            db.dropDatabase();
        }
    }

    @Test
    void aValueCopiedToAnotherConnectionIsUndecryptable() {
        connection("a", NEW, "pa");
        connection("b", NEW, "pb");
        jdbi.useHandle(h -> h.createUpdate("UPDATE connections SET password_sealed = (SELECT password_sealed FROM"
                + " connections WHERE name = 'a') WHERE name = 'b'").execute());
        assertThat(new Rekey(jdbi, SecretBox.of(NEW)).report().undecryptable()).containsExactly("b");
    }
}
