package io.queryapigate.config;

import io.queryapigate.paging.Paging;
import io.queryapigate.output.format.WriterOptions;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * Output settings, meant for the gateway's YAML under {@code output:} (see docs/formats.md):
 *
 * <pre>{@code
 * output:
 *   maxPageSize: 1000          # largest page_size accepted
 *   defaultPageSize: 10        # page_size when only page is given
 *   streamMaxRows: 0           # row ceiling for ?stream=true; 0 = off
 *   csvFormulaEscape: false    # prefix ' to CSV/TSV text cells starting with = + - @
 *   parquetRowGroupSize: 8MiB
 *   parquetCompression: snappy # snappy | zstd | none
 * }</pre>
 */
public class FormatsConfig {
    @Min(1)
    @Max(1_000_000)
    private int maxPageSize = 1000;

    @Min(1)
    @Max(1_000_000)
    private int defaultPageSize = 10;

    @Min(0)
    private long streamMaxRows = 0;

    private boolean csvFormulaEscape = false;

    @NotNull
    private DataSize parquetRowGroupSize = DataSize.mebibytes(8);

    @NotNull
    @Pattern(regexp = "(?i)snappy|zstd|none")
    private String parquetCompression = "snappy";

    @JsonProperty
    public int getMaxPageSize() {
        return maxPageSize;
    }

    @JsonProperty
    public void setMaxPageSize(int maxPageSize) {
        this.maxPageSize = maxPageSize;
    }

    @JsonProperty
    public int getDefaultPageSize() {
        return defaultPageSize;
    }

    @JsonProperty
    public void setDefaultPageSize(int defaultPageSize) {
        this.defaultPageSize = defaultPageSize;
    }

    @JsonProperty
    public long getStreamMaxRows() {
        return streamMaxRows;
    }

    @JsonProperty
    public void setStreamMaxRows(long streamMaxRows) {
        this.streamMaxRows = streamMaxRows;
    }

    @JsonProperty
    public boolean isCsvFormulaEscape() {
        return csvFormulaEscape;
    }

    @JsonProperty
    public void setCsvFormulaEscape(boolean csvFormulaEscape) {
        this.csvFormulaEscape = csvFormulaEscape;
    }

    @JsonProperty
    public DataSize getParquetRowGroupSize() {
        return parquetRowGroupSize;
    }

    @JsonProperty
    public void setParquetRowGroupSize(DataSize parquetRowGroupSize) {
        this.parquetRowGroupSize = parquetRowGroupSize;
    }

    @JsonProperty
    public String getParquetCompression() {
        return parquetCompression;
    }

    @JsonProperty
    public void setParquetCompression(String parquetCompression) {
        this.parquetCompression = parquetCompression;
    }

    /** The writer settings these values describe. */
    public WriterOptions writerOptions() {
        return WriterOptions.DEFAULTS
                .withCsvFormulaEscape(csvFormulaEscape)
                .withParquetRowGroupBytes(parquetRowGroupSize.toBytes())
                .withParquetCompression(parquetCompression);
    }

    /** The paging rules these values describe. */
    public Paging paging() {
        return new Paging(maxPageSize, Math.min(defaultPageSize, maxPageSize));
    }
}
