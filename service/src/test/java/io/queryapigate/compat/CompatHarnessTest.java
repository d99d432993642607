package io.queryapigate.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The differential suite's own parts, without the gateways: what it calls a difference, and what documents one. */
class CompatHarnessTest {
    private static Corpus.Step step(String id, String path, List<String> unordered) {
        return new Corpus.Step(id, "area", "GET", path, List.of(), Map.of(), null, null, null, "admin", "x-api-key",
                Map.of(), List.of(), unordered, List.of(), List.of(), List.of(), null, Map.of());
    }

    private static Side.Answer answer(int status, String contentType, String body) {
        return new Side.Answer(status, Map.of("content-type", List.of(contentType)),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<Differ.Difference> diff(Corpus.Step step, Side.Answer py, Side.Answer jvm) {
        return Differ.compare(step, Normaliser.view(step, py), Normaliser.view(step, jvm));
    }

    private static List<String> fields(List<Differ.Difference> diffs) {
        return diffs.stream().map(Differ.Difference::field).toList();
    }

    @Test
    void rowsAreComparedExactlyDecimalsAndTimestampsIncluded() {
        Corpus.Step q = step("q", "/q/x", List.of());
        assertThat(diff(q, answer(200, "application/json", "[{\"d\": 1.1, \"n\": 1, \"ts\": \"2024-01-31 12:00:00\"}]"),
                answer(200, "application/json", "[{\"d\": 1.10, \"n\": 1.0, \"ts\": \"2024-01-31T12:00:00\"}]")))
                .extracting(Differ.Difference::field, Differ.Difference::python, Differ.Difference::jvm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("body:/0/d", "1.1", "1.10"),
                        org.assertj.core.groups.Tuple.tuple("body:/0/n", "1", "1.0"),
                        org.assertj.core.groups.Tuple.tuple("body:/0/ts", "\"2024-01-31 12:00:00\"",
                                "\"2024-01-31T12:00:00\""));
        assertThat(diff(q, answer(200, "application/json", "[{\"a\": 1, \"b\": 2}]"),
                answer(200, "application/json", "[{\"b\": 2, \"a\": 1}]")))
                .extracting(Differ.Difference::field).containsExactly("body:/0 (column order)");
        assertThat(diff(q, answer(200, "application/json", "[{\"a\": 1}]"),
                answer(200, "application/json", "[{\"a\": 1}]"))).isEmpty();
    }

    @Test
    void theSameDifferenceInEveryRowIsOneWithItsCount() {
        Corpus.Step q = step("q", "/q/x", List.of());
        List<Differ.Difference> d = diff(q, answer(200, "application/json", "[{\"t\": \"12:00:00\"}, {\"t\": \"13:00:00\"}]"),
                answer(200, "application/json", "[{\"t\": \"12:00\"}, {\"t\": \"13:00\"}]"));
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.field()).isEqualTo("body:/*/t");
            assertThat(x.count()).isEqualTo(2);
            assertThat(x.python()).isEqualTo("\"12:00:00\"");
        });
    }

    @Test
    void aDifferentStatusIsReportedWithItsCodeAndNothingElse() {
        Corpus.Step q = step("q", "/q/x", List.of());
        assertThat(fields(diff(q, answer(200, "application/json", "[{\"a\": 1}]"),
                answer(400, "application/json", "{\"error\": \"no\", \"code\": \"invalid_parameters\"}"))))
                .containsExactly("status", "code");
        assertThat(diff(q, answer(400, "application/json", "{\"error\": \"a\", \"code\": \"param_invalid\", \"request_id\": \"q\"}"),
                answer(400, "application/json", "{\"error\": \"b\", \"code\": \"invalid_parameters\", \"request_id\": \"q\"}")))
                .extracting(Differ.Difference::field, Differ.Difference::python, Differ.Difference::jvm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("code", "param_invalid", "invalid_parameters"));
    }

    @Test
    void managementAnswersKeepTheShapeOfTimesButNotTheirValues() {
        Corpus.Step m = step("m", "/api/v1/api-keys/k", List.of());
        assertThat(diff(m, answer(200, "application/json", "{\"created_at\": \"2026-01-01 10:00:00\", \"secret\": \"sk_aaaaaaaaaaaaaaaaaaaaaaaa\"}"),
                answer(200, "application/json", "{\"created_at\": \"2026-12-01 20:26:43\", \"secret\": \"qag_bbbbbbbbbbbbbbbbbbbbbbbb\"}")))
                .isEmpty();
        assertThat(diff(m, answer(200, "application/json", "{\"created_at\": \"2026-01-01 10:00:00\"}"),
                answer(200, "application/json", "{\"created_at\": \"2026-01-01T10:00:00.123Z\"}")))
                .extracting(Differ.Difference::python, Differ.Difference::jvm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("\"<time 9999-99-99 99:99:99>\"",
                        "\"<time 9999-99-99T99:99:99.fZ>\""));
    }

    @Test
    void itemsWithNamesAreMatchedByNameAndUnorderedArraysSorted() {
        Corpus.Step m = step("m", "/api/v1/queries", List.of("/items/*/tags"));
        List<Differ.Difference> d = diff(m,
                answer(200, "application/json", "{\"items\": [{\"name\": \"a\", \"tags\": [\"x\", \"y\"]}, {\"name\": \"b\"}]}"),
                answer(200, "application/json", "{\"items\": [{\"name\": \"c\"}, {\"name\": \"a\", \"tags\": [\"y\", \"x\"]}]}"));
        assertThat(d).extracting(Differ.Difference::field, Differ.Difference::python, Differ.Difference::jvm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("body:/items (names)", "b", "c"));
    }

    @Test
    void binaryAndTextBodies() {
        Corpus.Step q = step("q", "/q/x", List.of());
        assertThat(diff(q, answer(200, "text/csv", "a\r\n1\r\n"), answer(200, "text/csv", "a\n2\n")))
                .extracting(Differ.Difference::field, Differ.Difference::python, Differ.Difference::jvm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("body", "line 2: 1", "line 2: 2"));
        assertThat(diff(q, answer(200, "text/csv", "a\r\n1\r\n"), answer(200, "text/csv", "a\n1\n"))).isEmpty();
    }

    @Test
    void theRegistryReadsTheMigrationDocsTables(@TempDir Path dir) throws IOException {
        Path doc = TestingConfig.repo().resolve("docs/migrating-from-python.md");
        Registry registry = Registry.load("/compat/differences.yaml");
        assertThat(registry.missingFromDoc(doc)).isEmpty();
        Path edited = dir.resolve("migrating-from-python.md");
        Files.writeString(edited, Files.readString(doc).replace("| statements over a masked table |",
                "| statements over masked tables |"));
        assertThat(registry.missingFromDoc(edited)).singleElement().asString().startsWith("masked-statements:");
        assertThat(Registry.tableRows(doc).get("Masking")).contains("refusal code", "statements over a masked table");
    }

    @Test
    void aRegistryEntryMatchesByCaseAndFieldAndIsStaleUntilItDoes() {
        Registry registry = Registry.load("/compat/differences.yaml");
        assertThat(registry.stale()).hasSameSizeAs(registry.entries());
        assertThat(registry.match(new Differ.Difference("mask-cte", "a", "code", "(absent)",
                "column_masked_unresolvable", 1))).extracting(Registry.Entry::id).isEqualTo("masked-statements");
        assertThat(registry.match(new Differ.Difference("mask-cte", "a", "body:/0/email", "x", "y", 1))).isNull();
        assertThat(registry.match(new Differ.Difference("q-film", "a", "code", "x", "y", 1))).isNull();
        assertThat(registry.stale()).extracting(Registry.Entry::id).doesNotContain("masked-statements");
    }

    @Test
    void theCorpusLoadsWithUniqueIdsAndKnownSetups() {
        Corpus corpus = Corpus.load("/compat/corpus.yaml");
        assertThat(corpus.cases()).hasSizeGreaterThanOrEqualTo(150);
        assertThat(corpus.setups()).containsKeys("connection", "catalog", "keys");
        assertThat(corpus.cases()).allSatisfy(c -> assertThat(c.setup()).isNotEmpty());
    }

    @Test
    void aSetupThatDiffersByGatewaySaysWhyAndCasesCannot() {
        String setup = "setups:\n  s:\n    - {id: s1, path: /x, jvm: {body: {a: 1}}}\nareas: []\n";
        assertThatThrownBy(() -> Corpus.parse(setup)).hasMessageContaining("needs a 'why'");
        assertThat(Corpus.parse(setup.replace("}}}", "}}, why: because}")).setups().get("s").getFirst()
                .bodyFor("jvm").get("a").asInt()).isEqualTo(1);
        String kase = "setups: {s: []}\nareas:\n  - area: a\n    setup: [s]\n    cases:\n"
                + "      - {id: c1, path: /x, side: jvm, why: no}\n";
        assertThatThrownBy(() -> Corpus.parse(kase)).hasMessageContaining("unknown field 'side'");
        assertThatThrownBy(() -> Corpus.parse(kase.replace(", side: jvm, why: no", "").replace("[s]", "[t]")))
                .hasMessageContaining("no setup named t");
    }
}
