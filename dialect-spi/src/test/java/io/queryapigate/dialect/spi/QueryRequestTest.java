package io.queryapigate.dialect.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryRequestTest {
    private static final Duration T = Duration.ofSeconds(5);

    @Test
    void aCeilingOfAffectedRowsIsForAnUnstreamedWriteOnly() {
        QueryRequest write = new QueryRequest("UPDATE t SET a = 1", List.of(), AccessMode.WRITE, T, 10, false, "r",
                null, 3);
        assertThat(write.maxAffectedRows()).isEqualTo(3);
        assertThat(write.withTimeout(Duration.ofSeconds(1)).maxAffectedRows()).isEqualTo(3);
        assertThat(write.withMode(AccessMode.READ).maxAffectedRows()).as("a read has none").isZero();
        assertThat(new QueryRequest("UPDATE t SET a = 1", List.of(), AccessMode.WRITE, T, 10, false, "r", null)
                .maxAffectedRows()).as("none unless asked").isZero();
        assertThatThrownBy(() -> new QueryRequest("SELECT 1", List.of(), AccessMode.READ, T, 10, false, "r", null, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QueryRequest("UPDATE t SET a = 1", List.of(), AccessMode.WRITE, T, 10, true, "r",
                null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QueryRequest("UPDATE t SET a = 1", List.of(), AccessMode.WRITE, T, 10, false,
                "r", null, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRefusalCarriesWhatWasChangedAndAllowed() {
        AffectedRowsExceeded e = new AffectedRowsExceeded(7, 2);
        assertThat(e.affected()).isEqualTo(7);
        assertThat(e.ceiling()).isEqualTo(2);
        assertThat(e.error()).isEqualTo(DialectError.ROW_LIMIT);
        assertThat(e.getMessage()).contains("7").contains("2").contains("rolled back");
    }
}
