package io.queryapigate.instances;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.store.InstanceRow;
import io.queryapigate.testing.TestingClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstancesTest {
    private final Instances instances = new Instances(null, new TestingClock(), "1.0", "postgresql", false,
            Duration.ofSeconds(30));

    private static Instances.Instance row(String id, String version, boolean shared, boolean alive) {
        return new Instances.Instance(new InstanceRow(id, "h", 1, version, "postgresql", shared, 0, 0), alive, false);
    }

    @Test
    void oneInstanceOrAllSharingThroughRedisIsFine() {
        assertThat(instances.problems(List.of(row("a", "1.0", false, true)))).isEmpty();
        assertThat(instances.problems(List.of(row("a", "1.0", true, true), row("b", "1.0", true, true)))).isEmpty();
    }

    @Test
    void severalAliveWithoutRedisOrOnOtherVersionsAreProblemsAndStaleOnesDoNotCount() {
        List<Instances.Problem> found = instances.problems(List.of(row("a", "1.0", true, true),
                row("b", "1.1", false, true), row("c", "0.9", false, false)));
        assertThat(found).extracting(Instances.Problem::kind)
                .containsExactly("instances_not_shared", "instances_versions_differ");
        assertThat(found.get(0).message()).startsWith("2 processes share this store, and 1 of them without Redis");
        assertThat(found.get(1).message()).contains("(1.0 on 1, 1.1 on 1)");
        assertThat(instances.problems(List.of(row("a", "1.0", true, true), row("c", "0.9", false, false))))
                .as("a stale instance is not running").isEmpty();
    }

    @Test
    void aliveMeansSeenWithinThreeHeartbeats() {
        assertThat(instances.aliveFor()).isEqualTo(90_000);
        assertThat(instances.id()).matches("[0-9a-f]{12}-" + ProcessHandle.current().pid());
    }
}
