package io.queryapigate.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Identity;
import io.queryapigate.errors.ApiException;
import io.queryapigate.limits.Quotas;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.roles.RoleCache;
import io.queryapigate.roles.Roles;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A key made from a role, as authentication builds its caller on a real (SQLite) store: the role's grants narrowed,
 * the role's name and the key's claims in its {@link Identity}, no store read per call, a role change seen by another
 * instance's cache within its TTL, and a key whose role is gone or of another workspace reaching nothing.
 */
class KeyRolesTest {
    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();
    private static final Clock CLOCK = Clock.systemUTC();
    private static final String ADMIN = "admin-key-0123456789";

    private Store store;
    private MetadataCache cache;
    private ApiKeys keys;
    private Roles roles;

    @BeforeEach
    void openStore() throws Exception {
        String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-roles-").resolve("store.db");
        Store.migrate(url, null, null);
        store = Store.connect(url, null, null);
        cache = new MetadataCache(store, Duration.ofHours(1), 1000, new MetricRegistry());
        ManagedObjects managed = new ManagedObjects(store.managed());
        keys = new ApiKeys(store.keys(), store.roles(), cache, new Quotas(store.usage(), CLOCK,
                ZoneId.systemDefault(), null, "", 0, new MetricRegistry()), MAPPER, CLOCK, managed,
                TestingAudit.of(store));
        roles = new Roles(store.roles(), cache, managed, MAPPER, CLOCK, TestingAudit.of(store));
    }

    private ApiKeyAuthenticator authenticator(MetadataCache on) {
        return new ApiKeyAuthenticator(ADMIN, on, MAPPER, CLOCK, new RoleCache(on, MAPPER), Narrowing::apply);
    }

    private static Grants grants(List<String> queries, Integer maxRows) {
        return new Grants(List.of(), queries, false, false, null, null, null, null, null, null, maxRows, null, null);
    }

    @Test
    void aKeyMadeFromARoleCarriesTheRoleTheClaimsAndNoMore() {
        roles.create("default", "reporting", new Roles.State(null, grants(List.of("film", "films"), 10)), "admin");
        ApiKeys.State own = new ApiKeys.State(new Grants(List.of("*"), List.of("film", "secret"), true, true, null,
                null, null, null, null, null, 100, null, null), null, true, "reporting",
                Map.of("org_id", "acme", "tier", 3L, "beta", true, "ratio", new BigDecimal("0.5")));
        assertThatThrownBy(() -> keys.create("partner", own)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.errors()).containsOnlyKeys("queries");
        });
        String secret = keys.create("partner", new ApiKeys.State(new Grants(List.of("*"), List.of("film"), true,
                true, null, null, null, null, null, null, 100, null, null), null, true, "reporting", own.claims()))
                .secret();

        ApiKeyAuthenticator auth = authenticator(cache);
        Caller caller = auth.authenticate(secret).orElseThrow();
        assertThat(caller.grants().queries()).containsExactly("film");
        assertThat(caller.grants().connections()).isEmpty();
        assertThat(caller.grants().adhocSql()).isFalse();
        assertThat(caller.grants().allowWrites()).isFalse();
        assertThat(caller.grants().maxRows()).isEqualTo(10);
        assertThat(caller.admin()).isFalse();
        Identity identity = caller.identity();
        assertThat(identity.kind()).isEqualTo(Identity.Kind.KEY);
        assertThat(identity.role()).isEqualTo("reporting");
        assertThat(identity.workspace()).isEqualTo("default");
        assertThat(identity.administrator()).isFalse();
        assertThat(identity.claims()).containsExactlyInAnyOrderEntriesOf(Map.of("org_id", "acme", "tier", 3L, "beta",
                true, "ratio", new BigDecimal("0.5")));

        long reads = cache.storeReads();
        for (int i = 0; i < 1000; i++) {
            assertThat(auth.authenticate(secret)).isPresent();
        }
        assertThat(cache.storeReads()).as("the hot path reads the store once per TTL, not per call")
                .isEqualTo(reads);
        assertThat(auth.authenticate(secret).orElseThrow()).as("the same caller while nothing changed")
                .isSameAs(auth.authenticate(secret).orElseThrow());
    }

    @Test
    void aRoleChangeReachesAnotherInstanceWithinItsTtl() throws Exception {
        roles.create("default", "growing", new Roles.State(null, grants(List.of("film"), null)), "admin");
        String secret = keys.create("grower", KeyBody.fromRole("growing")).secret();
        MetadataCache other = new MetadataCache(store, Duration.ofMillis(300), 1000, new MetricRegistry());
        ApiKeyAuthenticator elsewhere = authenticator(other);
        assertThat(elsewhere.authenticate(secret).orElseThrow().grants().queries()).containsExactly("film");

        roles.update("default", "growing", null, read -> new Roles.State(null, grants(List.of("film", "films"),
                null)), "admin");
        assertThat(authenticator(cache).authenticate(secret).orElseThrow().grants().queries())
                .as("this instance: at once").containsExactly("film", "films");
        long changed = System.nanoTime();
        while (elsewhere.authenticate(secret).orElseThrow().grants().queries().size() != 2) {
            assertThat(System.nanoTime() - changed).as("the other: within its TTL").isLessThan(2_000_000_000L);
            Thread.sleep(20);
        }
    }

    @Test
    void aKeyWhoseRoleIsGoneOrOfAnotherWorkspaceReachesNothing() {
        roles.create("default", "doomed", new Roles.State(null, grants(List.of("film"), null)), "admin");
        String secret = keys.create("orphan", KeyBody.fromRole("doomed")).secret();
        assertThatThrownBy(() -> roles.delete("default", "doomed", null)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo("role_in_use"));
        store.jdbi().useHandle(h -> h.execute("UPDATE roles SET workspace = 'team-b' WHERE name = 'doomed'"));
        cache.invalidateRole("doomed");
        Caller c = authenticator(cache).authenticate(secret).orElseThrow();
        assertThat(c.grants().queries()).isEmpty();
        assertThat(c.canRunQuery("film", "demo")).isFalse();
        assertThatThrownBy(() -> roles.find("default", "doomed")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo("role_not_found"));

        store.jdbi().useHandle(h -> h.execute("DELETE FROM roles WHERE name = 'doomed'"));
        cache.invalidateRole("doomed");
        assertThat(authenticator(cache).authenticate(secret).orElseThrow().grants().queries()).isEmpty();
    }

    @Test
    void aKeyWithoutARoleIsItsOwnGrantsWithItsClaims() {
        String secret = keys.create("plain", new ApiKeys.State(grants(List.of("film"), null), null, true, null,
                Map.of("org_id", "globex"))).secret();
        Caller c = authenticator(cache).authenticate(secret).orElseThrow();
        assertThat(c.grants().queries()).containsExactly("film");
        assertThat(c.identity().role()).isNull();
        assertThat(c.identity().claims()).containsExactly(Map.entry("org_id", "globex"));
        assertThat(authenticator(cache).authenticate(ADMIN).orElseThrow().identity().kind())
                .isEqualTo(Identity.Kind.BREAK_GLASS);
    }
}
