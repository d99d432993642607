package io.queryapigate.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class QuotaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Quota read(String json) throws Exception {
        return Quota.of(MAPPER.readTree(json));
    }

    @Test
    void readsTheOriginalsShapeAndWritesIt() throws Exception {
        Quota q = read("{\"calls\": 100, \"rows\": 5000, \"per\": \"month\"}");
        assertThat(q).isEqualTo(new Quota(100L, 5000L, "month"));
        assertThat(MAPPER.writeValueAsString(read("{\"rows\": 7, \"calls\": null, \"per\": \"day\"}")))
                .isEqualTo("{\"rows\":7,\"per\":\"day\"}");
        assertThat(read("null")).isNull();
    }

    @Test
    void readsTheEarlierTextForm() throws Exception {
        assertThat(read("\"100/day\"")).isEqualTo(new Quota(100L, null, "day"));
        assertThat(read("\" 3 / Months \"")).isEqualTo(new Quota(3L, null, "month"));
        assertThat(MAPPER.readValue("{\"quota\": \"2/day\", \"connections\": []}", Grants.class).quota())
                .as("as stored in a key's grants").isEqualTo(new Quota(2L, null, "day"));
    }

    @Test
    void refusesWhatTheOriginalRefuses() {
        for (String bad : new String[] {"\"100/hour\"", "\"0/day\"", "[]", "{\"calls\": 1, \"per\": \"week\"}",
            "{\"calls\": 1}", "{\"per\": \"day\"}", "{\"calls\": 0, \"per\": \"day\"}",
            "{\"calls\": 1.5, \"per\": \"day\"}", "{\"calls\": true, \"per\": \"day\"}",
            "{\"calls\": 1000000000001, \"per\": \"day\"}", "{\"calls\": 1, \"per\": \"day\", \"burst\": 2}"}) {
            assertThatThrownBy(() -> read(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> read("{\"calls\": 0, \"per\": \"day\"}"))
                .hasMessage("calls must be a whole number from 1 to 1,000,000,000,000");
    }
}
