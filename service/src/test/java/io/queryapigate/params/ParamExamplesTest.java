package io.queryapigate.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Examples of each kind of rule: the value chosen, and that the rules a call applies accept it. */
class ParamExamplesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The example for {@code {"p": rule}}, checked as a call checks it when it claims to be valid. */
    static ParamExamples.Example example(String rule) {
        ParamRules rules;
        try {
            rules = ParamRules.parse(MAPPER.readTree("{\"p\": " + rule + "}"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ParamExamples.Example e = ParamExamples.of(rules.specs().get("p"));
        if (e.valid()) {
            assertThat(rules.resolve(Map.of("p", e.text()), null).get("p")).as(rule).isEqualTo(e.value());
            ObjectNode body = MAPPER.createObjectNode();
            body.set("p", e.json());
            assertThat(rules.resolve(Map.of(), body).get("p")).as(rule).isEqualTo(e.value());
        } else {
            assertThat(e.value()).isNull();
            assertThat(e.json()).isNull();
            assertThat(e.problem()).isNotBlank();
        }
        return e;
    }

    static String text(String rule) {
        ParamExamples.Example e = example(rule);
        assertThat(e.valid()).as(rule + ": " + e.problem()).isTrue();
        return e.text();
    }

    @Test
    void integersStartAtMinAsTheOriginalDoesAndStayInRange() {
        assertThat(text("\"int\"")).isEqualTo("1");
        assertThat(text("{\"type\": \"int\", \"min\": 2}")).isEqualTo("2");
        assertThat(text("{\"type\": \"int\", \"min\": 2.5}")).isEqualTo("3");
        assertThat(text("{\"type\": \"int\", \"min\": -1.5}")).as("Python's int(-1.5) + 1").isEqualTo("0");
        assertThat(text("{\"type\": \"int\", \"min\": -1.5, \"max\": -0.9}")).isEqualTo("-1");
        assertThat(text("{\"type\": \"int\", \"max\": 0.5}")).as("the original's 1 is above max").isEqualTo("0");
        assertThat(text("{\"type\": \"int\", \"max\": -7}")).isEqualTo("-7");
        assertThat(text("{\"type\": \"int\", \"min\": 5, \"max\": 5}")).isEqualTo("5");
        assertThat(text("{\"type\": \"int\", \"min\": -1e30}")).isEqualTo(Long.toString(Long.MIN_VALUE));
        assertThat(example("{\"type\": \"int\", \"min\": 1.2, \"max\": 1.8}").problem())
                .isEqualTo("no 64-bit integer lies within min and max");
        assertThat(example("{\"type\": \"int\", \"min\": 1e30}").valid()).isFalse();
        assertThat(example("\"int\"").value()).isEqualTo(1L);
        assertThat(example("\"int\"").json().isIntegralNumber()).isTrue();
    }

    @Test
    void numbersAreTheirBoundOrTheNearestDoubleInside() {
        assertThat(text("\"float\"")).isEqualTo("1");
        assertThat(text("{\"type\": \"float\", \"min\": 0.1}")).isEqualTo("0.1");
        assertThat(text("{\"type\": \"float\", \"max\": 0.5}")).isEqualTo("0.5");
        assertThat(text("{\"type\": \"float\", \"min\": 0.3, \"max\": 0.3}")).isEqualTo("0.3");
        // bounds with more digits than a double (JSON read with big decimals)
        BigDecimal low = new BigDecimal("0.1000000000000000000001");
        ParamSpec above = new ParamSpec("p", ParamType.FLOAT, true, null, false, null, low, null, null, null, null, null);
        ParamExamples.Example e = ParamExamples.of(above);
        assertThat(e.valid()).isTrue();
        assertThat(new BigDecimal(e.text())).isGreaterThan(low);
        assertThat(ParamRules.of(above).resolve(Map.of("p", e.text()), null)).containsEntry("p", e.value());
        assertThatThrownBy(() -> ParamRules.of(above).resolve(Map.of("p", "0.1"), null))
                .isInstanceOf(ApiException.class);
        ParamSpec between = new ParamSpec("p", ParamType.FLOAT, true, null, false, null, low,
                new BigDecimal("0.1000000000000000000002"), null, null, null, null);
        assertThat(ParamExamples.of(between).problem()).isEqualTo("no finite double lies within min and max");
        assertThat(example("{\"type\": \"float\", \"min\": 1e300}").text()).hasSize(301);
        assertThat(text("{\"type\": \"decimal\", \"min\": 0.50}")).isEqualTo("0.5");
        ParamSpec tiny = new ParamSpec("p", ParamType.DECIMAL, true, null, false, null, new BigDecimal("1e-500"), null,
                null, null, null, null);
        assertThat(ParamExamples.text(tiny)).as("too long in plain notation").isEqualTo("1E-500");
        assertThat(example("{\"type\": \"decimal\", \"min\": 2.25}").value()).isEqualTo(new BigDecimal("2.25"));
    }

    @Test
    void otherTypesHaveFixedExamples() {
        assertThat(text("\"bool\"")).isEqualTo("true");
        assertThat(text("\"date\"")).isEqualTo("2024-01-01");
        assertThat(example("\"date\"").value()).isEqualTo(LocalDate.of(2024, 1, 1));
        assertThat(text("\"timestamp\"")).isEqualTo("2024-01-01T00:00:00");
        assertThat(example("\"timestamp\"").json().asText()).isEqualTo("2024-01-01T00:00");
    }

    @Test
    void defaultsComeFirstThenTheFirstEnumValue() {
        assertThat(text("{\"type\": \"str\", \"enum\": [\"G\", \"PG\"], \"default\": \"PG\"}")).isEqualTo("PG");
        assertThat(text("{\"type\": \"int\", \"min\": 1, \"max\": 600, \"default\": 600}")).isEqualTo("600");
        assertThat(text("{\"type\": \"float\", \"default\": 2.50}")).isEqualTo("2.5");
        assertThat(text("{\"type\": \"str\", \"enum\": [\"b\", \"a\"]}")).isEqualTo("b");
        assertThat(text("{\"type\": \"int\", \"enum\": [3, 2]}")).isEqualTo("3");
        assertThat(text("{\"type\": \"float\", \"enum\": [1.5]}")).isEqualTo("1.5");
        assertThat(text("{\"type\": \"float\", \"enum\": [-0.0]}")).as("0 is not -0.0 to the enum").isEqualTo("-0.0");
        assertThat(text("{\"type\": \"decimal\", \"enum\": [\"1.10\"]}")).isEqualTo("1.1");
        assertThat(text("{\"type\": \"bool\", \"enum\": [false]}")).isEqualTo("false");
        assertThat(text("{\"type\": \"date\", \"enum\": [\"2023-05-06\"]}")).isEqualTo("2023-05-06");
        assertThat(text("{\"type\": \"timestamp\", \"enum\": [\"2024-01-31T12:00:00+01:00\"]}"))
                .isEqualTo("2024-01-31T12:00+01:00");
        assertThat(text("{\"type\": \"str\", \"default\": null}")).as("the original's empty text").isEqualTo("");
        assertThat(text("{\"type\": \"int\", \"default\": null}")).as("empty is no integer").isEqualTo("1");
        assertThat(text("{\"type\": \"str\", \"min_length\": 2, \"default\": null}")).isEqualTo("xx");
    }

    @Test
    void textIsXRepeatedWithinTheLengths() {
        assertThat(text("\"str\"")).isEqualTo("x");
        assertThat(text("{\"type\": \"str\", \"min_length\": 3}")).isEqualTo("xxx");
        assertThat(text("{\"type\": \"str\", \"max_length\": 0}")).isEqualTo("");
        assertThat(text("{\"type\": \"str\", \"min_length\": 1, \"max_length\": 1}")).isEqualTo("x");
        assertThat(example("{\"type\": \"str\", \"min_length\": 5000}").problem())
                .isEqualTo("min_length is above 1024: no example is made");
    }

    @Test
    void patternsGetTheShortestMatchOfLettersAndDigits() {
        assertThat(text("{\"pattern\": \"[A-Z]+\", \"min_length\": 2, \"max_length\": 20}")).isEqualTo("AA");
        assertThat(text("{\"pattern\": \"\\\\d{3}-\\\\d{4}\"}")).isEqualTo("000-0000");
        assertThat(text("{\"pattern\": \"^(foo|bar)$\"}")).isEqualTo("bar");
        assertThat(text("{\"pattern\": \"(?i)ABC\"}")).isEqualTo("abc");
        assertThat(text("{\"pattern\": \"[^a-z]+\"}")).isEqualTo("A");
        assertThat(text("{\"pattern\": \"\\\\p{Lu}\\\\p{Ll}+\"}")).isEqualTo("Aa");
        assertThat(text("{\"pattern\": \"[\\\\w&&[^\\\\d]]{2}\"}")).isEqualTo("aa");
        assertThat(text("{\"pattern\": \"\\\\Qa.b\\\\E\"}")).isEqualTo("a.b");
        assertThat(text("{\"pattern\": \"(?x) a  b # a comment\"}")).isEqualTo("ab");
        assertThat(text("{\"pattern\": \"\\\\s\"}")).isEqualTo(" ");
        assertThat(text("{\"pattern\": \"[a-z]*\"}")).as("the original's empty text matches").isEqualTo("");
        assertThat(text("{\"pattern\": \"[a-z]*\", \"min_length\": 4}")).isEqualTo("aaaa");
        assertThat(text("{\"pattern\": \"x|yy|zzz\", \"min_length\": 2, \"max_length\": 2}")).isEqualTo("yy");
        assertThat(text("{\"pattern\": \"(?=.*\\\\d)(?=.*[A-Z])\\\\w{6,}\"}")).hasSize(6);
        assertThat(text("{\"pattern\": \"(?!admin$)[a-z]+\", \"min_length\": 5, \"max_length\": 5}"))
                .isEqualTo("aaaaa");
        assertThat(text("{\"pattern\": \"(?!aaaaa)[a-z]+\", \"min_length\": 5, \"max_length\": 5}"))
                .isEqualTo("aaaab");
        assertThat(text("{\"pattern\": \"abc$\"}")).isEqualTo("abc");
        assertThat(text("{\"pattern\": \"(?m)^a$\"}")).isEqualTo("a");
        assertThat(text("{\"pattern\": \"\\\\bfoo\\\\b\"}")).isEqualTo("foo");
        assertThat(text("{\"pattern\": \"(\\\\w)\\\\1\"}")).as("a back reference, followed closely").isEqualTo("aa");
        assertThat(text("{\"pattern\": \"(?<=^)y\"}")).isEqualTo("y");
        assertThat(text("{\"pattern\": \"[a-c]{2}\\\\.(?<ext>txt|csv)\"}")).isEqualTo("aa.csv");
        assertThat(text("{\"pattern\": \"\\\\x41\\\\u00e9\\\\t?\"}")).isEqualTo("A\u00e9");
    }

    @Test
    void aPatternNoExampleFollowsSaysWhy() {
        ParamExamples.Example possessive = example("{\"pattern\": \"a*+a\"}");
        assertThat(possessive.valid()).isFalse();
        assertThat(possessive.problem()).isEqualTo("the pattern uses possessive quantifiers, which examples cannot"
                + " always follow");
        assertThat(possessive.text()).as("the closest candidate").isEqualTo("a");
        ParamExamples.Example tooLong = example("{\"pattern\": \"[a-z]{3}\", \"max_length\": 2}");
        assertThat(tooLong.problem()).isEqualTo("the shortest match has more than 2 characters");
        assertThat(tooLong.text()).isEmpty();
        assertThat(example("{\"pattern\": \"\\\\x{1F600}\"}").problem()).as("outside the BMP")
                .isEqualTo("no text of the allowed length matches the pattern (only characters of the Basic"
                        + " Multilingual Plane are tried)");
        assertThat(example("{\"pattern\": \"(a{100}){100}\"}").problem())
                .isEqualTo("the shortest match has more than 1024 characters");
        assertThat(example("{\"pattern\": \"(a{1000}){1000}\"}").problem())
                .isEqualTo("the pattern's repetitions are too large to derive an example");
    }

    @Test
    void theCheckThatValidatesExamplesRefusesWhatTheRulesRefuse() {
        // the harness itself: the same check refuses a value one character too long
        ParamRules rules;
        try {
            rules = ParamRules.parse(MAPPER.readTree("{\"p\": {\"pattern\": \"[A-Z]+\", \"max_length\": 2}}"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String ok = ParamExamples.text(rules.specs().get("p"));
        assertThat(rules.resolve(Map.of("p", ok), null)).containsEntry("p", "A");
        assertThatThrownBy(() -> rules.resolve(Map.of("p", ok + "AA"), null)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> rules.resolve(Map.of("p", ok.toLowerCase()), null)).isInstanceOf(ApiException.class);
    }

    @Test
    void theSameRulesGiveTheSameExamples() {
        String rule = "{\"pattern\": \"[a-z0-9._%+-]+@[a-z0-9.-]+\\\\.[a-z]{2,}\", \"min_length\": 9}";
        String first = text(rule);
        assertThat(first).matches("[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}").hasSize(9);
        assertThat(text(rule)).isEqualTo(first);
        JsonNode json = example(rule).json();
        assertThat(json.isTextual()).isTrue();
    }
}
