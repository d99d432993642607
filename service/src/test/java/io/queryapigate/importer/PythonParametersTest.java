package io.queryapigate.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.errors.ApiException;
import io.queryapigate.params.ParamRules;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The original's parameter rules (params.py) become ours with the same effect: each converted set is parsed by our
 * {@link ParamRules} and given the values the original accepts and refuses.
 */
class PythonParametersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static PythonParameters.Converted convert(String declared, String... markers) {
        return PythonParameters.convert(json(declared), Set.of(markers));
    }

    private static ParamRules rules(PythonParameters.Converted c) {
        assertThat(c.blocker()).isNull();
        return ParamRules.parse(c.rules());
    }

    @Test
    void shortFormsAndTheirAliasesBecomeOurTypes() {
        PythonParameters.Converted c = convert("""
                {"a": "int", "b": "integer", "c": "float", "d": "number", "e": "str", "f": "string", "g": "bool",
                 "h": "boolean"}""", "a", "b", "c", "d", "e", "f", "g", "h");
        assertThat(c.rules()).isEqualTo(json("""
                {"a": {"type": "int"}, "b": {"type": "int"}, "c": {"type": "float"}, "d": {"type": "float"},
                 "e": {"type": "str"}, "f": {"type": "str"}, "g": {"type": "bool"}, "h": {"type": "bool"}}"""));
        assertThat(c.notes()).isEmpty();
        assertThat(rules(c).specs()).hasSize(8);
    }

    @Test
    void everyRuleCarriesOverAndIsEnforcedTheSameWay() {
        ParamRules r = rules(convert("""
                {"id": {"type": "int", "min": 1, "max": 600, "description": "the film"},
                 "rating": {"type": "str", "enum": ["G", "PG", "R"], "default": "PG"},
                 "title": {"type": "str", "required": false, "min_length": 2, "max_length": 5, "pattern": "[A-Z ]+"}}""",
                "id", "rating", "title"));
        assertThat(r.resolve(Map.of("id", "7"), null)).containsEntry("id", 7L).containsEntry("rating", "PG")
                .containsEntry("title", null);
        assertRefused(r, Map.of("id", "0"), "id");
        assertRefused(r, Map.of("id", "601"), "id");
        assertRefused(r, Map.of(), "id");
        assertRefused(r, Map.of("id", "1", "rating", "X"), "rating");
        assertRefused(r, Map.of("id", "1", "title", "A"), "title");
        assertRefused(r, Map.of("id", "1", "title", "ABCDEF"), "title");
        assertRefused(r, Map.of("id", "1", "title", "ab"), "title");
        assertThat(r.specs().get("id").description()).isEqualTo("the film");
    }

    @Test
    void textValuesOfTypedRulesAreCoercedAsTheOriginalDoes() {
        PythonParameters.Converted c = convert("""
                {"n": {"type": "int", "default": "5", "enum": ["5", 6]}, "on": {"type": "bool", "default": "yes"},
                 "x": {"type": "float", "default": "1.5"}}""", "n", "on", "x");
        assertThat(c.rules().get("n").get("default").asLong()).isEqualTo(5);
        assertThat(c.rules().get("n").get("enum").toString()).isEqualTo("[5,6]");
        assertThat(c.rules().get("on").get("default").asBoolean()).isTrue();
        assertThat(c.rules().get("x").get("default").asDouble()).isEqualTo(1.5);
        assertThat(rules(c).resolve(Map.of(), null)).containsEntry("n", 5L).containsEntry("on", true);
    }

    @Test
    void anUntypedParameterIsTextOrTheTypeItsValuesHave() {
        PythonParameters.Converted c = convert("""
                {"r": {"enum": ["G", "PG"], "default": "G"}, "n": {"enum": [1, 2]}, "f": {"min": 0.5},
                 "any": {"required": false}}""", "r", "n", "f", "any");
        assertThat(c.rules().get("r").get("type").asText()).isEqualTo("str");
        assertThat(c.rules().get("n").get("type").asText()).isEqualTo("int");
        assertThat(c.rules().get("f").get("type").asText()).isEqualTo("float");
        assertThat(c.rules().get("any")).isEqualTo(json("{\"type\": \"str\", \"required\": false}"));
        assertThat(c.notes()).hasSize(4).allMatch(n -> n.contains("has no type in the original"));
        rules(c);
    }

    @Test
    void markersTheOriginalLeftUndeclaredAreDeclaredAsRequiredTextAndUnusedDeclarationsDropped() {
        PythonParameters.Converted c = convert("{\"used\": \"int\", \"unused\": \"int\"}", "used", "free");
        assertThat(c.rules()).isEqualTo(json("{\"used\": {\"type\": \"int\"}, \"free\": {\"type\": \"str\"}}"));
        assertThat(c.notes()).containsExactly(
                "parameter 'unused' is declared but the SQL does not use it: dropped",
                "parameter 'free' is used but not declared: declared as required text");
        assertThat(rules(c).resolve(Map.of("used", "1", "free", "x"), null)).containsEntry("free", "x");
    }

    @Test
    void aDefinitionTheOriginalCannotReadDegradesAsItDoesAtRunTime() {
        // params.read_definition(): an unknown rule or type makes the parameter untyped and required
        PythonParameters.Converted c = convert("{\"a\": {\"type\": \"int\", \"bogus\": 1}, \"b\": {\"type\": \"uuid\"},"
                + " \"c\": 7}", "a", "b", "c");
        assertThat(c.rules()).isEqualTo(json("{\"a\": {\"type\": \"str\"}, \"b\": {\"type\": \"str\"},"
                + " \"c\": {\"type\": \"str\"}}"));
        assertThat(c.notes()).filteredOn(n -> n.contains("could not read")).hasSize(3);
    }

    @Test
    void examplesAreDroppedWithANote() {
        PythonParameters.Converted c = convert("{\"n\": {\"type\": \"int\", \"example\": 5}}", "n");
        assertThat(c.rules()).isEqualTo(json("{\"n\": {\"type\": \"int\"}}"));
        assertThat(c.notes()).containsExactly("parameter 'n': example dropped (this gateway has no per-parameter"
                + " example)");
    }

    @Test
    void valuesFromTheSignInTokenOrEmbeddingsStopTheVersion() {
        assertThat(convert("{\"me\": {\"from_claim\": \"sub\"}}", "me").blocker()).contains("from_claim");
        assertThat(convert("{\"q\": {\"type\": \"str\", \"embed\": true}}", "q").blocker()).contains("embed");
        assertThat(convert("{\"q\": {\"type\": \"str\", \"embed\": false}}", "q").blocker()).isNull();
    }

    @Test
    void pythonPatternsAreWrittenInJavasSyntaxWithTheSameMeaning() {
        assertThat(PythonParameters.javaPattern("[A-Z]+")).isEqualTo("[A-Z]+");
        assertThat(PythonParameters.javaPattern("(?P<y>\\d{4})-(?P=y)")).isEqualTo("(?U)(?<y>\\d{4})-\\k<y>");
        assertThat(PythonParameters.javaPattern("abc\\Z")).isEqualTo("abc\\z");
        assertThat(PythonParameters.javaPattern("a\\\\Z")).isEqualTo("a\\\\Z");
        // Python's \w matches any script's letters
        ParamRules r = rules(convert("{\"name\": {\"type\": \"str\", \"pattern\": \"\\\\w+\"}}", "name"));
        assertThat(r.resolve(Map.of("name", "Zoë"), null)).containsEntry("name", "Zoë");
        assertRefused(r, Map.of("name", "a b"), "name");
    }

    private static void assertRefused(ParamRules r, Map<String, String> values, String parameter) {
        assertThatThrownBy(() -> r.resolve(values, null)).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).errors()).containsKey(parameter));
    }
}
