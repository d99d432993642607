package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretReferencesTest {
    private static final Instant T0 = TestingClock.T0;

    /** A provider whose values the test sets, counting fetches; "down" makes every fetch fail. */
    static final class TableProvider implements SecretProvider {
        final Map<String, String> values = new java.util.HashMap<>();
        final List<String> fetched = new ArrayList<>();
        Duration lease;
        boolean down;
        boolean closed;

        @Override
        public String prefix() {
            return "table";
        }

        @Override
        public String refusal(String reference) {
            return reference.startsWith("forbidden/") ? "not on the list" : null;
        }

        @Override
        public Secret fetch(String reference) {
            fetched.add(reference);
            if (down) {
                throw new SecretUnavailableException("the table is down");
            }
            String v = values.get(reference);
            if (v == null) {
                throw new SecretUnavailableException("no such entry");
            }
            return new Secret(v, lease);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final TestingClock clock = new TestingClock();
    private final TableProvider table = new TableProvider();
    private final SecretReferences refs = new SecretReferences(List.of(
            new EnvironmentProvider(Map.of("PG_PASSWORD", "from-env", "QUERYAPIGATE_SECRET_KEY", "k")), table),
            Duration.ofMinutes(5), clock);

    @Test
    void aLiteralIsItsOwnValueAndNeverRefreshes() {
        assertThat(refs.resolve("sales", "plain text")).isEqualTo(new SecretResolver.Resolved("plain text",
                Instant.MAX));
        assertThat(refs.isReference("plain text")).isFalse();
        assertThat(refs.isReference("${PG_PASSWORD}")).isTrue();
        assertThat(refs.isReference("${aws-sm:db/sales#password}")).isTrue();
    }

    @Test
    void environmentVariablesResolveAndTheServersOwnAreRefused() {
        assertThat(refs.resolve("sales", "pre-${PG_PASSWORD}-post").value()).isEqualTo("pre-from-env-post");
        assertThat(refs.resolve("sales", "${env:PG_PASSWORD}").refreshAt()).isEqualTo(Instant.MAX);
        assertThatThrownBy(() -> refs.resolve("sales", "${NOT_SET}")).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("connection 'sales'").hasMessageContaining("NOT_SET");
        assertThatThrownBy(() -> refs.resolve("sales", "${QUERYAPIGATE_SECRET_KEY}"))
                .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("belong to the server")
                .hasMessageNotContaining(": k");
        assertThatThrownBy(() -> refs.check("sales", "${AWS_SECRET_ACCESS_KEY}"))
                .isInstanceOf(SecretUnavailableException.class);
    }

    @Test
    void anUnknownPrefixOrARefusedReferenceFailsNamingItWithoutFetching() {
        assertThatThrownBy(() -> refs.resolve("sales", "${nosuch:x}")).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("${nosuch:x}").hasMessageContaining("no secret provider 'nosuch'");
        assertThatThrownBy(() -> refs.check("sales", "${table:forbidden/x}"))
                .hasMessageContaining("${table:forbidden/x} is refused: not on the list");
        assertThatThrownBy(() -> refs.resolve("sales", "${table:forbidden/x}"))
                .isInstanceOf(SecretUnavailableException.class);
        assertThat(table.fetched).isEmpty();
    }

    @Test
    void aValueIsKeptForTheCacheTimeAndAskedForAgainBeforeItEnds() {
        table.values.put("db", "v1");
        SecretResolver.Resolved first = refs.resolve("sales", "${table:db}");
        assertThat(first.value()).isEqualTo("v1");
        assertThat(first.refreshAt()).isEqualTo(T0.plus(Duration.ofMinutes(4)));
        table.values.put("db", "v2");
        clock.advance(Duration.ofMinutes(3));
        assertThat(refs.resolve("sales", "${table:db}").value()).as("still within its time").isEqualTo("v1");
        clock.advance(Duration.ofMinutes(1));
        assertThat(refs.resolve("sales", "${table:db}").value()).as("asked again at 80%").isEqualTo("v2");
        assertThat(table.fetched).hasSize(2);
    }

    @Test
    void aShorterLeaseWins() {
        table.values.put("db", "v1");
        table.lease = Duration.ofSeconds(60);
        assertThat(refs.resolve("sales", "${table:db}").refreshAt()).isEqualTo(T0.plusSeconds(48));
        table.lease = Duration.ofHours(2);
        clock.advance(Duration.ofSeconds(48));
        assertThat(refs.resolve("sales", "${table:db}").refreshAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(4)));
    }

    @Test
    void aFailingProviderIsForgivenWithinTheValuesTimeAndNeverServesItAfter() {
        table.values.put("db", "v1");
        refs.resolve("sales", "${table:db}");
        table.down = true;
        clock.advance(Duration.ofMinutes(4).plusSeconds(1));
        SecretResolver.Resolved held = refs.resolve("sales", "${table:db}");
        assertThat(held.value()).isEqualTo("v1");
        assertThat(held.refreshAt()).isEqualTo(clock.instant().plus(SecretReferences.RETRY));
        clock.advance(Duration.ofMinutes(1));
        assertThatThrownBy(() -> refs.resolve("sales", "${table:db}")).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("${table:db} could not be resolved: the table is down")
                .hasMessageNotContaining("v1");
        table.down = false;
        table.values.remove("db");
        assertThatThrownBy(() -> refs.resolve("sales", "${table:db}")).hasMessageContaining("no such entry");
    }

    @Test
    void severalReferencesRefreshWithTheEarliest() {
        table.values.put("a", "1");
        table.values.put("b", "2");
        table.lease = Duration.ofSeconds(100);
        refs.resolve("sales", "${table:a}");
        clock.advance(Duration.ofSeconds(10));
        SecretResolver.Resolved both = refs.resolve("sales", "${table:a}:${table:b}:${PG_PASSWORD}");
        assertThat(both.value()).isEqualTo("1:2:from-env");
        assertThat(both.refreshAt()).isEqualTo(T0.plusSeconds(80));
        assertThat(both.toString()).doesNotContain("from-env");
    }

    @Test
    void closingClosesTheProviders() {
        refs.close();
        assertThat(table.closed).isTrue();
    }
}
