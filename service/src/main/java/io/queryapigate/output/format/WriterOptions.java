package io.queryapigate.output.format;

import java.util.Locale;
import java.util.Objects;

/**
 * Per-writer settings. {@link #DEFAULTS} suits most uses; {@link FormatsConfig#writerOptions()} builds them from
 * the YAML configuration.
 *
 * @param csvFormulaEscape CSV/TSV only: prefix {@code '} to text cells starting with {@code = + - @}, tab or CR, so
 *     a spreadsheet opening the file shows them as text instead of evaluating them (changes those values; off by
 *     default, see docs/formats.md)
 * @param parquetRowGroupBytes Parquet: the row group size in bytes, which is also about the writer's memory
 * @param parquetPageBytes Parquet: the page size in bytes
 * @param parquetCompression Parquet: {@code snappy}, {@code zstd} or {@code none}
 * @param xlsxSheetName XLSX: the first sheet's name (later sheets, after 1,048,575 rows each, add " (2)", ...)
 */
public record WriterOptions(
        boolean csvFormulaEscape,
        long parquetRowGroupBytes,
        int parquetPageBytes,
        String parquetCompression,
        String xlsxSheetName) {

    /** 8 MiB row groups, 1 MiB pages, snappy, sheet "Sheet" (the Python original's), no formula escaping. */
    public static final WriterOptions DEFAULTS = new WriterOptions(false, 8L << 20, 1 << 20, "snappy", "Sheet");

    /** Validates the fields. */
    public WriterOptions {
        if (parquetRowGroupBytes < 64 << 10) {
            throw new IllegalArgumentException("parquetRowGroupBytes must be at least 64 KiB");
        }
        if (parquetPageBytes < 4 << 10) {
            throw new IllegalArgumentException("parquetPageBytes must be at least 4 KiB");
        }
        parquetCompression = Objects.requireNonNull(parquetCompression, "parquetCompression").toLowerCase(Locale.ROOT);
        if (!parquetCompression.equals("snappy") && !parquetCompression.equals("zstd")
                && !parquetCompression.equals("none")) {
            throw new IllegalArgumentException("parquetCompression must be snappy, zstd or none");
        }
        Objects.requireNonNull(xlsxSheetName, "xlsxSheetName");
        if (xlsxSheetName.isBlank() || xlsxSheetName.length() > 25 || xlsxSheetName.matches(".*[\\[\\]:*?/\\\\].*")) {
            throw new IllegalArgumentException("xlsxSheetName must be 1-25 characters without []:*?/\\");
        }
    }

    public WriterOptions withCsvFormulaEscape(boolean on) {
        return new WriterOptions(on, parquetRowGroupBytes, parquetPageBytes, parquetCompression, xlsxSheetName);
    }

    public WriterOptions withParquetRowGroupBytes(long bytes) {
        return new WriterOptions(csvFormulaEscape, bytes, parquetPageBytes, parquetCompression, xlsxSheetName);
    }

    public WriterOptions withParquetCompression(String codec) {
        return new WriterOptions(csvFormulaEscape, parquetRowGroupBytes, parquetPageBytes, codec, xlsxSheetName);
    }
}
