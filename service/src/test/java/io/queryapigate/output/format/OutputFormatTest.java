package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.errors.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class OutputFormatTest {

    @Test
    void contentTypesExtensionsDownloadsAndStreaming() {
        assertThat(OutputFormat.JSON.contentType()).isEqualTo("application/json");
        assertThat(OutputFormat.NDJSON.contentType()).isEqualTo("application/x-ndjson");
        assertThat(OutputFormat.CSV.contentType()).isEqualTo("text/csv; charset=utf-8");
        assertThat(OutputFormat.TSV.contentType()).isEqualTo("text/tab-separated-values; charset=utf-8");
        assertThat(OutputFormat.XML.contentType()).isEqualTo("application/xml; charset=utf-8");
        assertThat(OutputFormat.YAML.contentType()).isEqualTo("application/x-yaml");
        assertThat(OutputFormat.XLSX.contentType())
                .isEqualTo("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        assertThat(OutputFormat.PARQUET.contentType()).isEqualTo("application/vnd.apache.parquet");
        assertThat(OutputFormat.values()).filteredOn(OutputFormat::isDownload)
                .containsExactly(OutputFormat.XLSX, OutputFormat.PARQUET);
        assertThat(OutputFormat.values()).filteredOn(OutputFormat::isStreamable).containsExactly(
                OutputFormat.NDJSON, OutputFormat.CSV, OutputFormat.TSV, OutputFormat.XLSX, OutputFormat.PARQUET);
        for (OutputFormat f : OutputFormat.values()) {
            assertThat(f.extension()).isEqualTo(f.formatName());
        }
    }

    @Test
    void contentDispositionForDownloadsAndStreams() {
        assertThat(OutputFormat.JSON.contentDisposition("sales", false)).isNull();
        assertThat(OutputFormat.CSV.contentDisposition("sales", false)).isNull();
        assertThat(OutputFormat.CSV.contentDisposition("sales", true)).isEqualTo("attachment; filename=\"sales.csv\"");
        assertThat(OutputFormat.XLSX.contentDisposition(null, false)).isEqualTo("attachment; filename=\"result.xlsx\"");
        assertThat(OutputFormat.PARQUET.contentDisposition(" ", false))
                .isEqualTo("attachment; filename=\"result.parquet\"");
        assertThat(OutputFormat.CSV.contentDisposition("a\"b/c\\d\r\ne", true))
                .isEqualTo("attachment; filename=\"a_b_c_d__e.csv\"; filename*=UTF-8''abcde.csv");
        assertThat(OutputFormat.XLSX.contentDisposition("Umsätze 2024", false))
                .isEqualTo("attachment; filename=\"Ums_tze 2024.xlsx\"; filename*=UTF-8''Ums%C3%A4tze%202024.xlsx");
    }

    @ParameterizedTest
    @CsvSource({"json,JSON", "JSON,JSON", "ndjson,NDJSON", "jsonl,NDJSON", "csv,CSV", " tsv ,TSV", "xml,XML",
        "yaml,YAML", "yml,YAML", "xlsx,XLSX", "Parquet,PARQUET"})
    void formatParameterNamesAFormat(String name, OutputFormat expected) {
        assertThat(OutputFormat.select(name, "application/xml")).isEqualTo(expected); // the parameter wins
    }

    @Test
    void unknownFormatIs400InvalidFormatNamingTheSupportedOnes() {
        assertThatThrownBy(() -> OutputFormat.select("pdf", null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("invalid_format");
                    assertThat(e.getMessage()).contains("'pdf'")
                            .contains("json, ndjson, csv, tsv, xml, yaml, xlsx, parquet");
                    assertThat(e.errors()).containsKey("format");
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "|JSON",
        "*/*|JSON",
        "application/json|JSON",
        "text/csv|CSV",
        "text/csv; charset=utf-8|CSV",
        "TEXT/CSV|CSV",
        "application/x-ndjson|NDJSON",
        "application/ndjson|NDJSON",
        "text/tab-separated-values|TSV",
        "application/xml|XML",
        "text/xml|XML",
        "application/yaml|YAML",
        "application/x-yaml|YAML",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet|XLSX",
        "application/vnd.apache.parquet|PARQUET",
        "text/csv;q=0.5, application/xml;q=0.9|XML",
        "application/xml;q=0.2, text/csv|CSV",
        "text/csv, application/json|CSV",
        "application/json, text/csv|JSON",
        "text/*|CSV",
        "application/*|JSON",
        "*/*;q=0.1, application/yaml|YAML",
        "*/*, application/json;q=0|NDJSON",
        "text/csv;q=0, text/*|TSV",
        "image/png|JSON",
        "application/vnd.example+json|JSON",
        "text/csv;q=abc, application/yaml;q=0.3|YAML",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8|JSON",
        "application/json, text/plain, */*|JSON",
        "garbage|JSON"})
    void acceptHeaderSelectsByQValue(String accept, OutputFormat expected) {
        assertThat(OutputFormat.select(null, accept)).isEqualTo(expected);
        assertThat(OutputFormat.select("", accept)).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void everyCanonicalMediaTypeSelectsItsFormat(OutputFormat f) {
        assertThat(OutputFormat.select(null, f.mediaTypes().get(0))).isEqualTo(f);
        assertThat(OutputFormat.select(null, f.contentType())).isEqualTo(f);
        assertThat(OutputFormat.fromName(f.formatName())).isEqualTo(f);
    }
}
