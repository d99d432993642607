package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class MemoryTest {
    @Test
    void memoryGaugesInMiB() throws Exception {
        JsonNode m = Http.JSON.readTree("{\"gauges\":{\"jvm.memory.heap.used\":{\"value\":10485760},"
                + "\"jvm.memory.non-heap.max\":{\"value\":-1},\"jvm.threads.count\":{\"value\":27},"
                + "\"jvm.allocated.bytes\":{\"value\":123456789}}}");
        JsonNode j = Memory.jvm(m);
        assertThat(j.path("heap_used_mib").asDouble()).isEqualTo(10.0);
        assertThat(j.has("heap_committed_mib")).isFalse();
        assertThat(j.path("threads").asInt()).isEqualTo(27);
        assertThat(Memory.allocatedBytes(m)).isEqualTo(123456789L);
        assertThat(Memory.allocatedBytes(Http.JSON.readTree("{\"gauges\":{}}"))).isEqualTo(-1);
    }
}
