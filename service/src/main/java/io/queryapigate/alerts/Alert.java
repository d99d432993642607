package io.queryapigate.alerts;

import java.util.Comparator;
import java.util.Map;

/**
 * One live condition that needs an administrator's attention, as the Python original writes it: a stable {@code id}
 * ({@code kind:subject}, so a client can remember which it was told about), a severity ({@code critical}: broken or
 * unsafe now, {@code warning}: will break or is degrading, {@code info}), what it concerns ({@code target}) and since
 * when, where that is known.
 */
public record Alert(String id, String severity, String kind, String title, String detail, String since,
        Target target) {
    private static final Map<String, Integer> RANK = Map.of("critical", 0, "warning", 1, "info", 2);
    /** Most severe first, then by kind and id. */
    public static final Comparator<Alert> ORDER = Comparator.<Alert>comparingInt(a -> RANK.get(a.severity()))
            .thenComparing(Alert::kind).thenComparing(Alert::id);

    /** What an alert concerns: a {@code key}, {@code connection}, {@code query}, or the server's {@code settings}. */
    public record Target(String type, String name) {}

    static Alert of(String severity, String kind, String subject, String title, String detail, String since,
            String targetType, String targetName) {
        return new Alert(kind + ":" + subject, severity, kind, title, detail, since,
                new Target(targetType, targetName));
    }
}
