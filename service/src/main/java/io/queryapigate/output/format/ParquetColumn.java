package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * How one result column is stored in Parquet, chosen from its {@link ColumnInfo} (JDBC type, and the database's
 * type name for decimal precision/scale and unsigned integers). Every column is OPTIONAL (nullable).
 *
 * <table>
 *   <caption>JDBC type to Parquet</caption>
 *   <tr><th>JDBC type</th><th>Parquet</th></tr>
 *   <tr><td>BOOLEAN, BIT</td><td>BOOLEAN</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INTEGER</td><td>INT32 (INT64 when unsigned INTEGER)</td></tr>
 *   <tr><td>BIGINT</td><td>INT64 (DECIMAL(20,0) when unsigned)</td></tr>
 *   <tr><td>REAL</td><td>FLOAT</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>DOUBLE</td></tr>
 *   <tr><td>DECIMAL, NUMERIC with precision 1-38 in the type name</td><td>DECIMAL(p,s) on INT32 (p &le; 9), INT64
 *       (p &le; 18) or FIXED_LEN_BYTE_ARRAY; without a usable precision: UTF8 text (exact)</td></tr>
 *   <tr><td>DATE</td><td>INT32 DATE</td></tr>
 *   <tr><td>TIME</td><td>INT64 TIME(MICROS, local)</td></tr>
 *   <tr><td>TIMESTAMP</td><td>INT64 TIMESTAMP(MICROS, isAdjustedToUTC=false)</td></tr>
 *   <tr><td>TIMESTAMP_WITH_TIMEZONE</td><td>INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true): the instant</td></tr>
 *   <tr><td>BINARY, VARBINARY, LONGVARBINARY, BLOB</td><td>BINARY</td></tr>
 *   <tr><td>type name uuid</td><td>FIXED_LEN_BYTE_ARRAY(16) UUID</td></tr>
 *   <tr><td>type name json/jsonb</td><td>BINARY JSON</td></tr>
 *   <tr><td>anything else (text, arrays, structs, intervals, ...)</td><td>BINARY UTF8 ({@link Values#text})</td></tr>
 * </table>
 */
final class ParquetColumn {
    enum Kind { BOOLEAN, INT32, INT64, FLOAT, DOUBLE, DECIMAL_INT32, DECIMAL_INT64, DECIMAL_FIXED, DATE, TIME,
        TIMESTAMP, TIMESTAMP_UTC, BINARY, UUID, STRING }

    private static final Pattern DECIMAL_N = Pattern.compile("decimal(32|64|128|256)\\s*\\(\\s*(\\d+)\\s*\\)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DECIMAL_PS = Pattern.compile(
            "(?:decimal|numeric|number|dec)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern UINT = Pattern.compile("\\buint(8|16|32|64|128|256)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern WIDE_BIT = Pattern.compile("^\\s*(varbit|bit\\s+varying|bit\\s*\\(\\s*([2-9]|\\d{2,})\\s*\\))",
            Pattern.CASE_INSENSITIVE);

    final String name;
    final int index;
    final Kind kind;
    final int precision;
    final int scale;
    final PrimitiveType type;
    private final int fixedBytes;

    private ParquetColumn(String name, int index, Kind kind, int precision, int scale, boolean json) {
        this.name = name;
        this.index = index;
        this.kind = kind;
        this.precision = precision;
        this.scale = scale;
        this.fixedBytes = kind == Kind.DECIMAL_FIXED ? bytesFor(precision) : kind == Kind.UUID ? 16 : 0;
        this.type = build(name, kind, precision, scale, fixedBytes, json);
    }

    /** The storage for a column, named {@code name} (already made distinct). */
    static ParquetColumn of(ColumnInfo column, String name, int index) {
        String typeName = column.typeName().toLowerCase(Locale.ROOT);
        boolean unsigned = typeName.contains("unsigned") || UINT.matcher(typeName).find();
        switch (column.type()) {
            case BOOLEAN:
                return new ParquetColumn(name, index, Kind.BOOLEAN, 0, 0, false);
            case BIT:
                return WIDE_BIT.matcher(typeName).find()
                        ? new ParquetColumn(name, index, Kind.STRING, 0, 0, false)
                        : new ParquetColumn(name, index, Kind.BOOLEAN, 0, 0, false);
            case TINYINT:
            case SMALLINT:
                return new ParquetColumn(name, index, Kind.INT32, 0, 0, false);
            case INTEGER:
                return new ParquetColumn(name, index, unsigned ? Kind.INT64 : Kind.INT32, 0, 0, false);
            case BIGINT:
                if (unsigned) {
                    Matcher u = UINT.matcher(typeName);
                    boolean wider = u.find() && Integer.parseInt(u.group(1)) > 64;
                    return wider
                            ? new ParquetColumn(name, index, Kind.STRING, 0, 0, false)
                            : decimal(name, index, 20, 0);
                }
                return new ParquetColumn(name, index, Kind.INT64, 0, 0, false);
            case REAL:
                return new ParquetColumn(name, index, Kind.FLOAT, 0, 0, false);
            case FLOAT:
            case DOUBLE:
                return new ParquetColumn(name, index, Kind.DOUBLE, 0, 0, false);
            case DECIMAL:
            case NUMERIC: {
                int p = -1;
                int s = 0;
                Matcher n = DECIMAL_N.matcher(typeName);
                Matcher ps = DECIMAL_PS.matcher(typeName);
                if (n.find()) {
                    p = switch (n.group(1)) {
                        case "32" -> 9;
                        case "64" -> 18;
                        case "128" -> 38;
                        default -> 76;
                    };
                    s = Integer.parseInt(n.group(2));
                } else if (ps.find()) {
                    p = Integer.parseInt(ps.group(1));
                    s = ps.group(2) == null ? 0 : Integer.parseInt(ps.group(2));
                }
                if (p >= 1 && p <= 38 && s >= 0 && s <= p) {
                    return decimal(name, index, p, s);
                }
                return new ParquetColumn(name, index, Kind.STRING, 0, 0, false);
            }
            case DATE:
                return new ParquetColumn(name, index, Kind.DATE, 0, 0, false);
            case TIME:
                return new ParquetColumn(name, index, Kind.TIME, 0, 0, false);
            case TIMESTAMP:
                return new ParquetColumn(name, index, Kind.TIMESTAMP, 0, 0, false);
            case TIMESTAMP_WITH_TIMEZONE:
                return new ParquetColumn(name, index, Kind.TIMESTAMP_UTC, 0, 0, false);
            case BINARY:
            case VARBINARY:
            case LONGVARBINARY:
            case BLOB:
                return new ParquetColumn(name, index, Kind.BINARY, 0, 0, false);
            default:
                if (typeName.equals("uuid")) {
                    return new ParquetColumn(name, index, Kind.UUID, 0, 0, false);
                }
                return new ParquetColumn(name, index, Kind.STRING, 0, 0,
                        typeName.equals("json") || typeName.equals("jsonb"));
        }
    }

    private static ParquetColumn decimal(String name, int index, int p, int s) {
        Kind kind = p <= 9 ? Kind.DECIMAL_INT32 : p <= 18 ? Kind.DECIMAL_INT64 : Kind.DECIMAL_FIXED;
        return new ParquetColumn(name, index, kind, p, s, false);
    }

    private static int bytesFor(int precision) {
        BigInteger max = BigInteger.TEN.pow(precision);
        int n = 1;
        while (max.bitLength() >= 8 * n) { // need 2^(8n-1) > 10^p
            n++;
        }
        return n;
    }

    private static PrimitiveType build(String name, Kind kind, int p, int s, int fixed, boolean json) {
        return switch (kind) {
            case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case INT32 -> Types.optional(PrimitiveTypeName.INT32).named(name);
            case INT64 -> Types.optional(PrimitiveTypeName.INT64).named(name);
            case FLOAT -> Types.optional(PrimitiveTypeName.FLOAT).named(name);
            case DOUBLE -> Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case DECIMAL_INT32 -> Types.optional(PrimitiveTypeName.INT32)
                    .as(LogicalTypeAnnotation.decimalType(s, p)).named(name);
            case DECIMAL_INT64 -> Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.decimalType(s, p)).named(name);
            case DECIMAL_FIXED -> Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(fixed)
                    .as(LogicalTypeAnnotation.decimalType(s, p)).named(name);
            case DATE -> Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(name);
            case TIME -> Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS)).named(name);
            case TIMESTAMP -> Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS)).named(name);
            case TIMESTAMP_UTC -> Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS)).named(name);
            case BINARY -> Types.optional(PrimitiveTypeName.BINARY).named(name);
            case UUID -> Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16)
                    .as(LogicalTypeAnnotation.uuidType()).named(name);
            case STRING -> Types.optional(PrimitiveTypeName.BINARY)
                    .as(json ? LogicalTypeAnnotation.jsonType() : LogicalTypeAnnotation.stringType()).named(name);
        };
    }

    /** Writes a non-null value (inside startField/endField). */
    void write(RecordConsumer rc, Object v) {
        switch (kind) {
            case BOOLEAN -> rc.addBoolean(toBoolean(v));
            case INT32 -> rc.addInteger(Math.toIntExact(toLong(v)));
            case INT64 -> rc.addLong(toLong(v));
            case FLOAT -> rc.addFloat(toNumber(v).floatValue());
            case DOUBLE -> rc.addDouble(toNumber(v).doubleValue());
            case DECIMAL_INT32 -> rc.addInteger(unscaled(v).intValueExact());
            case DECIMAL_INT64 -> rc.addLong(unscaled(v).longValueExact());
            case DECIMAL_FIXED -> rc.addBinary(Binary.fromConstantByteArray(fixed(unscaled(v))));
            case DATE -> rc.addInteger(Math.toIntExact(toDate(v).toEpochDay()));
            case TIME -> rc.addLong(toTime(v).toNanoOfDay() / 1000);
            case TIMESTAMP -> rc.addLong(micros(toLocalDateTime(v)));
            case TIMESTAMP_UTC -> rc.addLong(micros(toUtc(v)));
            case BINARY -> rc.addBinary(v instanceof byte[] b
                    ? Binary.fromConstantByteArray(b) : Binary.fromString(Values.text(v)));
            case UUID -> rc.addBinary(Binary.fromConstantByteArray(uuidBytes(v)));
            case STRING -> rc.addBinary(Binary.fromString(Values.text(v)));
        }
    }

    private IllegalArgumentException mismatch(Object v) {
        return new IllegalArgumentException("column " + name + ": a " + v.getClass().getSimpleName()
                + " value cannot be written to its Parquet " + kind + " column");
    }

    private boolean toBoolean(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (Values.isIntegral(v)) {
            return ((Number) v).longValue() != 0;
        }
        if (v instanceof byte[] b && b.length == 1) {
            return b[0] != 0;
        }
        throw mismatch(v);
    }

    private long toLong(Object v) {
        try {
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return ((Number) v).longValue();
            }
            if (v instanceof BigInteger b) {
                return b.longValueExact();
            }
            if (v instanceof BigDecimal d) {
                return d.longValueExact();
            }
            if (v instanceof Boolean b) {
                return b ? 1 : 0;
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("column " + name + ": " + v + " does not fit its Parquet " + kind
                    + " column", e);
        }
        throw mismatch(v);
    }

    private Number toNumber(Object v) {
        if (v instanceof Number n) {
            return n;
        }
        throw mismatch(v);
    }

    private BigInteger unscaled(Object v) {
        BigDecimal d;
        if (v instanceof BigDecimal b) {
            d = b;
        } else if (v instanceof BigInteger b) {
            d = new BigDecimal(b);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            d = BigDecimal.valueOf(((Number) v).longValue());
        } else if (v instanceof String s) {
            try {
                d = new BigDecimal(s.strip());
            } catch (NumberFormatException e) {
                throw mismatch(v);
            }
        } else {
            throw mismatch(v);
        }
        try {
            BigDecimal scaled = d.setScale(scale, RoundingMode.UNNECESSARY);
            if (scaled.precision() > precision && scaled.signum() != 0) {
                throw new ArithmeticException("precision");
            }
            return scaled.unscaledValue();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("column " + name + ": " + d.toPlainString()
                    + " does not fit DECIMAL(" + precision + "," + scale + ")", e);
        }
    }

    private byte[] fixed(BigInteger unscaled) {
        byte[] raw = unscaled.toByteArray();
        if (raw.length == fixedBytes) {
            return raw;
        }
        byte[] out = new byte[fixedBytes];
        byte pad = (byte) (unscaled.signum() < 0 ? 0xFF : 0);
        int offset = fixedBytes - raw.length;
        for (int i = 0; i < offset; i++) {
            out[i] = pad;
        }
        System.arraycopy(raw, 0, out, offset, raw.length);
        return out;
    }

    private LocalDate toDate(Object v) {
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate();
        }
        throw mismatch(v);
    }

    private LocalTime toTime(Object v) {
        if (v instanceof LocalTime t) {
            return t;
        }
        throw mismatch(v);
    }

    private LocalDateTime toLocalDateTime(Object v) {
        if (v instanceof LocalDateTime t) {
            return t;
        }
        if (v instanceof OffsetDateTime t) {
            return t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        throw mismatch(v);
    }

    private LocalDateTime toUtc(Object v) {
        if (v instanceof OffsetDateTime t) {
            return t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        if (v instanceof LocalDateTime t) {
            return t; // a zone-less value in a zoned column: taken as UTC
        }
        throw mismatch(v);
    }

    private static long micros(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000L), t.getNano() / 1000);
    }

    private byte[] uuidBytes(Object v) {
        UUID u;
        if (v instanceof UUID x) {
            u = x;
        } else if (v instanceof String s) {
            try {
                u = UUID.fromString(s);
            } catch (IllegalArgumentException e) {
                throw mismatch(v);
            }
        } else if (v instanceof byte[] b && b.length == 16) {
            return b;
        } else {
            throw mismatch(v);
        }
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                .array();
    }

    @Override
    public String toString() {
        return name + " " + type;
    }
}
