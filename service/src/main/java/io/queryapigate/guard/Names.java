package io.queryapigate.guard;

import io.queryapigate.sql.SqlLexer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names as the database reads them, for one checked text: the parser saw quoted identifiers that are not plain
 * replaced by placeholders ({@link SqlLexer.Result#parserText()}), so every name part the parser hands back is first
 * mapped to the identifier the lexer found, then resolved per the dialect's rules ({@link TableName.Naming}).
 */
final class Names {
    private final TableName.Naming naming;
    private final GuardOptions options;
    private final List<String> identifiers;
    private final Set<String> plainIdentifiers;

    Names(GuardOptions options, List<String> identifiers) {
        this.naming = options.naming();
        this.options = options;
        this.identifiers = identifiers;
        this.plainIdentifiers = new HashSet<>(identifiers);
    }

    TableName.Naming naming() {
        return naming;
    }

    /**
     * A name part as the database reads it: a placeholder ({@code "~<n>__"}) back to the quoted identifier it
     * stands for; any other quoted part must be one the lexer found, or the parser read the text differently from
     * the database and the statement is refused.
     */
    String original(String part) {
        if (part == null || part.isEmpty()) {
            return part;
        }
        char c = part.charAt(0);
        if (c != '"' && c != '`' && c != '[') {
            return part;
        }
        if (TableName.Naming.isQuoted(part)) {
            if (part.length() > 2 && part.charAt(1) == SqlLexer.PLACEHOLDER) {
                int stop = part.length() - 1;
                while (stop > 2 && part.charAt(stop - 1) == '_') {
                    stop--;
                }
                try {
                    int index = Integer.parseInt(part.substring(2, stop), 36);
                    if (index >= 0 && index < identifiers.size()) {
                        return identifiers.get(index);
                    }
                } catch (NumberFormatException e) {
                    // fall through: refused below
                }
            } else if (plainIdentifiers.contains(part)) {
                return part;
            }
        }
        throw GuardException.notParseable("The parser read the quoted name " + part + " differently from the "
                + "database, so the statement cannot be checked.");
    }

    /** The parser's name parts (innermost first, as JSqlParser keeps them) as originals, outermost first. */
    List<String> parts(List<String> innerFirst) {
        List<String> parts = new ArrayList<>(innerFirst == null ? 0 : innerFirst.size());
        if (innerFirst != null) {
            for (int i = innerFirst.size() - 1; i >= 0; i--) {
                String p = innerFirst.get(i);
                if (p != null && !p.isEmpty()) {
                    parts.add(original(p));
                }
            }
        }
        return parts;
    }

    /** Resolves original parts (outermost first) against the connection's defaults. */
    TableName resolve(List<String> parts) {
        if (parts.size() > 3) {
            // server.database.schema.table: keep every part, so that it can never equal an allowed name
            List<String> joined = new ArrayList<>(3);
            joined.add(String.join(".", parts.subList(0, parts.size() - 2)));
            joined.addAll(parts.subList(parts.size() - 2, parts.size()));
            parts = joined;
        }
        return naming.resolve(parts, options.defaultCatalog(), options.defaultSchema());
    }

    /** The dialect's comparison key of one original part. */
    String key(String original) {
        return naming.key(original);
    }

    /**
     * A part for comparisons that must not depend on case or quoting at all (masking matches names this way, so
     * that where engines disagree on folding it masks more, never less): unquoted, quotes unescaped, lower case.
     */
    static String fold(String original) {
        if (original == null) {
            return null;
        }
        String t = original.strip();
        if (TableName.Naming.isQuoted(t)) {
            char q = t.charAt(0);
            t = t.substring(1, t.length() - 1);
            if (q != '[') {
                t = t.replace(String.valueOf(q) + q, String.valueOf(q));
            }
        }
        return t.toLowerCase(Locale.ROOT);
    }

    /** A table name with every part folded ({@link #fold}). */
    static TableName fold(TableName t) {
        return new TableName(t.catalog() == null ? null : t.catalog().toLowerCase(Locale.ROOT),
                t.schema() == null ? null : t.schema().toLowerCase(Locale.ROOT), t.name().toLowerCase(Locale.ROOT));
    }
}
