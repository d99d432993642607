package io.queryapigate.dialect.clickhouse;

import io.queryapigate.dialect.spi.Parameter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/**
 * Parameter values as ClickHouse SQL literals, for servers without query parameters (18.16 has none: {@code
 * param_x} is an unknown setting there).
 *
 * <p>Safety rests on three properties, each proven by tests against the real server:
 *
 * <ul>
 *   <li>A string literal contains no raw quote, backslash, line break or control character: {@code \} and {@code '}
 *       are backslash-escaped, control characters become {@code \n}, {@code \t}, {@code \0}, {@code \xHH}, ... so
 *       the literal ends exactly at its closing quote, and no line comment can be ended by it.
 *   <li>{@code /} is written {@code \/} (ClickHouse reads it back as {@code /}), so a literal never contains
 *       {@code *}{@code /} or {@code /*}: even a literal that landed inside a block comment could not end it.
 *   <li>Every literal is placed with a space on both sides, so it cannot merge with the token before or after it
 *       ({@code -?} with {@code -5} does not become the comment {@code --5}; {@code 'a'?} does not become one string).
 * </ul>
 *
 * <p>Numbers are rendered from Java numbers, never from text. Values ClickHouse cannot hold are refused rather than
 * changed: dates outside {@code Date}'s 1970-01-01 to 2105-12-31, date-times with fractions of a second (18.16's
 * {@code DateTime} has whole seconds), decimals beyond 38 digits, floats ClickHouse 18.16 cannot parse (subnormals),
 * and strings that are not valid Unicode (a lone surrogate has no UTF-8 form).
 */
public final class ClickHouseLiterals {
    /** The first day ClickHouse's {@code Date} holds. */
    public static final LocalDate MIN_DATE = LocalDate.of(1970, 1, 1);
    /** The last day 18.16's {@code Date} and {@code DateTime} hold (later values print as zero dates). */
    public static final LocalDate MAX_DATE = LocalDate.of(2105, 12, 31);

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ClickHouseLiterals() {}

    /**
     * Replaces each marker of {@code scan} with the literal of the parameter at the same position.
     *
     * @param scan the scanned statement
     * @param parameters one per marker, in order
     * @return the statement text (up to {@link ClickHouseSql#trimmed()}) with literals in place of the markers
     * @throws IllegalArgumentException when the counts differ, the statement cannot carry parameters safely, or a
     *     value cannot be rendered
     */
    public static String render(ClickHouseSql scan, List<Parameter> parameters) {
        return render(scan, parameters, false);
    }

    /**
     * Replaces each marker of {@code scan} with the literal of the parameter at the same position, a NULL as a NULL
     * of the parameter's declared type when {@code typedNulls} ({@link #typedNull}), for a describe, where the
     * markers' types decide the columns' and every value is NULL.
     *
     * @param scan the scanned statement
     * @param parameters one per marker, in order
     * @param typedNulls whether a NULL carries its declared type
     * @return the statement text with literals in place of the markers
     * @throws IllegalArgumentException as {@link #render(ClickHouseSql, List)}
     */
    public static String render(ClickHouseSql scan, List<Parameter> parameters, boolean typedNulls) {
        List<Integer> markers = scan.markers();
        if (markers.size() != parameters.size()) {
            throw new IllegalArgumentException("the statement has " + markers.size() + " parameter marker"
                    + (markers.size() == 1 ? "" : "s") + " (?) but " + parameters.size() + " parameter"
                    + (parameters.size() == 1 ? " was" : "s were") + " given");
        }
        String sql = scan.trimmed();
        if (markers.isEmpty()) {
            return sql;
        }
        if (scan.problem() != null) {
            throw new IllegalArgumentException(scan.problem());
        }
        StringBuilder b = new StringBuilder(sql.length() + 16 * markers.size());
        int from = 0;
        for (int k = 0; k < markers.size(); k++) {
            int at = markers.get(k);
            b.append(sql, from, at).append(' ');
            Parameter p = parameters.get(k);
            if (typedNulls && p.value() == null) {
                b.append(typedNull(p.type()));
            } else {
                literal(b, p);
            }
            b.append(' ');
            from = at + 1;
        }
        return b.append(sql, from, sql.length()).toString();
    }

    /**
     * A NULL of the ClickHouse type a value of {@code type} is sent as: {@code CAST(NULL AS Nullable(Int64))} for
     * {@code BIGINT}; a decimal's scale comes from its value, so a decimal NULL is {@code Decimal(38, 0)}. Types
     * without a counterpart give a plain {@code NULL} ({@code Nullable(Nothing)}).
     *
     * @param type the declared type
     * @return the literal
     */
    public static String typedNull(JDBCType type) {
        String inner = switch (type) {
            case BIGINT -> "Int64";
            case INTEGER -> "Int32";
            case SMALLINT -> "Int16";
            case TINYINT -> "Int8";
            case DOUBLE, FLOAT -> "Float64";
            case REAL -> "Float32";
            case DECIMAL, NUMERIC -> "Decimal(38, 0)";
            case BOOLEAN, BIT -> "UInt8";
            case VARCHAR, CHAR, NVARCHAR, NCHAR, LONGVARCHAR, LONGNVARCHAR -> "String";
            case DATE -> "Date";
            case TIMESTAMP -> "DateTime";
            case TIMESTAMP_WITH_TIMEZONE -> "DateTime('UTC')";
            default -> null;
        };
        return inner == null ? "NULL" : "CAST(NULL AS Nullable(" + inner + "))";
    }

    /**
     * One parameter as a literal.
     *
     * @param parameter the parameter
     * @return the literal
     * @throws IllegalArgumentException when the value cannot be rendered
     */
    public static String literal(Parameter parameter) {
        StringBuilder b = new StringBuilder();
        literal(b, parameter);
        return b.toString();
    }

    private static void literal(StringBuilder b, Parameter p) {
        Object v = p.value();
        try {
            literalOf(b, v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter '" + p.name() + "': " + e.getMessage(), e);
        }
    }

    private static void literalOf(StringBuilder b, Object v) {
        switch (v) {
            case null -> b.append("NULL");
            case Boolean bool -> b.append(bool ? '1' : '0');
            case Long l -> b.append(l.longValue());
            case Integer i -> b.append(i.intValue());
            case Short s -> b.append(s.shortValue());
            case Byte by -> b.append(by.byteValue());
            case BigInteger bi -> integer(b, bi);
            case Double d -> floating(b, d);
            case Float f -> floating(b, f.doubleValue());
            case BigDecimal d -> decimal(b, d);
            case String s -> string(b, s);
            case LocalDate d -> b.append("toDate('").append(date(d)).append("')");
            case LocalDateTime t -> b.append("toDateTime('").append(dateTime(t)).append("')");
            case OffsetDateTime t -> b.append("toDateTime('")
                    .append(dateTime(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()))
                    .append("', 'UTC')");
            case UUID u -> b.append("toUUID('").append(u).append("')");
            default -> throw new IllegalArgumentException("values of type " + v.getClass().getName()
                    + " cannot be sent to ClickHouse");
        }
    }

    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private static void integer(StringBuilder b, BigInteger bi) {
        // 18.16 reads a wider integer literal as Float64, silently losing digits
        if (bi.compareTo(BigInteger.valueOf(Long.MIN_VALUE)) < 0 || bi.compareTo(UINT64_MAX) > 0) {
            throw new IllegalArgumentException("integer " + bi + " is outside Int64/UInt64");
        }
        b.append(bi);
    }

    private static void floating(StringBuilder b, double d) {
        if (Double.isNaN(d)) {
            b.append("nan");
        } else if (Double.isInfinite(d)) {
            b.append(d > 0 ? "inf" : "-inf");
        } else if (d != 0 && Math.abs(d) < Double.MIN_NORMAL) {
            throw new IllegalArgumentException("the subnormal float " + d + " cannot be written as a ClickHouse"
                    + " literal (18.16 refuses it)");
        } else {
            // Java's shortest round-trip form, e.g. 1.0E10 or -0.01; ClickHouse reads it exactly
            b.append(Double.toString(d));
        }
    }

    private static void decimal(StringBuilder b, BigDecimal d) {
        BigDecimal value = d.scale() < 0 ? d.setScale(0) : d;
        if (value.precision() > 38 || value.scale() > 38) {
            throw new IllegalArgumentException("decimal " + d.toPlainString() + " has more than 38 digits");
        }
        // a Decimal literal: ClickHouse refuses to compare Decimal columns with Float64, which a bare 1.5 would be
        b.append("toDecimal128('").append(value.toPlainString()).append("', ").append(value.scale()).append(')');
    }

    static String date(LocalDate d) {
        if (d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)) {
            throw new IllegalArgumentException("date " + d + " is outside ClickHouse's Date range " + MIN_DATE + " to "
                    + MAX_DATE);
        }
        return d.toString();
    }

    static String dateTime(LocalDateTime t) {
        if (t.getNano() != 0) {
            throw new IllegalArgumentException("date-time " + t + " has a fraction of a second; ClickHouse DateTime"
                    + " holds whole seconds");
        }
        date(t.toLocalDate());
        return DATE_TIME.format(t);
    }

    /**
     * A string literal with ClickHouse's escapes.
     *
     * @param b where to append it
     * @param s the value
     * @throws IllegalArgumentException when {@code s} holds a lone surrogate (it has no UTF-8 form)
     */
    static void string(StringBuilder b, String s) {
        b.append('\'');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\'' -> b.append("\\'");
                case '/' -> b.append("\\/");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\0' -> b.append("\\0");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        b.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new IllegalArgumentException("the string holds a lone surrogate (U+"
                                + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i
                                + "), which is not valid Unicode");
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('\'');
    }

    /**
     * A string as a ClickHouse literal, for the dialect's own statements ({@code KILL QUERY}).
     *
     * @param s the value
     * @return the quoted literal
     */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        string(b, s);
        return b.toString();
    }
}
