package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.jdbc.SqlTypeNames;
import java.sql.JDBCType;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDBC type of a declared SQLite column type. SQLite stores values by storage class (NULL, INTEGER, REAL, TEXT,
 * BLOB) whatever a column declares; the declared name is all that says a column holds dates, decimals or booleans.
 * Runs and the schema browser both map it here, so they agree: the standard names first ({@link SqlTypeNames}),
 * then SQLite's own affinity rules for the rest ({@code INT} anywhere is INTEGER, {@code CHAR}/{@code CLOB}/{@code
 * TEXT} text, {@code REAL}/{@code FLOA}/{@code DOUB} floating point, no type a BLOB, anything else NUMERIC).
 */
final class SqliteTypes {
    private static final Pattern SCALE = Pattern.compile("\\(\\s*\\d+\\s*,\\s*(\\d+)\\s*\\)");

    private SqliteTypes() {}

    /**
     * The JDBC type for a declared type.
     *
     * @param declared the declared type, such as {@code DECIMAL(12,2)}; null or blank for none
     * @return the type
     */
    static JDBCType of(String declared) {
        if (declared == null || declared.isBlank()) {
            return JDBCType.BLOB;
        }
        JDBCType standard = SqlTypeNames.nearest(declared);
        if (standard != JDBCType.OTHER) {
            return standard == JDBCType.CLOB ? JDBCType.VARCHAR : standard;
        }
        String upper = declared.toUpperCase(Locale.ROOT);
        if (upper.contains("INT")) {
            return JDBCType.BIGINT;
        }
        if (upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT")) {
            return JDBCType.VARCHAR;
        }
        if (upper.contains("BLOB")) {
            return JDBCType.BLOB;
        }
        if (upper.contains("REAL") || upper.contains("FLOA") || upper.contains("DOUB")) {
            return JDBCType.DOUBLE;
        }
        return JDBCType.NUMERIC;
    }

    /**
     * The declared scale of a decimal type ({@code 2} for {@code DECIMAL(12,2)}).
     *
     * @param declared the declared type
     * @return the scale, or empty when none is declared
     */
    static OptionalInt scale(String declared) {
        Matcher m = SCALE.matcher(declared == null ? "" : declared);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }
}
