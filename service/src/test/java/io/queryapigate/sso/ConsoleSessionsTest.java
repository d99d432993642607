package io.queryapigate.sso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.admins.Administrators;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import io.queryapigate.testing.TestingClock;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;

/** Console sessions on a real SQLite store: of the administrator key, of a named administrator; ends and checks. */
class ConsoleSessionsTest {
    private final TestingClock clock = new TestingClock(Instant.parse("2026-12-03T08:00:00Z"));

    private static Jdbi store() throws Exception {
        String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-sessions-").resolve("store.db");
        return Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null).jdbi();
    }

    private static long rows(Jdbi jdbi, String table) {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table).mapTo(Long.class).one());
    }

    @Test
    void aSessionOfTheAdministratorKeyIsTheBreakGlassOwnerUntilTheKeyChanges() throws Exception {
        Jdbi jdbi = store();
        ConsoleSessions sessions = new ConsoleSessions(jdbi, Duration.ofHours(8), clock, "the-key");
        ConsoleSessions.Issued issued = sessions.startWithAdminKey();
        assertThat(rows(jdbi, "key_sessions")).isEqualTo(1);
        String stored = jdbi.withHandle(h -> h.createQuery("SELECT id_hash || csrf_hash || key_check FROM key_sessions")
                .mapTo(String.class).one());
        assertThat(stored).as("only hashes are kept").doesNotContain(issued.sessionId())
                .doesNotContain(issued.csrfToken()).doesNotContain("the-key");

        Caller caller = sessions.authenticate(issued.sessionId(), issued.csrfToken());
        assertThat(caller.keyId()).isEqualTo(Caller.ADMIN_KEY_ID);
        assertThat(caller.identity().kind()).isEqualTo(Identity.Kind.BREAK_GLASS);
        assertThat(sessions.find(issued.sessionId()).orElseThrow().adminKey()).isTrue();
        assertThatThrownBy(() -> sessions.authenticate(issued.sessionId(), "wrong"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo("csrf_failed"));

        ConsoleSessions afterKeyChange = new ConsoleSessions(jdbi, Duration.ofHours(8), clock, "a-new-key");
        assertThat(afterKeyChange.find(issued.sessionId())).as("the YAML's key changed").isEmpty();
        ConsoleSessions withoutKey = new ConsoleSessions(jdbi, Duration.ofHours(8), clock, null);
        assertThat(withoutKey.find(issued.sessionId())).as("the YAML has no key any more").isEmpty();
        assertThatThrownBy(withoutKey::startWithAdminKey).isInstanceOf(IllegalStateException.class);

        clock.advance(Duration.ofHours(8));
        assertThat(sessions.find(issued.sessionId())).as("expired").isEmpty();
    }

    @Test
    void signOutEndsEitherKindAndANamedAdministratorsSessionIsTheirs() throws Exception {
        Jdbi jdbi = store();
        Administrators admins = new Administrators(jdbi, true, clock, TestingAudit.ofSqlite(jdbi));
        admins.create("ops", "viewer", null, "test");
        ConsoleSessions sessions = new ConsoleSessions(jdbi, Duration.ofHours(8), clock, "the-key");
        ConsoleSessions.Issued named = sessions.start(admins.find("ops").id());
        ConsoleSessions.Issued key = sessions.startWithAdminKey();

        Caller ops = sessions.authenticate(named.sessionId(), named.csrfToken());
        assertThat(ops.name()).isEqualTo("ops");
        assertThat(ops.identity().role()).as("viewer is the auditor role").isEqualTo("auditor");
        assertThat(sessions.find(named.sessionId()).orElseThrow().adminKey()).isFalse();

        sessions.end(named.sessionId());
        sessions.end(key.sessionId());
        assertThat(sessions.find(named.sessionId())).isEmpty();
        assertThat(sessions.find(key.sessionId())).isEmpty();
        assertThat(rows(jdbi, "key_sessions") + rows(jdbi, "admin_sessions")).isZero();
    }
}
