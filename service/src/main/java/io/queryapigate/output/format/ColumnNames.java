package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Column naming rules shared by the writers. */
public final class ColumnNames {
    private ColumnNames() {}

    /**
     * The result's column names made distinct: a repeated name gets {@code _2}, {@code _3}, ... appended (skipping
     * suffixes that are taken), so no value is lost. This is the JSON rule; every format's field names follow it.
     *
     * @param columns the result columns
     * @return one distinct name per column, in order
     */
    public static List<String> unique(List<ColumnInfo> columns) {
        List<String> names = new ArrayList<>(columns.size());
        for (ColumnInfo c : columns) {
            names.add(c.name());
        }
        return distinct(names);
    }

    static List<String> distinct(List<String> names) {
        List<String> out = new ArrayList<>(names.size());
        Set<String> seen = new HashSet<>();
        for (String base : names) {
            String name = base;
            for (int k = 2; !seen.add(name); k++) {
                name = base + "_" + k;
            }
            out.add(name);
        }
        return out;
    }

    /**
     * An XML element name for a column or key: a valid NCName (no colon). Characters that may not appear become
     * {@code _}; a name that does not start with a letter or {@code _}, or that starts with {@code xml} in any case
     * (reserved), gets a leading {@code _}; an empty name becomes {@code _}. Examples: {@code 1st -> _1st},
     * {@code a b -> a_b}, {@code x:y -> x_y}, {@code <script> -> _script_}. Letters beyond the BMP (emoji, say) become {@code _}
     * too, since parsers following older XML editions refuse them.
     *
     * @param name the original name
     * @return the element name
     */
    public static String xmlName(String name) {
        StringBuilder b = new StringBuilder(name.length() + 1);
        name.codePoints().forEach(cp -> b.appendCodePoint(isNameChar(cp) ? cp : '_'));
        if (b.isEmpty() || !isNameStartChar(b.codePointAt(0)) || b.toString().toLowerCase(Locale.ROOT).startsWith("xml")) {
            b.insert(0, '_');
        }
        return b.toString();
    }

    /** XML 1.0 (fifth edition) NameStartChar, without ':' (NCName). */
    static boolean isNameStartChar(int c) {
        return c >= 'A' && c <= 'Z' || c == '_' || c >= 'a' && c <= 'z'
                || c >= 0xC0 && c <= 0xD6 || c >= 0xD8 && c <= 0xF6 || c >= 0xF8 && c <= 0x2FF
                || c >= 0x370 && c <= 0x37D || c >= 0x37F && c <= 0x1FFF || c >= 0x200C && c <= 0x200D
                || c >= 0x2070 && c <= 0x218F || c >= 0x2C00 && c <= 0x2FEF || c >= 0x3001 && c <= 0xD7FF
                || c >= 0xF900 && c <= 0xFDCF || c >= 0xFDF0 && c <= 0xFFFD;
        // characters beyond the BMP are valid in XML 1.0 fifth edition names but refused by parsers that follow
        // older editions (the JDK's among them), so they become '_'
    }

    /** XML 1.0 (fifth edition) NameChar, without ':'. */
    static boolean isNameChar(int c) {
        return isNameStartChar(c) || c == '-' || c == '.' || c >= '0' && c <= '9' || c == 0xB7
                || c >= 0x300 && c <= 0x36F || c >= 0x203F && c <= 0x2040;
    }
}
