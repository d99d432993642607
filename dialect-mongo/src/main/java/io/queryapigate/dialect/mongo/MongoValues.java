package io.queryapigate.dialect.mongo;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.bson.types.Binary;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

/**
 * Conversions between the driver's values and the SPI's: a bound parameter to the value put in the query document,
 * and a document's value to what a {@link io.queryapigate.dialect.spi.RowSink} takes.
 */
final class MongoValues {
    private MongoValues() {}

    /**
     * A parameter's value as a query document value: scalars, dates and lists of scalars. A map is refused, as in the
     * original: {@code {"name": ":u"}} given {@code {"$ne": null}} would match every document.
     *
     * @throws IllegalArgumentException for a map, or a list holding a map or a list
     */
    static Object toBson(String name, Object value) {
        if (value instanceof Map<?, ?>) {
            throw new IllegalArgumentException("'" + name + "' must be a value or a list of values, not a document -"
                    + " it would be read as query operators");
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
                if (item instanceof Map<?, ?> || item instanceof List<?>) {
                    throw new IllegalArgumentException("'" + name + "' must be a value or a list of values, not a"
                            + " document - it would be read as query operators");
                }
                out.add(toBson(name, item));
            }
            return out;
        }
        return switch (value) {
            case null -> null;
            case BigDecimal d -> new Decimal128(d);
            case BigInteger i -> i.bitLength() < 64 ? (Object) i.longValue() : new Decimal128(new BigDecimal(i));
            case LocalDate d -> Date.from(d.atStartOfDay().toInstant(ZoneOffset.UTC));
            case LocalDateTime t -> Date.from(t.toInstant(ZoneOffset.UTC));
            case OffsetDateTime t -> Date.from(t.toInstant());
            case java.time.Instant t -> Date.from(t);
            case byte[] b -> new Binary(b);
            case String s -> s;
            case Number n -> n;
            case Boolean b -> b;
            case UUID u -> u;
            default -> value.toString();
        };
    }

    /** A document's value as a row value of the SPI's kinds. */
    static Object toRow(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Integer i -> i;
            case Long l -> l;
            case Double d -> d;
            case Boolean b -> b;
            case ObjectId id -> id.toHexString();
            case Date d -> OffsetDateTime.ofInstant(d.toInstant(), ZoneOffset.UTC);
            case Decimal128 d -> d.isNaN() || d.isInfinite() ? d.toString() : d.bigDecimalValue();
            case Binary b -> b.getData();
            case UUID u -> u;
            case BsonTimestamp t -> t.getValue();
            case Document d -> {
                Map<String, Object> out = new LinkedHashMap<>();
                d.forEach((k, v) -> out.put(k, toRow(v)));
                yield out;
            }
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put(String.valueOf(k), toRow(v)));
                yield out;
            }
            case List<?> list -> list.stream().map(MongoValues::toRow).toList();
            default -> value.toString();
        };
    }

    /** The column a name's values make: the BSON type they share, or {@code mixed}. */
    static ColumnInfo column(String name, List<Object> values) {
        String type = null;
        for (Object v : values) {
            if (v == null) {
                continue;
            }
            String t = typeName(v);
            if (type == null) {
                type = t;
            } else if (!type.equals(t)) {
                type = "mixed";
                break;
            }
        }
        type = type == null ? "null" : type;
        return new ColumnInfo(name, type, switch (type) {
            case "int" -> JDBCType.INTEGER;
            case "long" -> JDBCType.BIGINT;
            case "double" -> JDBCType.DOUBLE;
            case "decimal" -> JDBCType.DECIMAL;
            case "string", "objectId" -> JDBCType.VARCHAR;
            case "bool" -> JDBCType.BOOLEAN;
            case "date" -> JDBCType.TIMESTAMP_WITH_TIMEZONE;
            case "binData" -> JDBCType.VARBINARY;
            case "array" -> JDBCType.ARRAY;
            case "object" -> JDBCType.STRUCT;
            default -> JDBCType.OTHER;
        });
    }

    private static String typeName(Object v) {
        return switch (v) {
            case Integer i -> "int";
            case Long l -> "long";
            case Double d -> "double";
            case Decimal128 d -> "decimal";
            case String s -> "string";
            case ObjectId id -> "objectId";
            case Boolean b -> "bool";
            case Date d -> "date";
            case Binary b -> "binData";
            case UUID u -> "uuid";
            case List<?> l -> "array";
            case Map<?, ?> m -> "object";
            default -> v.getClass().getSimpleName();
        };
    }
}
