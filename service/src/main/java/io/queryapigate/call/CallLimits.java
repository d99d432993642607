package io.queryapigate.call;

import io.queryapigate.output.format.WriterOptions;
import io.queryapigate.paging.Paging;

/**
 * The configured bounds of a call.
 *
 * @param maxRows the most rows one buffered or paged call returns
 * @param maxSqlLength the longest ad-hoc SQL, in characters
 * @param streamMaxRows the most rows one stream writes (0: no ceiling)
 * @param paging the page-size rules and the SQL rewriting for pages
 * @param writerOptions how the formats render
 */
public record CallLimits(long maxRows, long maxSqlLength, long streamMaxRows, Paging paging,
        WriterOptions writerOptions) {}
