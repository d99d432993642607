package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Parameters rendered as literals (18.16 has no server-side parameters) are data, never SQL: generated values, heavy
 * in quotes, backslashes, comment starters, line breaks, NULs, control characters and Unicode, are sent to the real
 * server in {@code SELECT ? AS v, hex(?) AS h} and must come back equal, with the server having seen exactly their
 * UTF-8 bytes ({@code hex}). Run in WRITE calls too, where no {@code readonly=1} backs the escaping up, with a canary
 * table that must survive every try. Strings that are not valid Unicode (a lone surrogate) must be refused, not
 * altered.
 *
 * <p>Each property counts the tries it really ran against the server, and {@link #afterAll} checks the counts, so
 * that the proof does not rest on the test engine's report alone.
 */
class ClickHouseParameterInjectionPropertiesTest {
    private static final String CANARY = "qag_ch_prop_canary";
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Map<String, AtomicInteger> TRIES = new java.util.concurrent.ConcurrentHashMap<>();
    private static Dialect dialect;

    /** Fragments that break naive escaping, mixed with arbitrary characters by {@link #nasty()}. */
    private static final List<String> FRAGMENTS = List.of(
            "'", "''", "\\", "\\'", "\\\\'", "\\\\", "\"", "`", "?", "--", "-- ", "/*", "*/", "//", "#", ";", "$$", "$",
            "\n", "\r", "\r\n", "\t", "\0", "\u0001", "\u001b", "\u007f", "\\x27", "\\0", "\\N", "\\n", "\\'\\'",
            "'; DROP TABLE " + CANARY + "; --", "' OR 1=1 --", "') UNION ALL SELECT name FROM system.tables --",
            "\\'; DROP TABLE " + CANARY + " -- ", "*/ DROP TABLE " + CANARY + " /*", "\nFORMAT JSON", " SETTINGS readonly=0",
            "ü", "ß", "✓", "😀", "\u2028", "\uFEFF", "\u00a0", "𝄞");

    @BeforeContainer
    static void setUp() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + CANARY);
        TestingClickHouse.exec("CREATE TABLE " + CANARY + " (id UInt8, name String) ENGINE = Memory");
        TestingClickHouse.exec("INSERT INTO " + CANARY + " VALUES (1, 'one'), (2, 'two')");
        dialect = new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), 2), Map.of());
    }

    @AfterContainer
    static void afterAll() {
        try {
            assertCanaryIntact();
            assertThat(TRIES.get("strings in reads")).as("tries run").hasValueGreaterThanOrEqualTo(1000);
            assertThat(TRIES.get("strings in writes")).as("tries run").hasValueGreaterThanOrEqualTo(1000);
            assertThat(TRIES.get("strings elsewhere")).as("tries run").hasValueGreaterThanOrEqualTo(300);
            System.out.println("injection properties: tries against the server " + TRIES);
        } finally {
            dialect.close();
            TestingClickHouse.exec("DROP TABLE IF EXISTS " + CANARY);
        }
    }

    private static void count(String property) {
        TRIES.computeIfAbsent(property, k -> new AtomicInteger()).incrementAndGet();
    }

    private static void assertCanaryIntact() {
        assertThat(TestingClickHouse.value("EXISTS TABLE " + CANARY)).isEqualTo("1");
        assertThat(TestingClickHouse.value("SELECT groupArray(name) FROM (SELECT name FROM " + CANARY + " ORDER BY id)"))
                .isEqualTo("['one','two']");
    }

    @Provide
    Arbitrary<String> nasty() {
        Arbitrary<String> fragment = Arbitraries.of(FRAGMENTS);
        Arbitrary<String> bmp = Arbitraries.oneOf(Arbitraries.chars().range('\u0000', '\uD7FF'),
                Arbitraries.chars().range('\uE000', '\uFFFF')).map(String::valueOf);
        Arbitrary<String> ascii = Arbitraries.chars().range('\u0000', '\u007F').map(String::valueOf);
        Arbitrary<String> supplementary = Arbitraries.integers().between(0x10000, 0x10FFFF).map(Character::toString);
        Arbitrary<String> piece = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, fragment), net.jqwik.api.Tuple.of(4, ascii), net.jqwik.api.Tuple.of(2, bmp),
                net.jqwik.api.Tuple.of(1, supplementary));
        return piece.list().ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> withLoneSurrogates() {
        Arbitrary<String> surrogate = Arbitraries.chars().range('\uD800', '\uDFFF').map(String::valueOf);
        return net.jqwik.api.Combinators.combine(nasty(), surrogate, nasty()).as((a, s, b) -> a + s + b)
                .filter(s -> !isValidUnicode(s));
    }

    private static boolean isValidUnicode(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static RecordingSink echo(String value, AccessMode mode) {
        QueryRequest request = QueryRequest.read("SELECT ? AS v, hex(?) AS h",
                List.of(new Parameter("v", value, JDBCType.VARCHAR), new Parameter("h", value, JDBCType.VARCHAR)),
                LIMIT, 10).withMode(mode);
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        return sink;
    }

    private static void assertEchoed(String value, RecordingSink sink) {
        assertThat(sink.rows()).hasSize(1);
        assertThat(sink.rows().get(0).get(0)).isEqualTo(value);
        assertThat(sink.rows().get(0).get(1)).as("the bytes the server saw")
                .isEqualTo(HexFormat.of().withUpperCase().formatHex(value.getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 1000)
    void anyStringComesBackByteForByteInAReadCall(@ForAll("nasty") String value) {
        count("strings in reads");
        assertEchoed(value, echo(value, AccessMode.READ));
    }

    @Property(tries = 1000)
    void anyStringComesBackByteForByteInAWriteCallWithoutReadonly(@ForAll("nasty") String value) {
        count("strings in writes");
        assertEchoed(value, echo(value, AccessMode.WRITE));
        assertCanaryIntact();
    }

    @Property(tries = 300)
    void stringsStayDataInOtherPositions(@ForAll("nasty") String a, @ForAll("nasty") String b) {
        count("strings elsewhere");
        QueryRequest request = QueryRequest.read("SELECT concat(?, '?', ?) AS v, [?, ?] AS xs, (? = ?) AS same -- ?",
                List.of(p(a), p(b), p(a), p(b), p(a), p(a)), LIMIT, 10).withMode(AccessMode.WRITE);
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        assertThat(sink.rows().get(0)).containsExactly(a + "?" + b, List.of(a, b), (short) 1);
        QueryRequest filter = QueryRequest.read("SELECT count() AS n FROM " + CANARY + " WHERE name = ? OR name = ?",
                List.of(p(a), p(b)), LIMIT, 10);
        RecordingSink counted = new RecordingSink();
        dialect.execute(filter, counted);
        long expected = (a.equals("one") || b.equals("one") ? 1 : 0) + (a.equals("two") || b.equals("two") ? 1 : 0);
        assertThat(counted.singleValue()).isEqualTo(expected);
    }

    private static Parameter p(String value) {
        return new Parameter("p", value, JDBCType.VARCHAR);
    }

    @Property(tries = 200)
    void stringsThatAreNotUnicodeAreRefusedNotAltered(@ForAll("withLoneSurrogates") String value) {
        count("lone surrogates");
        try {
            echo(value, AccessMode.WRITE);
            throw new AssertionError("a lone surrogate was sent");
        } catch (DialectException e) {
            assertThat(e.error()).isEqualTo(DialectError.SYNTAX);
            assertThat(e.getMessage()).contains("lone surrogate");
        }
    }

    @Property(tries = 300)
    void numbersComeBackExactly(@ForAll long l, @ForAll double d, @ForAll("decimals") BigDecimal dec) {
        count("numbers");
        boolean subnormal = d != 0 && Math.abs(d) < Double.MIN_NORMAL;
        QueryRequest request = QueryRequest.read("SELECT ? AS l, ? AS d, ? AS dec, 0-? AS neg", List.of(
                new Parameter("l", l, JDBCType.BIGINT), new Parameter("d", subnormal ? 0.0 : d, JDBCType.DOUBLE),
                new Parameter("dec", dec, JDBCType.DECIMAL), new Parameter("n", l, JDBCType.BIGINT)), LIMIT, 10);
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        List<Object> row = sink.rows().get(0);
        assertThat(((Number) row.get(0)).longValue()).isEqualTo(l);
        assertThat((Double) row.get(1)).isEqualTo(subnormal ? 0.0 : d);
        assertThat(row.get(2)).isEqualTo(dec);
        // ClickHouse's Int64 arithmetic wraps like Java's: 0 - Long.MIN_VALUE is Long.MIN_VALUE on both
        assertThat(((Number) row.get(3)).longValue()).as("0-? is a subtraction, not a comment").isEqualTo(0 - l);
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        return Arbitraries.bigIntegers().between(BigInteger.TEN.pow(37).negate(), BigInteger.TEN.pow(37))
                .flatMap(unscaled -> Arbitraries.integers().between(0, 37).map(scale -> new BigDecimal(unscaled, scale)));
    }

    @Property(tries = 200)
    void datesAndTimesComeBackExactly(@ForAll("days") LocalDate day, @ForAll("seconds") int second) {
        count("dates");
        LocalDateTime at = day.atStartOfDay().plusSeconds(second);
        QueryRequest request = QueryRequest.read("SELECT ? AS d, ? AS t", List.of(
                new Parameter("d", day, JDBCType.DATE), new Parameter("t", at, JDBCType.TIMESTAMP)), LIMIT, 10);
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        assertThat(sink.rows().get(0)).containsExactly(day, at);
    }

    @Provide
    Arbitrary<LocalDate> days() {
        // DateTime is seconds since the epoch in a UInt32: keep the date-time within 2105
        return Arbitraries.longs().between(0, LocalDate.of(2105, 12, 30).toEpochDay()).map(LocalDate::ofEpochDay);
    }

    @Provide
    Arbitrary<Integer> seconds() {
        return Arbitraries.integers().between(0, 86_399);
    }

    @Example
    void knownAttacksAreData() {
        for (String attack : List.of(
                "x'; DROP TABLE " + CANARY + "; --",
                "\\'; DROP TABLE " + CANARY + "; --",
                "\\\\'; DROP TABLE " + CANARY + "; --",
                "' || (SELECT name FROM system.tables LIMIT 1) || '",
                "*/ DROP TABLE " + CANARY + " /*",
                "\n; DROP TABLE " + CANARY,
                "\\", "'", "\\\\", "\0", "?", "??", "' ? '",
                "1') FORMAT JSON --",
                "') SETTINGS readonly = 0 --")) {
            assertEchoed(attack, echo(attack, AccessMode.WRITE));
            assertEchoed(attack, echo(attack, AccessMode.READ));
        }
        assertCanaryIntact();
    }
}
