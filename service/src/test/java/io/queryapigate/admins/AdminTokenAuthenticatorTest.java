package io.queryapigate.admins;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingClock;
import io.queryapigate.testing.TestingAudit;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;

/** Personal admin tokens authenticated against a real SQLite store, with a clock the test moves. */
class AdminTokenAuthenticatorTest {
    private final TestingClock clock = new TestingClock(Instant.parse("2026-12-01T23:59:00Z"));

    private static Jdbi store() throws Exception {
        String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-admins-").resolve("store.db");
        return Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null).jdbi();
    }

    private static long lastUsed(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT last_used_at FROM admin_tokens").mapTo(Long.class).one());
    }

    @Test
    void aTokenNamesItsAdministratorUntilTheEndOfItsLastDayAndItsUseIsWrittenOnceAMinute() throws Exception {
        Jdbi jdbi = store();
        Administrators admins = new Administrators(jdbi, true, clock, TestingAudit.ofSqlite(jdbi));
        admins.create("ops", "admin", null, "test");
        String secret = admins.issue("ops", "ci", "2026-12-02").secret();
        AdminTokenAuthenticator tokens = new AdminTokenAuthenticator(jdbi, clock);

        Caller caller = tokens.authenticate(secret).orElseThrow();
        assertThat(caller.name()).isEqualTo("ops");
        assertThat(caller.identity().kind()).isEqualTo(Identity.Kind.ADMINISTRATOR);
        assertThat(caller.identity().role()).isEqualTo("admin");
        assertThat(caller.admin()).as("an admin runs SQL").isTrue();
        assertThat(Caller.administratorId(caller.keyId())).isEqualTo(admins.find("ops").id());
        long first = clock.millis();
        assertThat(lastUsed(jdbi)).isEqualTo(first);
        assertThat(admins.find("ops").lastSeenAt()).isEqualTo(first);

        clock.advance(Duration.ofSeconds(59));
        assertThat(tokens.authenticate(secret)).isPresent();
        assertThat(lastUsed(jdbi)).as("not again within the minute").isEqualTo(first);
        clock.advance(Duration.ofSeconds(2));
        assertThat(tokens.authenticate(secret)).isPresent();
        assertThat(lastUsed(jdbi)).isEqualTo(clock.millis());

        clock.set(Instant.parse("2026-12-02T23:59:59Z"));
        assertThat(tokens.authenticate(secret)).as("the whole of its last day, UTC").isPresent();
        clock.set(Instant.parse("2026-12-03T00:00:00Z"));
        assertThat(tokens.authenticate(secret)).isEmpty();
    }

    @Test
    void unknownMalformedAndOverlongSecretsAreNobody() throws Exception {
        Jdbi jdbi = store();
        AdminTokenAuthenticator tokens = new AdminTokenAuthenticator(jdbi, clock);
        assertThat(tokens.authenticate("qagadm_nothing")).isEqualTo(Optional.empty());
        assertThat(tokens.authenticate("qagadm_" + "a".repeat(600))).isEmpty();
        Administrators admins = new Administrators(jdbi, true, clock, TestingAudit.ofSqlite(jdbi));
        admins.create("someone", null, null, "test");
        String secret = admins.issue("someone", null, null).secret();
        assertThat(tokens.authenticate(secret).orElseThrow().admin()).as("no role, no SQL").isFalse();
        assertThat(tokens.authenticate(secret.toUpperCase(java.util.Locale.ROOT))).isEmpty();
    }
}
