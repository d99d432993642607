package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunnerTest {
    @Test
    void blocksByNameOrByTheirNumberInTheDocs() {
        assertThat(Runner.parseBlocks("7,10,11")).containsExactly("network", "postgres", "warmup");
        assertThat(Runner.parseBlocks("2, 3,8,direct")).containsExactly("gateway", "direct");
        assertThat(Runner.parseBlocks("postgres,network")).containsExactly("postgres", "network");
        assertThat(Runner.parseBlocks(null)).containsExactlyElementsOf(Runner.BLOCKS);
        assertThatThrownBy(() -> Runner.parseBlocks("12")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1-11");
        assertThatThrownBy(() -> Runner.parseBlocks("netem")).isInstanceOf(IllegalArgumentException.class);
    }
}
