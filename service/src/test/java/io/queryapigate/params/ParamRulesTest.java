package io.queryapigate.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static io.queryapigate.params.ParamTesting.json;
import static io.queryapigate.params.ParamTesting.refused;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParamRulesTest {

    @Test
    void coercesQueryStringTextByType() throws Exception {
        ParamRules rules = ParamRules.parse(json("""
                {"id": "int", "rate": {"type": "decimal"}, "ok": "bool", "day": "date", "name": "str",
                 "x": {"type": "float"}}"""));
        Map<String, Object> v = rules.resolve(Map.of("id", "42", "rate", "4.99", "ok", "yes", "day", "2024-02-29",
                "name", "x'; DROP TABLE film; --", "x", "1.5e3"), null);
        assertThat(v).containsEntry("id", 42L).containsEntry("rate", new BigDecimal("4.99"))
                .containsEntry("ok", true).containsEntry("day", LocalDate.of(2024, 2, 29))
                .containsEntry("name", "x'; DROP TABLE film; --").containsEntry("x", 1500.0);
    }

    @Test
    void reportsEveryProblemAtOnce() throws Exception {
        ParamRules rules = ParamRules.parse(json("""
                {"a": {"type": "int", "min": 1}, "b": "int", "c": {"type": "str", "enum": ["x", "y"]},
                 "d": {"type": "str", "pattern": "[a-z]+", "max_length": 5}, "e": "bool"}"""));
        ApiException e = refused(() -> rules.resolve(Map.of("a", "0", "c", "z", "d", "ABC", "e", "maybe"), null));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("param_invalid");
        assertThat(e.errors()).containsEntry("a", "must be at least 1").containsEntry("b", "is required")
                .containsEntry("c", "must be one of: x, y").containsEntry("d", "must match the pattern [a-z]+")
                .containsEntry("e", "must be true or false");
        assertThat(e.getMessage()).startsWith("Invalid parameters: ");
    }

    @Test
    void enforces64BitBoundsAndRefusesNonNumbers() throws Exception {
        ParamRules rules = ParamRules.parse(json("{\"id\": \"int\", \"f\": \"float\"}"));
        assertThat(refused(() -> rules.resolve(Map.of("id", "9223372036854775808", "f", "1"), null)).errors())
                .containsEntry("id", "must be a 64-bit integer");
        assertThat(rules.resolve(Map.of("id", "9223372036854775807", "f", "1"), null))
                .containsEntry("id", Long.MAX_VALUE);
        assertThat(refused(() -> rules.resolve(Map.of("id", "1.5", "f", "NaN"), null)).errors())
                .containsEntry("id", "must be an integer").containsEntry("f", "must be a number");
        assertThat(refused(() -> rules.resolve(Map.of("id", "1", "f", "Infinity"), null)).errors())
                .containsEntry("f", "must be a number");
        assertThat(rules.resolve(Map.of("id", "-9223372036854775808", "f", "1"), null))
                .containsEntry("id", Long.MIN_VALUE);
        assertThat(rules.resolve(Map.of("id", " +007 ", "f", "1"), null)).containsEntry("id", 7L);
        for (String bad : List.of("", "+", "-", "1e3", "0x10", "\u0661\u0662", "1 2", "1".repeat(41))) {
            assertThat(refused(() -> rules.resolve(Map.of("id", bad, "f", "1"), null)).errors())
                    .as(bad).containsEntry("id", "must be an integer");
        }
        assertThat(refused(() -> rules.resolve(Map.of("id", "1".repeat(40), "f", "1"), null)).errors())
                .containsEntry("id", "must be a 64-bit integer");
    }

    @Test
    void jsonTextIsReadAsTheQueryStringWouldBeOtherJsonMustHaveTheType() throws Exception {
        ParamRules rules = ParamRules.parse(json("{\"id\": \"int\", \"s\": \"str\", \"b\": \"bool\"}"));
        ApiException e = refused(() -> rules.resolve(Map.of(), json("{\"id\": 7.5, \"s\": 7, \"b\": 1}")));
        assertThat(e.code()).isEqualTo("param_invalid");
        assertThat(e.errors()).containsEntry("id", "must be an integer").containsEntry("s", "must be text")
                .containsEntry("b", "must be true or false");
        assertThat(refused(() -> rules.resolve(Map.of(), json("{\"id\": \"seven\", \"s\": \"x\", \"b\": true}")))
                .errors()).containsOnlyKeys("id");
        assertThat(rules.resolve(Map.of(), json("{\"id\": 7, \"s\": \"7\", \"b\": false}")))
                .containsEntry("id", 7L).containsEntry("s", "7").containsEntry("b", false);
        assertThat(rules.resolve(Map.of(), json("{\"id\": \"7\", \"s\": \"7\", \"b\": \"yes\"}")))
                .containsEntry("id", 7L).containsEntry("s", "7").containsEntry("b", true);
    }

    @Test
    void missingValuesOnlyAreParamRequired() throws Exception {
        ParamRules rules = ParamRules.parse(json("{\"id\": \"int\", \"n\": \"int\"}"));
        ApiException e = refused(() -> rules.resolve(Map.of(), null));
        assertThat(e.code()).isEqualTo("param_required");
        assertThat(e.errors()).containsEntry("id", "is required").containsEntry("n", "is required");
        assertThat(refused(() -> rules.resolve(Map.of("n", "x"), null)).code()).isEqualTo("param_invalid");
    }

    @Test
    void defaultsAndOptionalNulls() throws Exception {
        ParamRules rules = ParamRules.parse(json("""
                {"limit": {"type": "int", "default": 10}, "q": {"type": "str", "required": false}}"""));
        assertThat(rules.resolve(Map.of(), null)).containsEntry("limit", 10L).containsEntry("q", null);
        List<Parameter> bound = rules.bind(List.of("q", "limit"), rules.resolve(Map.of("limit", "3"), null));
        assertThat(bound).containsExactly(new Parameter("q", null, JDBCType.VARCHAR),
                new Parameter("limit", 3L, JDBCType.BIGINT));
    }

    @Test
    void undeclaredValuesAreIgnored() throws Exception {
        ParamRules rules = ParamRules.parse(json("{\"id\": \"int\"}"));
        assertThat(rules.resolve(Map.of("id", "1", "_", "123"), json("{\"idd\": 2}"))).containsOnlyKeys("id");
    }

    @Test
    void badDeclarationsAreRefusedWhenSaving() throws Exception {
        ApiException e = refused(() -> ParamRules.parse(json("""
                {"a": "uuid", "b": {"type": "int", "min": 5, "max": 1}, "c": {"type": "int", "colour": 1},
                 "d": {"type": "str", "pattern": "("}, "e": {"type": "int", "default": "x"},
                 "1x": "int", "f": {"type": "int", "required": true, "default": 1}}""")));
        assertThat(e.errors()).containsKeys("a", "b", "c", "d", "e", "1x", "f");
    }

    @Test
    void declaredAndUsedMustMatch() throws Exception {
        ParamRules rules = ParamRules.parse(json("{\"id\": \"int\", \"unused\": \"str\"}"));
        ApiException e = refused(() -> rules.checkAgainst(Set.of("id", "other")));
        assertThat(e.errors()).containsKeys("unused", "other");
    }

    @Test
    void adHocValuesTakeTheirJsonTypes() throws Exception {
        List<Parameter> bound = ParamRules.bindAdHoc(List.of("a", "b", "c", "a"),
                json("{\"a\": 1, \"b\": \"x\", \"c\": true}"));
        assertThat(bound).extracting(Parameter::value).containsExactly(1L, "x", true, 1L);
        assertThat(refused(() -> ParamRules.bindAdHoc(List.of("a"), json("{\"a\": [1], \"z\": 1}"))).errors())
                .containsOnlyKeys("a");
        assertThat(refused(() -> ParamRules.bindAdHoc(List.of("a", "b"), json("{\"z\": 1}"))).code())
                .isEqualTo("param_required");
    }
}
