package io.queryapigate.output.format;

import io.queryapigate.errors.ApiException;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The response formats, with what the HTTP layer needs to serve each: content type, file extension, whether it is
 * always a download, whether it may be streamed, and a {@link RowWriter} factory.
 *
 * <p>Selection ({@link #select}): {@code ?format=} wins (case-insensitive name or alias; unknown: 400 {@code
 * invalid_format} naming the supported ones); else the {@code Accept} header by q-value; else JSON. See
 * docs/formats.md.
 */
public enum OutputFormat {
    JSON("json", "application/json", "json", false, false, List.of(), List.of("application/json")),
    NDJSON("ndjson", "application/x-ndjson", "ndjson", false, true, List.of("jsonl", "jsonlines"),
            List.of("application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines")),
    CSV("csv", "text/csv; charset=utf-8", "csv", false, true, List.of(), List.of("text/csv", "application/csv")),
    TSV("tsv", "text/tab-separated-values; charset=utf-8", "tsv", false, true, List.of(),
            List.of("text/tab-separated-values")),
    XML("xml", "application/xml; charset=utf-8", "xml", false, false, List.of(), List.of("application/xml", "text/xml")),
    YAML("yaml", "application/x-yaml", "yaml", false, false, List.of("yml"),
            List.of("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")),
    XLSX("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx", true, true, List.of(),
            List.of("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
    PARQUET("parquet", "application/vnd.apache.parquet", "parquet", true, true, List.of(),
            List.of("application/vnd.apache.parquet", "application/x-parquet"));

    private static final String DEFAULT_FILE_NAME = "result";

    private final String formatName;
    private final String contentType;
    private final String extension;
    private final boolean download;
    private final boolean streamable;
    private final List<String> aliases;
    private final List<String> mediaTypes;

    OutputFormat(String formatName, String contentType, String extension, boolean download, boolean streamable,
            List<String> aliases, List<String> mediaTypes) {
        this.formatName = formatName;
        this.contentType = contentType;
        this.extension = extension;
        this.download = download;
        this.streamable = streamable;
        this.aliases = aliases;
        this.mediaTypes = mediaTypes;
    }

    /** The name used in {@code ?format=}, such as {@code csv}. */
    public String formatName() {
        return formatName;
    }

    /** The {@code Content-Type} to send, such as {@code text/csv; charset=utf-8}. */
    public String contentType() {
        return contentType;
    }

    /** The media types that select this format in an {@code Accept} header (the first is the canonical one). */
    public List<String> mediaTypes() {
        return mediaTypes;
    }

    /** The file extension, without the dot. */
    public String extension() {
        return extension;
    }

    /** Whether the response is always a file download ({@code Content-Disposition: attachment}): XLSX, Parquet. */
    public boolean isDownload() {
        return download;
    }

    /** Whether {@code ?stream=true} may use this format: CSV, TSV, NDJSON, and XLSX/Parquet as file exports. */
    public boolean isStreamable() {
        return streamable;
    }

    /**
     * The {@code Content-Disposition} header for this format, or {@code null} when none is needed (not a download
     * format and not streamed).
     *
     * @param baseName the file name without extension (a saved query's name, say); blank means {@code result}
     * @param streamed whether the response is a streamed export (always an attachment)
     * @return the header value, such as {@code attachment; filename="sales_2024.csv"}
     */
    public String contentDisposition(String baseName, boolean streamed) {
        if (!download && !streamed) {
            return null;
        }
        return attachment(baseName == null || baseName.isBlank() ? DEFAULT_FILE_NAME : baseName.strip());
    }

    private String attachment(String base) {
        StringBuilder ascii = new StringBuilder(base.length());
        boolean changed = false;
        for (int i = 0; i < base.length(); i++) {
            char c = base.charAt(i);
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == ' ') {
                ascii.append(c);
            } else {
                ascii.append('_');
                changed = true;
            }
        }
        String file = ascii + "." + extension;
        String header = "attachment; filename=\"" + file + "\"";
        if (changed) {
            String clean = base.codePoints()
                    .filter(cp -> cp >= 0x20 && cp != 0x7F && cp != '"' && cp != '\\' && cp != '/')
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                    .toString();
            String encoded = URLEncoder.encode(clean + "." + extension, StandardCharsets.UTF_8).replace("+", "%20");
            header += "; filename*=UTF-8''" + encoded;
        }
        return header;
    }

    /**
     * A writer for this format onto {@code out}. The writer never closes {@code out}.
     *
     * @param out the response stream
     * @param options writer settings
     * @return a new writer
     */
    public RowWriter newWriter(OutputStream out, WriterOptions options) {
        return switch (this) {
            case JSON -> JsonRowWriters.json(out, options);
            case NDJSON -> JsonRowWriters.ndjson(out, options);
            case CSV -> new CsvRowWriter(out, options, false);
            case TSV -> new CsvRowWriter(out, options, true);
            case XML -> new XmlRowWriter(out, options);
            case YAML -> new YamlRowWriter(out, options);
            case XLSX -> new XlsxRowWriter(out, options);
            case PARQUET -> new ParquetRowWriter(out, options);
        };
    }

    /** A writer with {@link WriterOptions#DEFAULTS}. */
    public RowWriter newWriter(OutputStream out) {
        return newWriter(out, WriterOptions.DEFAULTS);
    }

    /**
     * The format named {@code name} (case-insensitive; aliases {@code jsonl}, {@code jsonlines}, {@code yml}).
     *
     * @param name the {@code format} value
     * @return the format
     * @throws ApiException 400 {@code invalid_format} naming the supported formats
     */
    public static OutputFormat fromName(String name) {
        String key = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (OutputFormat f : values()) {
            if (f.formatName.equals(key) || f.aliases.contains(key)) {
                return f;
            }
        }
        throw new ApiException(400, "invalid_format",
                "Unknown format '" + abbreviate(name) + "'. Supported formats: " + supportedNames() + ".",
                Map.of("format", "must be one of: " + supportedNames()));
    }

    /** The supported names, comma-separated: {@code json, ndjson, csv, tsv, xml, yaml, xlsx, parquet}. */
    public static String supportedNames() {
        return Arrays.stream(values()).map(OutputFormat::formatName).collect(Collectors.joining(", "));
    }

    /**
     * Chooses the response format.
     *
     * <ol>
     *   <li>A non-blank {@code format} parameter decides ({@link #fromName}; unknown: 400 {@code invalid_format}).
     *   <li>Else the {@code Accept} header: each format gets the q-value of the most specific media range that
     *       matches one of its {@link #mediaTypes} ({@code type/subtype} over {@code type/*} over {@code *}{@code
     *       /*}); the highest q wins, ties going to the range listed first, then to the order of this enum (so
     *       {@code *}{@code /*} is JSON, {@code text/*} CSV). A header that also accepts {@code text/html} (a
     *       browser navigating) gets JSON.
     *   <li>Else, or when the header accepts none of the formats, JSON (the header is then disregarded, as RFC
     *       9110 allows, rather than refused).
     * </ol>
     *
     * @param format the {@code format} query/body value, or null
     * @param accept the {@code Accept} header, or null
     * @return the format
     */
    public static OutputFormat select(String format, String accept) {
        if (format != null && !format.isBlank()) {
            return fromName(format);
        }
        if (accept == null || accept.isBlank()) {
            return JSON;
        }
        List<MediaRange> ranges = MediaRange.parse(accept);
        for (MediaRange r : ranges) {
            if (r.type.equals("text") && r.subtype.equals("html") && r.q > 0) {
                return JSON;
            }
        }
        OutputFormat best = null;
        double bestQ = 0;
        int bestPosition = Integer.MAX_VALUE;
        for (OutputFormat f : values()) {
            MediaRange match = null;
            for (String mediaType : f.mediaTypes) {
                for (MediaRange r : ranges) {
                    if (r.matches(mediaType) && (match == null || r.specificity() > match.specificity()
                            || r.specificity() == match.specificity() && r.q > match.q)) {
                        match = r;
                    }
                }
            }
            if (match == null || match.q <= 0) {
                continue;
            }
            if (match.q > bestQ || match.q == bestQ && match.position < bestPosition) {
                best = f;
                bestQ = match.q;
                bestPosition = match.position;
            }
        }
        return best == null ? JSON : best;
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        String t = s.strip();
        return t.length() > 40 ? t.substring(0, 40) + "..." : t;
    }

    /** One media range of an {@code Accept} header. */
    private record MediaRange(String type, String subtype, double q, int position) {
        static List<MediaRange> parse(String header) {
            List<MediaRange> out = new ArrayList<>();
            int position = 0;
            for (String part : header.split(",")) {
                String[] pieces = part.split(";");
                String range = pieces[0].strip().toLowerCase(Locale.ROOT);
                int slash = range.indexOf('/');
                String type;
                String subtype;
                if (range.equals("*")) {
                    type = "*";
                    subtype = "*";
                } else if (slash <= 0 || slash == range.length() - 1) {
                    continue;
                } else {
                    type = range.substring(0, slash).strip();
                    subtype = range.substring(slash + 1).strip();
                }
                double q = 1.0;
                for (int i = 1; i < pieces.length; i++) {
                    String p = pieces[i].strip();
                    if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
                        try {
                            q = Double.parseDouble(p.substring(2).strip());
                        } catch (NumberFormatException e) {
                            q = 0; // a malformed weight: ignore the range
                        }
                        if (!(q >= 0 && q <= 1)) {
                            q = 0;
                        }
                    }
                }
                out.add(new MediaRange(type, subtype, q, position++));
            }
            return out;
        }

        boolean matches(String mediaType) {
            int slash = mediaType.indexOf('/');
            String t = mediaType.substring(0, slash);
            String s = mediaType.substring(slash + 1);
            return type.equals("*") && subtype.equals("*")
                    || type.equals(t) && (subtype.equals("*") || subtype.equals(s));
        }

        int specificity() {
            return type.equals("*") ? 0 : subtype.equals("*") ? 1 : 2;
        }
    }
}
