package io.queryapigate.live;

import io.queryapigate.errors.ApiException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Python original's subscription filters, as query parameters: {@code type} ({@value #RUN}, the only type),
 * {@code kind} ({@code saved} or {@code adhoc}), {@code query}, {@code connection}, {@code status} ({@code success},
 * {@code error}, or an HTTP status such as {@code 429}, as {@code GET /api/v1/history} takes it). They narrow what
 * the caller may see, never widen it; a name that matches nothing yet is no error.
 */
record Filters(String type, String kind, String query, String connection, String outcome, Integer status) {
    /** The type of a call's event. */
    static final String RUN = "query.run";

    /** The filters of a request (null or empty: absent); 400 {@code invalid_filter} naming each bad one. */
    static Filters parse(String type, String kind, String query, String connection, String status) {
        Map<String, String> errors = new LinkedHashMap<>();
        if (present(kind) && !kind.equals("saved") && !kind.equals("adhoc")) {
            errors.put("kind", "kind must be 'saved' or 'adhoc'");
        }
        String outcome = null;
        Integer code = null;
        if (present(status)) {
            if (status.equals("success") || status.equals("error")) {
                outcome = status;
            } else if (status.matches("[1-5][0-9][0-9]")) {
                code = Integer.parseInt(status);
            } else {
                errors.put("status", "status must be 'success' or 'error'");
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiException(400, "invalid_filter", errors.values().iterator().next(), errors);
        }
        return new Filters(blankToNull(type), blankToNull(kind), blankToNull(query), blankToNull(connection), outcome,
                code);
    }

    boolean pass(LiveEvent e) {
        boolean succeeded = e.status() >= 200 && e.status() < 300;
        return (type == null || type.equals(RUN))
                && (kind == null || kind.equals("adhoc") == e.adHoc())
                && (query == null || query.equals(e.query()))
                && (connection == null || connection.equals(e.connection()))
                && (outcome == null || outcome.equals("success") == succeeded)
                && (status == null || status == e.status());
    }

    private static boolean present(String s) {
        return s != null && !s.isEmpty();
    }

    private static String blankToNull(String s) {
        return present(s) ? s : null;
    }
}
