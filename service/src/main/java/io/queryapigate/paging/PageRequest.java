package io.queryapigate.paging;

/**
 * A validated page request.
 *
 * @param page the page number, 1-based
 * @param pageSize rows per page, at least 1
 * @param asked whether the caller asked for it ({@code page} or {@code page_size}); a call that did not gets the
 *     first page of the default size, and a write runs unpaged
 */
public record PageRequest(long page, int pageSize, boolean asked) {
    /** Validates the fields. */
    public PageRequest {
        if (page < 1 || pageSize < 1) {
            throw new IllegalArgumentException("page and pageSize must be positive");
        }
    }

    /** A page the caller asked for. */
    public PageRequest(long page, int pageSize) {
        this(page, pageSize, true);
    }

    /** Rows to skip: {@code (page - 1) * pageSize}. */
    public long offset() {
        return (page - 1) * pageSize;
    }

    /** Rows to fetch: one more than the page, to learn whether another page exists. */
    public int fetch() {
        return pageSize + 1;
    }
}
