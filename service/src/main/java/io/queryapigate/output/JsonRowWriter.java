package io.queryapigate.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders rows as a JSON array of objects straight from the dialect's values, without building row objects.
 * 64-bit integers and decimals stay exact, temporal values are ISO-8601 (with an offset only when the database
 * has one), binary is base64, arrays and structs nest, NaN and infinities become strings. Duplicate column names
 * get {@code _2}, {@code _3} suffixes so no value is lost.
 */
public final class JsonRowWriter implements RowSink {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private final ByteArrayBuilder buffer;
    private final JsonGenerator json;
    private SerializableString[] names;
    private long rows;

    public JsonRowWriter() {
        this.buffer = new ByteArrayBuilder(4096);
        try {
            this.json = FACTORY.createGenerator(buffer);
            json.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        names = new SerializableString[columns.size()];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.length; i++) {
            String base = columns.get(i).name();
            String name = base;
            for (int k = 2; !seen.add(name); k++) {
                name = base + "_" + k;
            }
            names[i] = new SerializedString(name);
        }
    }

    @Override
    public boolean row(Object[] values) {
        try {
            json.writeStartObject();
            for (int i = 0; i < names.length; i++) {
                json.writeFieldName(names[i]);
                writeValue(json, values[i]);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows++;
        return true;
    }

    public long rows() {
        return rows;
    }

    /** True when the statement produced a result set (a write without RETURNING produces none). */
    public boolean hasColumns() {
        return names != null && names.length > 0;
    }

    /** Closes the array and returns the document. */
    public byte[] finish() {
        try {
            json.writeEndArray();
            json.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    static void writeValue(JsonGenerator json, Object v) throws IOException {
        if (v == null) {
            json.writeNull();
        } else if (v instanceof String s) {
            json.writeString(s);
        } else if (v instanceof Long l) {
            json.writeNumber(l);
        } else if (v instanceof Integer n) {
            json.writeNumber(n);
        } else if (v instanceof BigDecimal d) {
            json.writeNumber(d);
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
        } else if (v instanceof LocalDate d) {
            json.writeString(d.toString());
        } else if (v instanceof LocalDateTime t) {
            json.writeString(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
        } else if (v instanceof OffsetDateTime t) {
            json.writeString(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t));
        } else if (v instanceof LocalTime t) {
            json.writeString(t.toString());
        } else if (v instanceof byte[] b) {
            json.writeString(Base64.getEncoder().encodeToString(b));
        } else if (v instanceof List<?> list) {
            json.writeStartArray();
            for (Object o : list) {
                writeValue(json, o);
            }
            json.writeEndArray();
        } else if (v instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                json.writeFieldName(String.valueOf(e.getKey()));
                writeValue(json, e.getValue());
            }
            json.writeEndObject();
        } else {
            json.writeString(v.toString());
        }
    }
}
