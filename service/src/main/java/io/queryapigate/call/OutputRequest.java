package io.queryapigate.call;

import io.queryapigate.errors.ApiException;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.output.format.OutputFormat;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.paging.Paging;
import java.util.Locale;
import java.util.Optional;

/**
 * How a call's rows are to be answered: the format ({@code ?format=} or {@code Accept}) and a page (the first page of
 * the default size unless the caller asked for another), or a stream ({@code ?stream=true}: csv, tsv, ndjson, and
 * parquet/xlsx as file downloads; never paged).
 */
public record OutputRequest(OutputFormat format, Optional<PageRequest> page, boolean stream, String baseName) {
    public static final OutputRequest JSON = new OutputRequest(OutputFormat.JSON, Optional.empty(), false, "result");

    public static OutputRequest parse(String format, String accept, String page, String pageSize, String stream,
            String baseName, Paging paging) {
        OutputFormat f = OutputFormat.select(format, accept);
        boolean streamed = stream != null && switch (stream.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off", "" -> false;
            default -> throw ApiException.badRequest("invalid_stream", "stream must be true or false.");
        };
        if (streamed) {
            if (!f.isStreamable()) {
                throw ApiException.badRequest("invalid_stream", "Streams are csv, tsv, ndjson, parquet or xlsx; not "
                        + f.formatName() + ".");
            }
            if (page != null || pageSize != null) {
                throw ApiException.badRequest("invalid_stream", "A stream cannot be paged: drop page/page_size.");
            }
            return new OutputRequest(f, Optional.empty(), true, baseName);
        }
        return new OutputRequest(f, Optional.of(paging.parse(page, pageSize)), false, baseName);
    }

    /** For tests and callers without configuration. */
    static Paging defaultPaging() {
        return new FormatsConfig().paging();
    }
}
