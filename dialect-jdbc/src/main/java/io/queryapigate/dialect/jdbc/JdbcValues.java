package io.queryapigate.dialect.jdbc;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.JDBCType;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Struct;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Turns what JDBC drivers return into the value kinds {@link io.queryapigate.dialect.spi.RowSink} accepts.
 *
 * <p>Kept as it is: {@code null}, {@link String}, {@link Boolean}, {@link Long}, {@link Integer}, {@link Short},
 * {@link Byte}, {@link BigDecimal}, {@link Double}, {@link Float}, {@link LocalDate}, {@link LocalTime}, {@link
 * LocalDateTime}, {@link OffsetDateTime}, {@link UUID}, {@code byte[]}. Converted: {@link BigInteger} to {@link Long}
 * when it fits (else kept), {@code java.sql.Date/Time/Timestamp} to their {@code java.time} types, {@link Instant}
 * and {@link ZonedDateTime} to {@link OffsetDateTime}, {@link Blob} to {@code byte[]}, {@link Clob} and {@link
 * SQLXML} to {@link String}, {@link java.sql.Array}, Java arrays and collections to {@link List}, {@link Struct} to
 * a {@link Map} keyed {@code f1, f2, ...} (the JDBC interface carries no field names), maps to a {@link Map} with
 * {@link String} keys; nested values are converted the same way. Anything else becomes its {@code toString()}.
 */
public final class JdbcValues {
    private JdbcValues() {}

    /**
     * Converts one driver value.
     *
     * @param value what {@code ResultSet.getObject} returned, or null
     * @return the value as a RowSink kind
     * @throws SQLException when reading a LOB or array from the driver fails
     */
    public static Object normalize(Object value) throws SQLException {
        return normalize(value, JdbcValues::normalize);
    }

    /**
     * Converts one driver value, handing nested elements (of arrays, structs, maps) to {@code nested}, so that a
     * dialect that recognises more driver types applies its own conversion at every depth.
     *
     * @param value the driver value, or null
     * @param nested the conversion applied to nested elements
     * @return the value as a RowSink kind
     * @throws SQLException when reading a LOB or array from the driver fails
     */
    public static Object normalize(Object value, Normalizer nested) throws SQLException {
        if (value == null
                || value instanceof String
                || value instanceof Boolean
                || value instanceof Long
                || value instanceof Integer
                || value instanceof Short
                || value instanceof Byte
                || value instanceof BigDecimal
                || value instanceof Double
                || value instanceof Float
                || value instanceof LocalDate
                || value instanceof LocalTime
                || value instanceof LocalDateTime
                || value instanceof OffsetDateTime
                || value instanceof UUID
                || value instanceof byte[]) {
            return value;
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < Long.SIZE ? (Object) big.longValueExact() : big;
        }
        if (value instanceof java.sql.Timestamp ts) {
            return ts.toLocalDateTime();
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        if (value instanceof java.sql.Time time) {
            return time.toLocalTime();
        }
        if (value instanceof Instant instant) {
            return instant.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof ZonedDateTime zoned) {
            return zoned.toOffsetDateTime();
        }
        if (value instanceof OffsetTime offsetTime) {
            return offsetTime.toString();
        }
        if (value instanceof Character c) {
            return c.toString();
        }
        if (value instanceof Blob blob) {
            try {
                return blob.getBytes(1, Math.toIntExact(blob.length()));
            } finally {
                freeQuietly(blob);
            }
        }
        if (value instanceof Clob clob) {
            try {
                return readAll(clob.getCharacterStream());
            } finally {
                freeQuietly(clob);
            }
        }
        if (value instanceof SQLXML xml) {
            try {
                return xml.getString();
            } finally {
                xml.free();
            }
        }
        if (value instanceof java.sql.Array array) {
            try {
                return toList(array.getArray(), nested);
            } finally {
                freeQuietly(array);
            }
        }
        if (value.getClass().isArray()) {
            return toList(value, nested);
        }
        if (value instanceof Collection<?> collection) {
            List<Object> list = new ArrayList<>(collection.size());
            for (Object element : collection) {
                list.add(nested.normalize(element));
            }
            return list;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> result = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object key = nested.normalize(entry.getKey());
                result.put(String.valueOf(key), nested.normalize(entry.getValue()));
            }
            return result;
        }
        if (value instanceof Struct struct) {
            Object[] attributes = struct.getAttributes();
            Map<String, Object> result = new LinkedHashMap<>();
            for (int i = 0; i < attributes.length; i++) {
                result.put("f" + (i + 1), nested.normalize(attributes[i]));
            }
            return result;
        }
        return value.toString();
    }

    /**
     * The {@link JDBCType} for a {@code java.sql.Types} code, or {@link JDBCType#OTHER} for vendor codes.
     *
     * @param typeCode the code from {@code ResultSetMetaData.getColumnType}
     * @return the JDBC type
     */
    public static JDBCType jdbcType(int typeCode) {
        for (JDBCType t : JDBC_TYPES) {
            if (t.getVendorTypeNumber() == typeCode) {
                return t;
            }
        }
        return JDBCType.OTHER;
    }

    /** JDBCType.valueOf(int) copies this array on every call; it runs per column of every result. */
    private static final JDBCType[] JDBC_TYPES = JDBCType.values();

    private static List<Object> toList(Object javaArray, Normalizer nested) throws SQLException {
        if (javaArray instanceof byte[] bytes) {
            // an array of bytes inside an SQL array is a list of numbers, not a binary value
            List<Object> list = new ArrayList<>(bytes.length);
            for (byte b : bytes) {
                list.add(b);
            }
            return list;
        }
        int length = Array.getLength(javaArray);
        List<Object> list = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            list.add(nested.normalize(Array.get(javaArray, i)));
        }
        return list;
    }

    private static String readAll(Reader reader) throws SQLException {
        try (reader) {
            StringBuilder text = new StringBuilder();
            char[] buffer = new char[8192];
            for (int n; (n = reader.read(buffer)) >= 0; ) {
                text.append(buffer, 0, n);
            }
            return text.toString();
        } catch (IOException e) {
            throw new SQLException("could not read a character LOB", e);
        }
    }

    private static void freeQuietly(Blob blob) {
        try {
            blob.free();
        } catch (SQLException | UnsupportedOperationException ignored) {
            // some drivers do not implement free(); the LOB is released with its result set
        }
    }

    private static void freeQuietly(Clob clob) {
        try {
            clob.free();
        } catch (SQLException | UnsupportedOperationException ignored) {
            // as above
        }
    }

    private static void freeQuietly(java.sql.Array array) {
        try {
            array.free();
        } catch (SQLException | UnsupportedOperationException ignored) {
            // as above
        }
    }

    /** A value conversion that may read from the driver. */
    @FunctionalInterface
    public interface Normalizer {
        /**
         * Converts one value.
         *
         * @param value the driver value, or null
         * @return the converted value
         * @throws SQLException when reading from the driver fails
         */
        Object normalize(Object value) throws SQLException;
    }
}
