package io.queryapigate.output.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The value rules every format shares, for the value kinds a dialect hands to a {@link
 * io.queryapigate.dialect.spi.RowSink}.
 *
 * As the Python original renders them, exactly where it is exact:
 * <ul>
 *   <li>integers (including {@link BigInteger}) are written exactly; decimals in plain notation without trailing
 *       zeros, and with {@code .0} when whole ({@code 1.10} is {@code 1.1}, {@code 100.00} is {@code 100.0}), every
 *       digit kept (the original rounded them through a double);
 *   <li>NaN and the infinities become the strings {@code NaN}, {@code Infinity}, {@code -Infinity};
 *   <li>{@link LocalDate} is {@code 2024-01-31}, {@link LocalTime} {@code 12:00:00}, {@link LocalDateTime} {@code
 *       2024-01-31 12:00:00} (fractional seconds only when not zero: the original dropped them), {@link
 *       OffsetDateTime} the same in the gateway's time zone ({@code /health} tells which), without an offset;
 *   <li>booleans are {@code True}/{@code False} where a format has no boolean type (CSV, TSV, XML);
 *   <li>{@code byte[]} is standard base64 with padding; {@link UUID} its canonical text;
 *   <li>lists and maps nest where the format can nest, and are compact JSON text elsewhere.
 * </ul>
 *
 * These are the service's JSON value rules; {@link #writeJson} is their
 * value writer.
 */
public final class Values {
    /**
     * JSON settings shared by the JSON-based writers: decimals in plain notation, the caller's stream left open. The
     * generators' buffers come from a pool shared by all threads: Jackson's default pool is per thread, and every
     * call runs on a new virtual thread, so it allocated 16 KiB of fresh buffers per call.
     */
    static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
            .build();

    /** The zone a timestamp with a zone is shown in: the gateway's, as {@code /health} reports it. */
    public static final ZoneId ZONE = ZoneId.systemDefault();

    private Values() {}

    /**
     * Writes one value as JSON, nesting lists and maps.
     *
     * @param json the generator
     * @param v the value, of a {@link io.queryapigate.dialect.spi.RowSink} kind (anything else is written as its
     *     {@code toString()})
     * @throws IOException from the generator
     */
    public static void writeJson(JsonGenerator json, Object v) throws IOException {
        if (v == null) {
            json.writeNull();
        } else if (v instanceof String s) {
            json.writeString(s);
        } else if (v instanceof Long l) {
            json.writeNumber(l);
        } else if (v instanceof Integer n) {
            json.writeNumber(n);
        } else if (v instanceof BigDecimal d) {
            json.writeNumber(decimal(d));
        } else if (v instanceof Double d) {
            if (Double.isFinite(d)) {
                json.writeNumber(d);
            } else {
                json.writeString(d.toString());
            }
        } else if (v instanceof Float f) {
            if (Float.isFinite(f)) {
                json.writeNumber(f);
            } else {
                json.writeString(f.toString());
            }
        } else if (v instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (v instanceof Short s) {
            json.writeNumber(s);
        } else if (v instanceof Byte b) {
            json.writeNumber(b);
        } else if (v instanceof BigInteger b) {
            json.writeNumber(b);
        } else if (v instanceof List<?> list) {
            json.writeStartArray();
            for (Object o : list) {
                writeJson(json, o);
            }
            json.writeEndArray();
        } else if (v instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                json.writeFieldName(String.valueOf(e.getKey()));
                writeJson(json, e.getValue());
            }
            json.writeEndObject();
        } else {
            json.writeString(text(v));
        }
    }

    /**
     * The text form of a value for formats without types (CSV, TSV, XML text, spreadsheet text cells).
     *
     * @param v the value; not null
     * @return its text: numbers exact, temporal values ISO-8601, binary base64, lists and maps as compact JSON
     */
    public static String text(Object v) {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof BigDecimal d) {
            return decimal(d);
        } else if (v instanceof LocalDateTime t) {
            return dateTime(t);
        } else if (v instanceof OffsetDateTime t) {
            return dateTime(t.atZoneSameInstant(ZONE).toLocalDateTime());
        } else if (v instanceof LocalTime t) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format(t);
        } else if (v instanceof Boolean b) {
            return b ? "True" : "False";
        } else if (v instanceof byte[] b) {
            return Base64.getEncoder().encodeToString(b);
        } else if (v instanceof List<?> || v instanceof Map<?, ?>) {
            return jsonText(v);
        } else {
            // Long, Integer, Short, Byte, BigInteger, Double, Float (NaN/Infinity included), LocalDate, UUID: their
            // toString() is already the exact, ISO or canonical form
            return v.toString();
        }
    }

    /** A decimal without trailing zeros, {@code .0} when whole, never in exponent notation. */
    static String decimal(BigDecimal d) {
        BigDecimal stripped = d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        return stripped.scale() <= 0 ? stripped.toPlainString() + ".0" : stripped.toPlainString();
    }

    /** {@code 2024-01-31 12:00:00}, with {@code .f} digits only when the fraction is not zero. */
    static String dateTime(LocalDateTime t) {
        return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t).replace('T', ' ');
    }

    /**
     * A value as compact JSON text (used for lists and maps in formats that cannot nest).
     *
     * @param v any value kind
     * @return the JSON text
     */
    public static String jsonText(Object v) {
        StringWriter w = new StringWriter(64);
        try (JsonGenerator g = JSON.createGenerator(w)) {
            writeJson(g, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** Whether a value is one of the integer kinds. */
    static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                || v instanceof BigInteger;
    }

    /**
     * Removes the characters XML 1.0 cannot carry: C0 controls other than tab, LF and CR, U+FFFE, U+FFFF and
     * unpaired surrogates. Returns the same instance when there is nothing to remove.
     */
    static String xmlSafe(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && isXmlChar(s, i)) {
            i += Character.isHighSurrogate(s.charAt(i)) ? 2 : 1;
        }
        if (i >= n) {
            return s;
        }
        StringBuilder b = new StringBuilder(n);
        b.append(s, 0, i);
        while (i < n) {
            char c = s.charAt(i);
            if (isXmlChar(s, i)) {
                if (Character.isHighSurrogate(c)) {
                    b.append(c).append(s.charAt(i + 1));
                    i += 2;
                    continue;
                }
                b.append(c);
            }
            i++;
        }
        return b.toString();
    }

    private static boolean isXmlChar(String s, int i) {
        char c = s.charAt(i);
        if (c >= 0x20 && c < 0xD800) {
            return true;
        }
        if (c == '\t' || c == '\n' || c == '\r') {
            return true;
        }
        if (c < 0x20) {
            return false;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return false; // unpaired (a paired one is consumed with its high surrogate)
        }
        return c != 0xFFFE && c != 0xFFFF;
    }
}
