package io.queryapigate.secrets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Rotating the key stored passwords are sealed with ({@link SecretBox}): {@link #report} says which listed key each
 * sealed value is under, {@link #rekey} re-encrypts every one under the first key in one transaction, so the other
 * keys can then be removed from {@value SecretBox#VARIABLE}. What it covers is every sealed value the store holds:
 * {@code connections.password_sealed}, soft-deleted connections included (they may be restored).
 */
public final class Rekey {
    private static final String SEALED = "SELECT name, password_sealed FROM connections"
            + " WHERE password_sealed IS NOT NULL ORDER BY name";

    private final Jdbi jdbi;
    private final SecretBox box;
    private final Recorder recorder;

    /**
     * Records a change to the stored passwords inside its transaction (the audit log's entry): {@code action} and
     * what changed, never a password.
     */
    @FunctionalInterface
    public interface Recorder {
        void record(String action, Map<String, Object> changes);
    }

    /** For reports only: {@link #rekey} and {@link #forgetUndecryptable} need a {@link Recorder}. */
    public Rekey(Jdbi jdbi, SecretBox box) {
        this(jdbi, box, null);
    }

    public Rekey(Jdbi jdbi, SecretBox box, Recorder recorder) {
        this.jdbi = jdbi;
        this.box = box;
        this.recorder = recorder;
    }

    /** A refusal, with the code the API answers (409). */
    public static final class Refused extends RuntimeException {
        private final String code;
        private final transient List<Map<String, String>> values;

        Refused(String code, String message, List<Map<String, String>> values) {
            super(message, null, false, false);
            this.code = code;
            this.values = values;
        }

        public String code() {
            return code;
        }

        /** What no listed key decrypts ({@code password_undecryptable}), else empty. */
        public List<Map<String, String>> values() {
            return values;
        }
    }

    /**
     * How many sealed values are under each listed key.
     *
     * @param keys how many keys are listed
     * @param byKey how many values each listed key holds, in order (the first encrypts)
     * @param undecryptable the connections whose value no listed key decrypts
     * @param rekeyed how many values {@link #rekey} moved to the first key; null for a report only
     */
    public record Report(int keys, List<Integer> byKey, List<String> undecryptable, Integer rekeyed) {
        public int values() {
            return byKey.stream().mapToInt(Integer::intValue).sum() + undecryptable.size();
        }

        public int underOldKeys() {
            return byKey.stream().skip(1).mapToInt(Integer::intValue).sum();
        }

        /** The API's answer, as the Python original's {@code POST /settings/rekey} gives it. */
        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("keys", keys);
            m.put("values", values());
            m.put("by_key", byKey);
            m.put("under_old_keys", underOldKeys());
            m.put("undecryptable", undecryptable.stream().map(n -> Map.of("type", "connection", "name", n)).toList());
            if (rekeyed != null) {
                m.put("rekeyed", rekeyed);
            }
            return m;
        }

        /** One line: how many values, under which key. */
        public String describe() {
            if (values() == 0) {
                return "No encrypted passwords are stored.";
            }
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < byKey.size(); i++) {
                parts.add(byKey.get(i) + (i == 0 ? " under the first key" : " under key " + (i + 1)));
            }
            if (!undecryptable.isEmpty()) {
                parts.add(undecryptable.size() + " under no listed key");
            }
            return values() + " encrypted password(s), " + keys + " key(s) listed: " + String.join(", ", parts) + ".";
        }
    }

    /** Which key each sealed value is under; without a key, every value is one nothing decrypts. */
    public Report report() {
        return jdbi.withHandle(this::report);
    }

    /**
     * Which key each value is under, refusing without a key ({@code secret_key_required}): the API's and the
     * command's {@code check}/{@code --dry-run}.
     */
    public Report check() {
        requireKey();
        return report();
    }

    /**
     * Re-encrypts every sealed value under the first key in one transaction, or, when a value no listed key
     * decrypts, changes nothing and names it ({@code password_undecryptable}). A value already under the first key
     * is left as it is, so running it again is harmless.
     */
    public Report rekey() {
        requireKey();
        return jdbi.inTransaction(h -> {
            List<String> undecryptable = new ArrayList<>();
            Map<String, Map.Entry<String, String>> moving = new LinkedHashMap<>();
            for (Map.Entry<String, String> row : sealed(h).entrySet()) {
                String name = row.getKey();
                String context = context(name);
                int index = index(row.getValue(), context);
                if (index < 0) {
                    undecryptable.add(name);
                } else if (index > 0) {
                    moving.put(name, Map.entry(row.getValue(), box.seal(box.open(row.getValue(), context), context)));
                }
            }
            if (!undecryptable.isEmpty()) {
                throw undecryptable(undecryptable);
            }
            int moved = 0;
            for (Map.Entry<String, Map.Entry<String, String>> m : moving.entrySet()) {
                // only if unchanged: a password saved meanwhile (under the first key) is not overwritten by the old one
                moved += h.createUpdate("UPDATE connections SET password_sealed = :sealed WHERE name = :name"
                        + " AND password_sealed = :was").bind("sealed", m.getValue().getValue())
                        .bind("was", m.getValue().getKey()).bind("name", m.getKey()).execute();
            }
            Report after = report(h);
            Report done = new Report(after.keys(), after.byKey(), after.undecryptable(), moved);
            recorder().record("rekey", done.toJson());
            return done;
        });
    }

    /**
     * Clears the passwords no listed key decrypts (a lost key: they cannot be recovered), so the server starts and
     * they can be entered again. Returns the connections cleared.
     */
    public List<String> forgetUndecryptable() {
        return jdbi.inTransaction(h -> {
            List<String> cleared = report(h).undecryptable();
            for (String name : cleared) {
                h.createUpdate("UPDATE connections SET password_sealed = NULL WHERE name = :name")
                        .bind("name", name).execute();
            }
            recorder().record("forget_undecryptable", Map.of("connections", cleared));
            return cleared;
        });
    }

    private Recorder recorder() {
        if (recorder == null) {
            throw new IllegalStateException("A change to the stored passwords is recorded in the audit log");
        }
        return recorder;
    }

    /** The context a connection's password is sealed for. */
    public static String context(String connection) {
        return "connection:" + connection + ":password";
    }

    static Refused undecryptable(List<String> names) {
        return new Refused("password_undecryptable", "No key in " + SecretBox.VARIABLE + " decrypts the password of "
                + names(names) + "; nothing was changed. Add the key it was encrypted with (after the first), or"
                + " enter that password again, then run rekey again.",
                names.stream().map(n -> Map.of("type", "connection", "name", n)).toList());
    }

    static String names(List<String> names) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < names.size() && i < 10; i++) {
            out.append(i == 0 ? "" : ", ").append("connection '").append(names.get(i)).append('\'');
        }
        return names.size() > 10 ? out + " and " + (names.size() - 10) + " more" : out.toString();
    }

    private Report report(Handle h) {
        List<Integer> byKey = new ArrayList<>();
        for (int i = 0; i < box.keyCount(); i++) {
            byKey.add(0);
        }
        List<String> undecryptable = new ArrayList<>();
        for (Map.Entry<String, String> row : sealed(h).entrySet()) {
            int index = box.canSeal() ? index(row.getValue(), context(row.getKey())) : -1;
            if (index < 0) {
                undecryptable.add(row.getKey());
            } else {
                byKey.set(index, byKey.get(index) + 1);
            }
        }
        return new Report(box.keyCount(), List.copyOf(byKey), List.copyOf(undecryptable), null);
    }

    private static Map<String, String> sealed(Handle h) {
        Map<String, String> rows = new LinkedHashMap<>();
        h.createQuery(SEALED).map((rs, ctx) -> Map.entry(rs.getString(1), rs.getString(2)))
                .forEach(e -> rows.put(e.getKey(), e.getValue()));
        return rows;
    }

    /** The listed key that decrypts {@code sealed} (0 = the first), or -1 when none does. */
    private int index(String sealed, String context) {
        try {
            int index = box.keyIndex(sealed).orElse(-1);
            if (index >= 0) {
                box.open(sealed, context); // the key id matches: make sure it really decrypts (not altered)
            }
            return index;
        } catch (SecretUnavailableException e) {
            return -1;
        }
    }

    private void requireKey() {
        if (!box.canSeal()) {
            throw new Refused("secret_key_required", SecretBox.VARIABLE + " is not set: there is no key to encrypt"
                    + " with", List.of());
        }
    }
}
