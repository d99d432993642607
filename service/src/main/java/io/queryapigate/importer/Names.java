package io.queryapigate.importer;

import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.keys.KeyFields;
import io.queryapigate.queries.SavedQueries;
import java.util.List;
import java.util.Locale;

/**
 * Names as this gateway spells them. The original allows spaces and any script's letters in names ({@code [\w .-]}).
 * Key names are the original's, but for the ones this gateway keeps for itself; saved-query names too, but for
 * letters outside ASCII; a connection name here is 1-100 ASCII letters, digits, {@code .}, {@code _} or {@code -},
 * starting with a letter or digit. A character a name cannot have becomes {@code _}.
 */
final class Names {
    /** The suffix a renamed import gets ({@code --on-conflict rename}): {@code name-py}, {@code name-py2}, ... */
    static final String RENAME_SUFFIX = "-py";

    private Names() {}

    /**
     * The name here for an original's name by the strictest rule, a connection's ({@link ConnectionRegistry#NAME}):
     * itself when valid, else with every other character made {@code _}.
     */
    static String valid(String name) {
        if (ConnectionRegistry.NAME.matcher(name).matches()) {
            return name;
        }
        StringBuilder b = new StringBuilder();
        name.codePoints().forEach(cp -> b.append(cp < 128 && (Character.isLetterOrDigit(cp) || cp == '.'
                || cp == '_' || cp == '-') ? (char) cp : '_'));
        String s = b.length() == 0 || !Character.isLetterOrDigit(b.charAt(0)) ? "x" + b : b.toString();
        return s.length() > 100 ? s.substring(0, 100) : s;
    }

    /** A saved query's name here: the original's when this gateway accepts it ({@link SavedQueries#NAME}). */
    static String validQuery(String name) {
        return SavedQueries.NAME.matcher(name).matches() ? name : valid(name);
    }

    /** A key name here: the original's when this gateway accepts it ({@link KeyFields#name}), else made valid. */
    static String validKey(String name) {
        for (String candidate : List.of(name, valid(name))) {
            try {
                return KeyFields.name(candidate);
            } catch (IllegalArgumentException e) {
                // not accepted here (a name the gateway keeps for itself): the next candidate
            }
        }
        return valid(name) + RENAME_SUFFIX;
    }

    /** The n-th renamed form of a name (1: {@code name-py}, 2: {@code name-py2}), at most 100 characters. */
    static String renamed(String name, int n) {
        String suffix = RENAME_SUFFIX + (n == 1 ? "" : Integer.toString(n));
        return (name.length() + suffix.length() > 100 ? name.substring(0, 100 - suffix.length()) : name) + suffix;
    }

    /** An environment variable name for a connection's secret: {@code QAG_<NAME>_PASSWORD}. */
    static String variable(String connection, String what) {
        return "QAG_" + connection.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_" + what;
    }
}
