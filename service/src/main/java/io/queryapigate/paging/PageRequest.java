package io.queryapigate.paging;

/**
 * A validated page request.
 *
 * @param page the page number, 1-based
 * @param pageSize rows per page, at least 1
 */
public record PageRequest(long page, int pageSize) {
    /** Validates the fields. */
    public PageRequest {
        if (page < 1 || pageSize < 1) {
            throw new IllegalArgumentException("page and pageSize must be positive");
        }
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
