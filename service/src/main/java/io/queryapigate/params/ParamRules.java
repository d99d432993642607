package io.queryapigate.params;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A saved query's parameter rules: parsed and checked when the query is saved, applied to every call. All problems
 * are collected and reported together, keyed by parameter name.
 */
public final class ParamRules {
    private static final Set<String> RULE_KEYS = Set.of("type", "required", "default", "enum", "min", "max",
            "min_length", "max_length", "pattern", "description", "from_claim");
    private static final int MAX_CLAIM_NAME = 200;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final int MAX_PATTERN = 500;
    private static final int MAX_TEXT = 65_536;
    private static final String REQUIRED = "is required";
    private static final Pattern DECIMAL_TEXT = Pattern.compile("[+-]?(\\d{1,400}(\\.\\d{0,400})?|\\.\\d{1,400})([eE][+-]?\\d{1,4})?");

    private final Map<String, ParamSpec> specs;

    private ParamRules(Map<String, ParamSpec> specs) {
        this.specs = Collections.unmodifiableMap(specs);
    }

    public static ParamRules none() {
        return new ParamRules(new LinkedHashMap<>());
    }

    /** The rules of one parameter alone: what {@link ParamExamples} checks an example against. */
    static ParamRules of(ParamSpec spec) {
        Map<String, ParamSpec> one = new LinkedHashMap<>();
        one.put(spec.name(), spec);
        return new ParamRules(one);
    }

    public Map<String, ParamSpec> specs() {
        return specs;
    }

    /** The parameters a caller supplies: every one but those filled from the caller's claims ({@code from_claim}). */
    public List<ParamSpec> inputs() {
        List<ParamSpec> inputs = new ArrayList<>(specs.size());
        for (ParamSpec spec : specs.values()) {
            if (!spec.bindsClaim()) {
                inputs.add(spec);
            }
        }
        return inputs;
    }

    /**
     * Parses declared rules: {@code {"id": "int"}} or {@code {"id": {"type": "int", "min": 1}}}.
     *
     * @throws ApiException 400 {@code invalid_parameters} naming every bad declaration
     */
    public static ParamRules parse(JsonNode declared) {
        Map<String, ParamSpec> specs = new LinkedHashMap<>();
        if (declared == null || declared.isNull()) {
            return new ParamRules(specs);
        }
        if (!declared.isObject()) {
            throw ApiException.badRequest("invalid_parameters", "parameters must be an object of name -> rules.");
        }
        Map<String, String> errors = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = declared.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (!NAME.matcher(name).matches()) {
                errors.put(name, "is not a valid parameter name (letters, digits, _; not starting with a digit)");
                continue;
            }
            try {
                specs.put(name, parseOne(name, e.getValue()));
            } catch (IllegalArgumentException ex) {
                errors.put(name, ex.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiException(400, "invalid_parameters", "Invalid parameter rules: " + summary(errors), errors);
        }
        return new ParamRules(specs);
    }

    private static ParamSpec parseOne(String name, JsonNode node) {
        if (node.isTextual()) {
            ParamType type = ParamType.fromName(node.asText());
            if (type == null) {
                throw new IllegalArgumentException("unknown type '" + node.asText() + "' (use int, float, decimal,"
                        + " str, bool, date or timestamp)");
            }
            return new ParamSpec(name, type, true, null, false, null, null, null, null, null, null, null);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("must be a type name or an object of rules");
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!RULE_KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown rule '" + key + "'");
            }
        }
        JsonNode typeNode = node.get("type");
        ParamType type = typeNode == null ? ParamType.STR : ParamType.fromName(typeNode.asText(""));
        if (type == null || (typeNode != null && !typeNode.isTextual())) {
            throw new IllegalArgumentException("unknown type " + typeNode + " (use int, float, decimal, str, bool,"
                    + " date or timestamp)");
        }
        BigDecimal min = number(node, "min", type);
        BigDecimal max = number(node, "max", type);
        if (min != null && max != null && min.compareTo(max) > 0) {
            throw new IllegalArgumentException("min is greater than max");
        }
        Integer minLength = length(node, "min_length", type);
        Integer maxLength = length(node, "max_length", type);
        if (minLength != null && maxLength != null && minLength > maxLength) {
            throw new IllegalArgumentException("min_length is greater than max_length");
        }
        Pattern pattern = null;
        JsonNode p = node.get("pattern");
        if (p != null && !p.isNull()) {
            if (type != ParamType.STR || !p.isTextual()) {
                throw new IllegalArgumentException("pattern applies to str parameters and must be text");
            }
            if (p.asText().length() > MAX_PATTERN) {
                throw new IllegalArgumentException("pattern is longer than " + MAX_PATTERN + " characters");
            }
            try {
                pattern = Pattern.compile(p.asText());
            } catch (PatternSyntaxException ex) {
                throw new IllegalArgumentException("pattern is not a valid regular expression: " + ex.getDescription());
            }
        }
        String description = null;
        JsonNode d = node.get("description");
        if (d != null && !d.isNull()) {
            if (!d.isTextual()) {
                throw new IllegalArgumentException("description must be text");
            }
            description = d.asText();
        }
        ParamSpec bare = new ParamSpec(name, type, true, null, false, null, min, max, minLength, maxLength, pattern,
                description);
        List<Object> allowed = null;
        JsonNode en = node.get("enum");
        if (en != null && !en.isNull()) {
            if (!en.isArray() || en.isEmpty()) {
                throw new IllegalArgumentException("enum must be a non-empty list");
            }
            allowed = new ArrayList<>();
            for (JsonNode v : en) {
                String problem = checkOne(bare, v, false);
                if (problem != null) {
                    throw new IllegalArgumentException("enum value " + v + " " + problem);
                }
                allowed.add(coerceJson(type, v));
            }
            allowed = List.copyOf(allowed);
        }
        JsonNode req = node.get("required");
        if (req != null && !req.isNull() && !req.isBoolean()) {
            throw new IllegalArgumentException("required must be true or false");
        }
        JsonNode def = node.get("default");
        boolean hasDefault = def != null;
        Object defaultValue = null;
        if (hasDefault) {
            if (req != null && req.asBoolean(false)) {
                throw new IllegalArgumentException("a parameter with a default cannot be required");
            }
            if (!def.isNull()) {
                ParamSpec withEnum = new ParamSpec(name, type, true, null, false, allowed, min, max, minLength,
                        maxLength, pattern, description);
                String problem = checkOne(withEnum, def, false);
                if (problem != null) {
                    throw new IllegalArgumentException("default " + problem);
                }
                defaultValue = coerceJson(type, def);
            }
        }
        String fromClaim = fromClaim(node, hasDefault, req);
        boolean required = hasDefault ? false : (req == null || req.isNull() || req.asBoolean());
        return new ParamSpec(name, type, required, defaultValue, hasDefault, allowed, min, max, minLength, maxLength,
                pattern, description, fromClaim);
    }

    // the value comes from the caller's claims, never the request: always required, and a default would give a caller
    // without that claim a value anyway
    private static String fromClaim(JsonNode node, boolean hasDefault, JsonNode req) {
        JsonNode claim = node.get("from_claim");
        if (claim == null || claim.isNull()) {
            return null;
        }
        if (!claim.isTextual() || claim.textValue().isBlank() || claim.textValue().length() > MAX_CLAIM_NAME) {
            throw new IllegalArgumentException("from_claim must be a token claim name, e.g. \"sub\" (at most "
                    + MAX_CLAIM_NAME + " characters)");
        }
        if (hasDefault || (req != null && req.isBoolean() && !req.booleanValue())) {
            throw new IllegalArgumentException("a from_claim parameter is always required and cannot have a default");
        }
        return claim.textValue().strip();
    }

    private static BigDecimal number(JsonNode node, String key, ParamType type) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (type != ParamType.INT && type != ParamType.FLOAT && type != ParamType.DECIMAL) {
            throw new IllegalArgumentException(key + " applies to int, float and decimal parameters");
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException(key + " must be a number");
        }
        return v.decimalValue();
    }

    private static Integer length(JsonNode node, String key, ParamType type) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (type != ParamType.STR) {
            throw new IllegalArgumentException(key + " applies to str parameters");
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 0) {
            throw new IllegalArgumentException(key + " must be a non-negative integer");
        }
        return v.asInt();
    }

    /**
     * Checks that the declared parameters and the SQL's markers are the same set.
     *
     * @throws ApiException 400 {@code invalid_parameters} naming each mismatch
     */
    public void checkAgainst(Set<String> markers) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (String m : markers) {
            if (!specs.containsKey(m)) {
                errors.put(m, "is used in the SQL (:" + m + ") but not declared in parameters");
            }
        }
        for (String declared : specs.keySet()) {
            if (!markers.contains(declared)) {
                errors.put(declared, "is declared but the SQL does not use :" + declared);
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiException(400, "invalid_parameters", "Invalid parameters: " + summary(errors), errors);
        }
    }

    /**
     * Resolves a call's values: text values (query string, and JSON text for a parameter that is not {@code str})
     * are coerced by type, other JSON values must already match. Values for names the query does not declare are
     * ignored, as the Python original ignores them (cache busters such as {@code _=123}).
     *
     * @param text values from the query string; may be empty
     * @param json values from the JSON body ({@code params}); may be null; wins over text
     * @return the coerced value per declared name (absent optional parameters bind their default or NULL)
     * @throws ApiException 400 {@code param_required} or {@code param_invalid} with every problem in {@code errors}
     */
    public Map<String, Object> resolve(Map<String, String> text, JsonNode json) {
        return resolve(text, json, null);
    }

    /**
     * Resolves a call's values as {@link #resolve(Map, JsonNode)} does, with each {@code from_claim} parameter
     * taken from {@code claims}: the request may not send one (400 {@code param_from_claim}), a caller with no
     * claims at all is told to sign in (403 {@code sign_in_required}) and one without that claim is refused (403
     * {@code claim_missing}). The value is read as the declared type and checked by its rules.
     *
     * @param claims the caller's claims (a verified token's, or an API key's fixed ones); null when the caller may
     *               supply these values itself (an administrator without claims, for testing a query)
     */
    public Map<String, Object> resolve(Map<String, String> text, JsonNode json, Map<String, ?> claims) {
        Map<String, String> errors = null;
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Object> fromClaims = claims == null ? null : claimValues(text, json, claims);
        for (ParamSpec spec : specs.values()) {
            JsonNode jv = json == null ? null : json.get(spec.name());
            String tv = text.get(spec.name());
            if (fromClaims != null && spec.bindsClaim()) {
                Object claimed = fromClaims.get(spec.name());
                tv = claimed instanceof String t ? t : null;
                jv = claimed instanceof JsonNode n ? n : null;
            }
            String problem = null;
            if (jv != null && jv.isTextual() && spec.type() != ParamType.STR) {
                tv = jv.textValue(); // "2" for an int: read as the query string would be
                jv = null;
            }
            if (jv != null) {
                if (jv.isNull()) {
                    if (spec.required()) {
                        problem = "must not be null";
                    } else {
                        values.put(spec.name(), null);
                    }
                } else if ((problem = checkOne(spec, jv, true)) == null) {
                    values.put(spec.name(), coerceJson(spec.type(), jv));
                }
            } else if (tv != null) {
                try {
                    Object v = coerceText(spec.type(), tv);
                    if ((problem = checkValue(spec, v)) == null) {
                        values.put(spec.name(), v);
                    }
                } catch (IllegalArgumentException ex) {
                    problem = ex.getMessage();
                }
            } else if (spec.required()) {
                problem = REQUIRED;
            } else {
                values.put(spec.name(), spec.defaultValue());
            }
            if (problem != null) {
                if (errors == null) {
                    errors = new LinkedHashMap<>();
                }
                errors.put(spec.name(), problem);
            }
        }
        if (errors != null) {
            throw invalidValues(errors);
        }
        return values;
    }

    /**
     * The {@code from_claim} values, as text or JSON to be read like a request's (by name); empty without such
     * parameters.
     */
    private Map<String, Object> claimValues(Map<String, String> text, JsonNode json, Map<String, ?> claims) {
        Map<String, Object> bound = null;
        Map<String, String> sent = null;
        for (ParamSpec spec : specs.values()) {
            if (!spec.bindsClaim()) {
                continue;
            }
            if (bound == null) {
                bound = new LinkedHashMap<>();
            }
            if (text.containsKey(spec.name()) || (json != null && json.has(spec.name()))) {
                if (sent == null) {
                    sent = new LinkedHashMap<>();
                }
                sent.put(spec.name(), "comes from the caller's sign-in token (or the key's claims) and cannot be set"
                        + " by the request");
            }
        }
        if (bound == null) {
            return Map.of();
        }
        if (claims.isEmpty()) {
            throw new ApiException(403, "sign_in_required", "This query takes " + String.join(", ", bound.keySet())
                    + " from a signed-in user's token: call it with Authorization: Bearer <token>, or with a key"
                    + " that carries these claims");
        }
        if (sent != null) {
            throw new ApiException(400, "param_from_claim", "Invalid parameters: " + summary(sent), sent);
        }
        for (ParamSpec spec : specs.values()) {
            if (!spec.bindsClaim()) {
                continue;
            }
            Object value = Claims.lookup(claims, spec.fromClaim());
            Object usable = switch (value) {
                case String t -> t;
                case Boolean b -> spec.type() == ParamType.BOOL ? JsonNodeFactory.instance.booleanNode(b)
                        : b.toString();
                case Number n -> spec.type() == ParamType.STR || spec.type() == ParamType.DATE
                        || spec.type() == ParamType.TIMESTAMP ? n.toString()
                        : new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
                case null, default -> null;
            };
            if (usable == null) {
                throw new ApiException(403, "claim_missing", "The caller's sign-in token has no usable '"
                        + spec.fromClaim() + "' claim");
            }
            bound.put(spec.name(), usable);
        }
        return bound;
    }

    /**
     * 400 {@code param_required} when every problem is a missing value, else {@code param_invalid} (the Python
     * original's codes), with {@code errors} naming each parameter.
     */
    private static ApiException invalidValues(Map<String, String> errors) {
        boolean missingOnly = errors.values().stream().allMatch(REQUIRED::equals);
        return new ApiException(400, missingOnly ? "param_required" : "param_invalid",
                "Invalid parameters: " + summary(errors), errors);
    }

    /** The bound parameters in marker order. */
    public List<Parameter> bind(List<String> markers, Map<String, Object> values) {
        List<Parameter> out = new ArrayList<>(markers.size());
        for (String m : markers) {
            ParamSpec spec = specs.get(m);
            out.add(new Parameter(m, values.get(m), spec.type().jdbcType()));
        }
        return out;
    }

    /**
     * Ad-hoc SQL: every marker must have a value in {@code params}; types come from the JSON values; values no marker
     * uses are ignored.
     */
    public static List<Parameter> bindAdHoc(List<String> markers, JsonNode params) {
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, Parameter> byName = new LinkedHashMap<>();
        for (String m : markers) {
            if (byName.containsKey(m) || errors.containsKey(m)) {
                continue;
            }
            JsonNode v = params == null ? null : params.get(m);
            if (v == null) {
                errors.put(m, REQUIRED);
            } else if (v.isNull()) {
                byName.put(m, new Parameter(m, null, JDBCType.VARCHAR));
            } else if (v.isBoolean()) {
                byName.put(m, new Parameter(m, v.booleanValue(), JDBCType.BOOLEAN));
            } else if (v.isIntegralNumber()) {
                if (!v.canConvertToLong()) {
                    errors.put(m, "must be a 64-bit integer");
                } else {
                    byName.put(m, new Parameter(m, v.longValue(), JDBCType.BIGINT));
                }
            } else if (v.isNumber()) {
                double d = v.doubleValue();
                if (!Double.isFinite(d)) {
                    errors.put(m, "must be a finite number");
                } else {
                    byName.put(m, new Parameter(m, v.isBigDecimal() ? v.decimalValue() : d,
                            v.isBigDecimal() ? JDBCType.DECIMAL : JDBCType.DOUBLE));
                }
            } else if (v.isTextual()) {
                byName.put(m, new Parameter(m, v.textValue(), JDBCType.VARCHAR));
            } else {
                errors.put(m, "must be text, a number, true/false or null");
            }
        }
        if (!errors.isEmpty()) {
            throw invalidValues(errors);
        }
        List<Parameter> out = new ArrayList<>(markers.size());
        for (String m : markers) {
            out.add(byName.get(m));
        }
        return out;
    }

    /** Declared rules as JSON, in the canonical object form. */
    public JsonNode toJson() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        for (ParamSpec s : specs.values()) {
            ObjectNode o = root.putObject(s.name());
            o.put("type", s.type().wireName());
            o.put("required", s.required());
            if (s.hasDefault()) {
                o.set("default", toJsonValue(s.defaultValue()));
            }
            if (s.allowed() != null) {
                var arr = o.putArray("enum");
                s.allowed().forEach(v -> arr.add(toJsonValue(v)));
            }
            if (s.min() != null) {
                o.put("min", s.min());
            }
            if (s.max() != null) {
                o.put("max", s.max());
            }
            if (s.minLength() != null) {
                o.put("min_length", s.minLength());
            }
            if (s.maxLength() != null) {
                o.put("max_length", s.maxLength());
            }
            if (s.pattern() != null) {
                o.put("pattern", s.pattern().pattern());
            }
            if (s.description() != null) {
                o.put("description", s.description());
            }
            if (s.fromClaim() != null) {
                o.put("from_claim", s.fromClaim());
            }
        }
        return root;
    }

    static JsonNode toJsonValue(Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v == null) {
            return f.nullNode();
        } else if (v instanceof Long l) {
            return f.numberNode(l);
        } else if (v instanceof Double d) {
            return f.numberNode(d);
        } else if (v instanceof BigDecimal b) {
            return f.numberNode(b);
        } else if (v instanceof Boolean b) {
            return f.booleanNode(b);
        }
        return f.textNode(v.toString());
    }

    // JSON body values must already have the declared type (numbers are not text and text is not a number)
    private static String checkOne(ParamSpec spec, JsonNode v, boolean strict) {
        switch (spec.type()) {
            case INT -> {
                if (!v.isIntegralNumber()) {
                    return "must be an integer";
                }
                if (!v.canConvertToLong()) {
                    return "must be a 64-bit integer";
                }
            }
            case FLOAT -> {
                if (!v.isNumber()) {
                    return "must be a number";
                }
                if (!Double.isFinite(v.doubleValue())) {
                    return "must be a finite number";
                }
            }
            case DECIMAL -> {
                if (!v.isNumber() && !(v.isTextual() && isDecimal(v.textValue()))) {
                    return "must be a decimal number";
                }
            }
            case STR -> {
                if (!v.isTextual()) {
                    return "must be text";
                }
            }
            case BOOL -> {
                if (!v.isBoolean()) {
                    return "must be true or false";
                }
            }
            case DATE, TIMESTAMP -> {
                if (!v.isTextual()) {
                    return "must be " + spec.type().noun();
                }
                try {
                    coerceText(spec.type(), v.textValue());
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            }
        }
        return checkValue(spec, coerceJson(spec.type(), v));
    }

    private static boolean isDecimal(String s) {
        return DECIMAL_TEXT.matcher(s.strip()).matches();
    }

    private static Object coerceJson(ParamType type, JsonNode v) {
        return switch (type) {
            case INT -> v.longValue();
            case FLOAT -> v.doubleValue();
            case DECIMAL -> v.isTextual() ? new BigDecimal(v.textValue().strip()) : v.decimalValue();
            case STR -> v.textValue();
            case BOOL -> v.booleanValue();
            case DATE, TIMESTAMP -> coerceText(type, v.textValue());
        };
    }

    /** An optional sign and 1-40 ASCII digits that fit in 64 bits (no regex: this runs for every call's parameters). */
    private static long parseInteger(String t) {
        int first = !t.isEmpty() && (t.charAt(0) == '+' || t.charAt(0) == '-') ? 1 : 0;
        int digits = t.length() - first;
        if (digits < 1 || digits > 40) {
            throw new IllegalArgumentException("must be an integer");
        }
        for (int i = first; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("must be an integer");
            }
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException tooLarge) {
            throw new IllegalArgumentException("must be a 64-bit integer");
        }
    }

    static Object coerceText(ParamType type, String s) {
        switch (type) {
            case INT -> {
                return parseInteger(s.strip());
            }
            case FLOAT -> {
                String t = s.strip();
                if (!DECIMAL_TEXT.matcher(t).matches()) {
                    throw new IllegalArgumentException("must be a number");
                }
                double d = Double.parseDouble(t);
                if (!Double.isFinite(d)) {
                    throw new IllegalArgumentException("must be a finite number");
                }
                return d;
            }
            case DECIMAL -> {
                String t = s.strip();
                if (!DECIMAL_TEXT.matcher(t).matches()) {
                    throw new IllegalArgumentException("must be a decimal number");
                }
                return new BigDecimal(t);
            }
            case STR -> {
                return s;
            }
            case BOOL -> {
                return switch (s.strip().toLowerCase(Locale.ROOT)) {
                    case "true", "1", "yes", "on" -> Boolean.TRUE;
                    case "false", "0", "no", "off" -> Boolean.FALSE;
                    default -> throw new IllegalArgumentException("must be true or false");
                };
            }
            case DATE -> {
                try {
                    return LocalDate.parse(s.strip());
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("must be a date (YYYY-MM-DD)");
                }
            }
            case TIMESTAMP -> {
                String t = s.strip();
                try {
                    return OffsetDateTime.parse(t);
                } catch (DateTimeParseException e) {
                    try {
                        return LocalDateTime.parse(t.replace(' ', 'T'));
                    } catch (DateTimeParseException e2) {
                        throw new IllegalArgumentException("must be a timestamp (ISO-8601, e.g. 2024-01-31T12:00:00)");
                    }
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private static String checkValue(ParamSpec spec, Object v) {
        if (spec.allowed() != null && !containsValue(spec.allowed(), v)) {
            StringBuilder sb = new StringBuilder("must be one of: ");
            for (int i = 0; i < spec.allowed().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(spec.allowed().get(i));
            }
            return sb.toString();
        }
        if (spec.min() != null || spec.max() != null) {
            BigDecimal d = v instanceof BigDecimal b ? b
                    : v instanceof Long l ? BigDecimal.valueOf(l)
                    : v instanceof Double x ? BigDecimal.valueOf(x) : null;
            if (d != null && spec.min() != null && d.compareTo(spec.min()) < 0) {
                return "must be at least " + spec.min().toPlainString();
            }
            if (d != null && spec.max() != null && d.compareTo(spec.max()) > 0) {
                return "must be at most " + spec.max().toPlainString();
            }
        }
        if (v instanceof String s) {
            int len = s.codePointCount(0, s.length());
            if (spec.minLength() != null && len < spec.minLength()) {
                return "must be at least " + spec.minLength() + " characters long";
            }
            if (spec.maxLength() != null && len > spec.maxLength()) {
                return "must be at most " + spec.maxLength() + " characters long";
            }
            if (spec.pattern() != null) {
                if (s.length() > MAX_TEXT || !BoundedMatch.matches(spec.pattern(), s)) {
                    return "must match the pattern " + spec.pattern().pattern();
                }
            }
        }
        return null;
    }

    private static boolean containsValue(List<Object> allowed, Object v) {
        for (Object a : allowed) {
            if (a instanceof BigDecimal x && v instanceof BigDecimal y ? x.compareTo(y) == 0 : a.equals(v)) {
                return true;
            }
        }
        return false;
    }

    static String summary(Map<String, String> errors) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : errors.entrySet()) {
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(e.getKey()).append(' ').append(e.getValue());
        }
        return sb.toString();
    }
}
