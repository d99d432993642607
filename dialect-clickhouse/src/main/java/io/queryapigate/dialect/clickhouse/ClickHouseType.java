package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.JDBCType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A ClickHouse column type, parsed from the name the server prints (the second header line of {@code
 * TabSeparatedWithNamesAndTypes}), and how its values become the Java objects of {@link
 * io.queryapigate.dialect.spi.RowSink}.
 *
 * <table>
 *   <caption>Conversions</caption>
 *   <tr><th>ClickHouse</th><th>Java</th><th>JDBC type</th></tr>
 *   <tr><td>Int8, Int16, Int32, Int64</td><td>Byte, Short, Integer, Long</td><td>TINYINT ... BIGINT</td></tr>
 *   <tr><td>UInt8, UInt16, UInt32</td><td>Short, Integer, Long</td><td>SMALLINT, INTEGER, BIGINT</td></tr>
 *   <tr><td>UInt64</td><td>Long, or BigInteger above Long.MAX_VALUE</td><td>NUMERIC</td></tr>
 *   <tr><td>(U)Int128, (U)Int256</td><td>BigInteger</td><td>NUMERIC</td></tr>
 *   <tr><td>Float32, Float64</td><td>Float, Double (nan, inf, -inf included)</td><td>REAL, DOUBLE</td></tr>
 *   <tr><td>Decimal(P, S)</td><td>BigDecimal with scale S</td><td>DECIMAL</td></tr>
 *   <tr><td>String, FixedString(N)</td><td>String (UTF-8; FixedString without its trailing NUL padding)</td>
 *       <td>VARCHAR, CHAR</td></tr>
 *   <tr><td>Date, Date32</td><td>LocalDate</td><td>DATE</td></tr>
 *   <tr><td>DateTime, DateTime64</td><td>LocalDateTime: the server's wall clock</td><td>TIMESTAMP</td></tr>
 *   <tr><td>DateTime('zone'), DateTime64(p, 'zone')</td><td>OffsetDateTime in that zone</td>
 *       <td>TIMESTAMP_WITH_TIMEZONE</td></tr>
 *   <tr><td>UUID</td><td>UUID</td><td>OTHER</td></tr>
 *   <tr><td>Enum8, Enum16</td><td>String (the member's name)</td><td>VARCHAR</td></tr>
 *   <tr><td>Bool, and Enum8('false' = 0, 'true' = 1)</td><td>Boolean</td><td>BOOLEAN</td></tr>
 *   <tr><td>Nullable(T), LowCardinality(T)</td><td>as T, or null</td><td>as T</td></tr>
 *   <tr><td>Array(T)</td><td>List</td><td>ARRAY</td></tr>
 *   <tr><td>Tuple(...)</td><td>List</td><td>STRUCT</td></tr>
 *   <tr><td>Map(K, V)</td><td>Map (insertion ordered)</td><td>JAVA_OBJECT</td></tr>
 *   <tr><td>Nothing (the type of a bare NULL)</td><td>null</td><td>NULL</td></tr>
 *   <tr><td>anything else (IPv4, AggregateFunction, ...)</td><td>String, the server's text</td><td>OTHER</td></tr>
 * </table>
 *
 * <p>The zero date {@code 0000-00-00} (how ClickHouse prints day 0 and out-of-range dates) is 1970-01-01, and the zero
 * date-time is the epoch in the column's (or server's) zone: those are the stored values.
 */
public abstract sealed class ClickHouseType {
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private final String name;

    private ClickHouseType(String name) {
        this.name = requireNonNull(name, "name is null");
    }

    /**
     * The type's name as the server printed it, such as {@code Nullable(Decimal(12, 2))}.
     *
     * @return the name
     */
    public final String name() {
        return name;
    }

    /**
     * The nearest JDBC type.
     *
     * @return the type
     */
    public abstract JDBCType jdbcType();

    /**
     * Whether {@code \N} (NULL) is a possible value.
     *
     * @return true for {@code Nullable(T)} and {@code Nothing}
     */
    public boolean nullable() {
        return false;
    }

    /**
     * Whether values are written in ClickHouse's quoted syntax ({@code [1,2]}, {@code ('a',1)}) rather than as
     * escaped text.
     *
     * @return true for arrays, tuples and maps
     */
    boolean composite() {
        return false;
    }

    /**
     * A value from its unescaped text.
     *
     * @param text the server's text for one value, never {@code \N}
     * @return the Java value
     * @throws IllegalArgumentException when the text does not fit the type
     */
    abstract Object fromText(String text);

    /**
     * A value from a composite's quoted syntax, starting at {@code cursor}.
     *
     * @param cursor where to read
     * @return the Java value
     */
    Object fromQuoted(QuotedCursor cursor) {
        if (cursor.peekNull()) {
            return null;
        }
        return fromText(cursor.scalar());
    }

    @Override
    public final String toString() {
        return name;
    }

    // ---------------------------------------------------------------- parsing type names

    /**
     * Parses a type name.
     *
     * @param name the name as the server printed it
     * @param serverZone the server's time zone, looked up only when a zero date-time of a zone-less column needs it
     * @return the type; unknown names become a text type, never an error
     */
    public static ClickHouseType parse(String name, Supplier<ZoneId> serverZone) {
        requireNonNull(name, "name is null");
        requireNonNull(serverZone, "serverZone is null");
        String n = name.strip();
        int paren = n.indexOf('(');
        String family = paren < 0 ? n : n.substring(0, paren).strip();
        List<String> args = paren < 0 || !n.endsWith(")") ? List.of() : splitArgs(n.substring(paren + 1, n.length() - 1));
        try {
            return switch (family) {
                case "Nullable" -> new NullableType(n, parse(args.get(0), serverZone));
                case "LowCardinality" -> parse(args.get(0), serverZone).renamed(n);
                case "SimpleAggregateFunction" -> parse(args.get(1), serverZone).renamed(n);
                case "Array" -> new ArrayType(n, parse(args.get(0), serverZone));
                case "Tuple" -> {
                    List<ClickHouseType> elements = new ArrayList<>();
                    for (String arg : args) {
                        elements.add(parse(withoutFieldName(arg), serverZone));
                    }
                    yield new TupleType(n, elements);
                }
                case "Map" -> new MapType(n, parse(args.get(0), serverZone), parse(args.get(1), serverZone));
                case "Nothing" -> new NothingType(n);
                case "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Int128", "Int256",
                        "UInt128", "UInt256", "IntervalSecond", "IntervalMinute", "IntervalHour", "IntervalDay",
                        "IntervalWeek", "IntervalMonth", "IntervalQuarter", "IntervalYear" -> new IntegerType(n, family);
                case "Float32", "Float64" -> new FloatType(n, family.equals("Float32"));
                case "Decimal" -> new DecimalType(n, Integer.parseInt(args.get(1).strip()));
                case "Decimal32", "Decimal64", "Decimal128", "Decimal256" ->
                        new DecimalType(n, Integer.parseInt(args.get(0).strip()));
                case "String" -> new StringType(n, JDBCType.VARCHAR, false);
                case "FixedString" -> new StringType(n, JDBCType.CHAR, true);
                case "Date", "Date32" -> new DateType(n);
                case "DateTime" -> new DateTimeType(n, args.isEmpty() ? null : zone(args.get(0)), serverZone);
                case "DateTime64" -> new DateTimeType(n, args.size() < 2 ? null : zone(args.get(1)), serverZone);
                case "UUID" -> new UuidType(n);
                case "Bool", "Boolean" -> new BoolType(n);
                case "Enum8", "Enum16" -> isBooleanEnum(args) ? new BoolType(n) : new StringType(n, JDBCType.VARCHAR, false);
                default -> new StringType(n, JDBCType.OTHER, false);
            };
        } catch (RuntimeException malformed) {
            return new StringType(n, JDBCType.OTHER, false);
        }
    }

    ClickHouseType renamed(String newName) {
        return new AliasType(newName, this);
    }

    private static String withoutFieldName(String arg) {
        // named tuple elements (newer servers): "a UInt8", "b Nullable(String)"
        String s = arg.strip();
        int space = s.indexOf(' ');
        int paren = s.indexOf('(');
        if (space > 0 && (paren < 0 || space < paren)) {
            return s.substring(space + 1).strip();
        }
        return s;
    }

    private static boolean isBooleanEnum(List<String> members) {
        if (members.size() != 2) {
            return false;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String member : members) {
            int eq = member.lastIndexOf('=');
            if (eq < 0) {
                return false;
            }
            m.put(member.substring(0, eq).strip(), member.substring(eq + 1).strip());
        }
        return "0".equals(m.get("'false'")) && "1".equals(m.get("'true'"));
    }

    private static ZoneId zone(String quoted) {
        String s = quoted.strip();
        if (s.length() >= 2 && s.charAt(0) == '\'' && s.charAt(s.length() - 1) == '\'') {
            s = s.substring(1, s.length() - 1);
        }
        return ZoneId.of(s);
    }

    /** Splits {@code a, B(c, d), 'x, y'} at top-level commas. */
    static List<String> splitArgs(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
                continue;
            }
            switch (c) {
                case '\'' -> quoted = true;
                case '(' -> depth++;
                case ')' -> depth--;
                case ',' -> {
                    if (depth == 0) {
                        out.add(s.substring(start, i).strip());
                        start = i + 1;
                    }
                }
                default -> { }
            }
        }
        String last = s.substring(start).strip();
        if (!last.isEmpty() || !out.isEmpty()) {
            out.add(last);
        }
        return out;
    }

    // ---------------------------------------------------------------- the types

    private static final class NullableType extends ClickHouseType {
        private final ClickHouseType inner;

        NullableType(String name, ClickHouseType inner) {
            super(name);
            this.inner = inner;
        }

        @Override
        public JDBCType jdbcType() {
            return inner.jdbcType();
        }

        @Override
        public boolean nullable() {
            return true;
        }

        @Override
        boolean composite() {
            return inner.composite();
        }

        @Override
        Object fromText(String text) {
            return inner.fromText(text);
        }

        @Override
        Object fromQuoted(QuotedCursor cursor) {
            return cursor.peekNull() ? null : inner.fromQuoted(cursor);
        }
    }

    /** {@code LowCardinality(T)} and {@code SimpleAggregateFunction(f, T)}: read exactly like {@code T}. */
    private static final class AliasType extends ClickHouseType {
        private final ClickHouseType target;

        AliasType(String name, ClickHouseType target) {
            super(name);
            this.target = target;
        }

        @Override
        public JDBCType jdbcType() {
            return target.jdbcType();
        }

        @Override
        public boolean nullable() {
            return target.nullable();
        }

        @Override
        boolean composite() {
            return target.composite();
        }

        @Override
        Object fromText(String text) {
            return target.fromText(text);
        }

        @Override
        Object fromQuoted(QuotedCursor cursor) {
            return target.fromQuoted(cursor);
        }
    }

    private static final class NothingType extends ClickHouseType {
        NothingType(String name) {
            super(name);
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.NULL;
        }

        @Override
        public boolean nullable() {
            return true;
        }

        @Override
        Object fromText(String text) {
            return null;
        }
    }

    private static final class IntegerType extends ClickHouseType {
        private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
        private final String family;
        private final JDBCType jdbc;

        IntegerType(String name, String family) {
            super(name);
            this.family = family;
            this.jdbc = switch (family) {
                case "Int8" -> JDBCType.TINYINT;
                case "Int16", "UInt8" -> JDBCType.SMALLINT;
                case "Int32", "UInt16" -> JDBCType.INTEGER;
                case "UInt64", "Int128", "Int256", "UInt128", "UInt256" -> JDBCType.NUMERIC;
                default -> JDBCType.BIGINT;
            };
        }

        @Override
        public JDBCType jdbcType() {
            return jdbc;
        }

        @Override
        Object fromText(String text) {
            return switch (family) {
                case "Int8" -> Byte.parseByte(text);
                case "Int16", "UInt8" -> Short.parseShort(text);
                case "Int32", "UInt16" -> Integer.parseInt(text);
                case "UInt64" -> text.length() < 19 ? (Object) Long.parseLong(text) : uint64(text);
                case "Int128", "Int256", "UInt128", "UInt256" -> new BigInteger(text);
                default -> Long.parseLong(text);
            };
        }

        private static Object uint64(String text) {
            BigInteger v = new BigInteger(text);
            return v.compareTo(LONG_MAX) <= 0 ? (Object) v.longValue() : v;
        }
    }

    private static final class FloatType extends ClickHouseType {
        private final boolean single;

        FloatType(String name, boolean single) {
            super(name);
            this.single = single;
        }

        @Override
        public JDBCType jdbcType() {
            return single ? JDBCType.REAL : JDBCType.DOUBLE;
        }

        @Override
        Object fromText(String text) {
            double d = switch (text) {
                case "nan", "-nan", "+nan" -> Double.NaN;
                case "inf", "+inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> single ? Float.parseFloat(text) : Double.parseDouble(text);
            };
            return single ? (Object) (float) d : (Object) d;
        }
    }

    private static final class DecimalType extends ClickHouseType {
        private final int scale;

        DecimalType(String name, int scale) {
            super(name);
            this.scale = scale;
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.DECIMAL;
        }

        @Override
        Object fromText(String text) {
            // newer servers may drop trailing zeros (output_format_decimal_trailing_zeros): the type knows the scale
            return new BigDecimal(text).setScale(scale, RoundingMode.UNNECESSARY);
        }
    }

    private static final class StringType extends ClickHouseType {
        private final JDBCType jdbc;
        private final boolean fixed;

        StringType(String name, JDBCType jdbc, boolean fixed) {
            super(name);
            this.jdbc = jdbc;
            this.fixed = fixed;
        }

        @Override
        public JDBCType jdbcType() {
            return jdbc;
        }

        @Override
        Object fromText(String text) {
            if (fixed) {
                int end = text.length();
                while (end > 0 && text.charAt(end - 1) == '\0') {
                    end--;
                }
                return text.substring(0, end);
            }
            return text;
        }
    }

    private static final class DateType extends ClickHouseType {
        DateType(String name) {
            super(name);
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.DATE;
        }

        @Override
        Object fromText(String text) {
            return text.startsWith("0000-00-00") ? LocalDate.EPOCH : LocalDate.parse(text);
        }
    }

    private static final class DateTimeType extends ClickHouseType {
        private final ZoneId zone;
        private final Supplier<ZoneId> serverZone;

        DateTimeType(String name, ZoneId zone, Supplier<ZoneId> serverZone) {
            super(name);
            this.zone = zone;
            this.serverZone = serverZone;
        }

        @Override
        public JDBCType jdbcType() {
            return zone == null ? JDBCType.TIMESTAMP : JDBCType.TIMESTAMP_WITH_TIMEZONE;
        }

        @Override
        Object fromText(String text) {
            if (text.startsWith("0000-00-00")) {
                ZoneId z = zone != null ? zone : serverZone.get();
                ZonedDateTime epoch = Instant.EPOCH.atZone(z);
                return zone == null ? epoch.toLocalDateTime() : epoch.toOffsetDateTime();
            }
            LocalDateTime local = LocalDateTime.parse(text, DATE_TIME);
            // in a daylight-saving overlap the earlier offset is taken: the text alone cannot say which
            return zone == null ? local : ZonedDateTime.ofLocal(local, zone, null).toOffsetDateTime();
        }
    }

    private static final class UuidType extends ClickHouseType {
        UuidType(String name) {
            super(name);
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.OTHER;
        }

        @Override
        Object fromText(String text) {
            return UUID.fromString(text);
        }
    }

    private static final class BoolType extends ClickHouseType {
        BoolType(String name) {
            super(name);
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.BOOLEAN;
        }

        @Override
        Object fromText(String text) {
            return switch (text) {
                case "true", "1" -> Boolean.TRUE;
                case "false", "0" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a boolean: " + text);
            };
        }
    }

    /** Arrays, tuples and maps: read from their quoted text form. */
    private abstract static sealed class CompositeType extends ClickHouseType {
        CompositeType(String name) {
            super(name);
        }

        @Override
        boolean composite() {
            return true;
        }

        @Override
        Object fromText(String text) {
            QuotedCursor cursor = new QuotedCursor(text);
            Object v = fromQuoted(cursor);
            cursor.end();
            return v;
        }
    }

    private static final class ArrayType extends CompositeType {
        private final ClickHouseType element;

        ArrayType(String name, ClickHouseType element) {
            super(name);
            this.element = element;
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.ARRAY;
        }

        @Override
        Object fromQuoted(QuotedCursor cursor) {
            if (cursor.peekNull()) {
                return null;
            }
            cursor.expect('[');
            List<Object> out = new ArrayList<>();
            if (!cursor.tryConsume(']')) {
                do {
                    out.add(element.fromQuoted(cursor));
                } while (cursor.tryConsume(','));
                cursor.expect(']');
            }
            return Collections.unmodifiableList(out);
        }
    }

    private static final class TupleType extends CompositeType {
        private final List<ClickHouseType> elements;

        TupleType(String name, List<ClickHouseType> elements) {
            super(name);
            this.elements = List.copyOf(elements);
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.STRUCT;
        }

        @Override
        Object fromQuoted(QuotedCursor cursor) {
            if (cursor.peekNull()) {
                return null;
            }
            cursor.expect('(');
            List<Object> out = new ArrayList<>(elements.size());
            for (int i = 0; i < elements.size(); i++) {
                if (i > 0) {
                    cursor.expect(',');
                }
                out.add(elements.get(i).fromQuoted(cursor));
            }
            cursor.expect(')');
            return Collections.unmodifiableList(out);
        }
    }

    private static final class MapType extends CompositeType {
        private final ClickHouseType key;
        private final ClickHouseType value;

        MapType(String name, ClickHouseType key, ClickHouseType value) {
            super(name);
            this.key = key;
            this.value = value;
        }

        @Override
        public JDBCType jdbcType() {
            return JDBCType.JAVA_OBJECT;
        }

        @Override
        Object fromQuoted(QuotedCursor cursor) {
            if (cursor.peekNull()) {
                return null;
            }
            cursor.expect('{');
            Map<Object, Object> out = new LinkedHashMap<>();
            if (!cursor.tryConsume('}')) {
                do {
                    Object k = key.fromQuoted(cursor);
                    cursor.expect(':');
                    out.put(k, value.fromQuoted(cursor));
                } while (cursor.tryConsume(','));
                cursor.expect('}');
            }
            return Collections.unmodifiableMap(out);
        }
    }

    // ---------------------------------------------------------------- the quoted syntax of composite values

    /**
     * Reads ClickHouse's quoted value syntax, used for the elements of arrays, tuples and maps: {@code NULL}, {@code
     * 'text'} with backslash escapes, bare numbers and words ({@code 1.5}, {@code nan}, {@code true}), and nested
     * {@code [...]}, {@code (...)}, {@code {...}}.
     */
    static final class QuotedCursor {
        private final String s;
        private int i;

        QuotedCursor(String s) {
            this.s = s;
        }

        private void skipSpaces() {
            while (i < s.length() && s.charAt(i) == ' ') {
                i++;
            }
        }

        boolean peekNull() {
            skipSpaces();
            if (s.startsWith("NULL", i)) {
                int after = i + 4;
                if (after == s.length() || ",])}:".indexOf(s.charAt(after)) >= 0 || s.charAt(after) == ' ') {
                    i = after;
                    return true;
                }
            }
            return false;
        }

        void expect(char c) {
            skipSpaces();
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at offset " + i + " of " + abbreviate(s));
            }
            i++;
        }

        boolean tryConsume(char c) {
            skipSpaces();
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        void end() {
            skipSpaces();
            if (i != s.length()) {
                throw new IllegalArgumentException("unexpected text at offset " + i + " of " + abbreviate(s));
            }
        }

        /** One scalar: a quoted string (unescaped) or a bare token up to the next delimiter. */
        String scalar() {
            skipSpaces();
            if (i < s.length() && s.charAt(i) == '\'') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < s.length()) {
                    char c = s.charAt(i);
                    if (c == '\\') {
                        if (i + 1 >= s.length()) {
                            break;
                        }
                        i = Tsv.unescape(s, i, b);
                        continue;
                    }
                    if (c == '\'') {
                        i++;
                        return b.toString();
                    }
                    b.append(c);
                    i++;
                }
                throw new IllegalArgumentException("unterminated string in " + abbreviate(s));
            }
            int start = i;
            while (i < s.length() && ",])}:".indexOf(s.charAt(i)) < 0) {
                i++;
            }
            return s.substring(start, i).strip();
        }

        private static String abbreviate(String s) {
            return s.length() <= 80 ? s : s.substring(0, 77) + "...";
        }
    }
}
