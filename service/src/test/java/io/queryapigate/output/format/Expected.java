package io.queryapigate.output.format;

/**
 * The text form of every sample cell (what CSV carries), written out by hand, as the Python original renders them;
 * {@code null} is NULL.
 */
final class Expected {
    static final String[][] TEXT = {
        {"9223372036854775807", "-2147483648", "-32768", "127", "1180591620717411303425",
            "12345678901234567890.123456789", "0.1", "1.5", "True", SampleRows.UNICODE, "2024-02-29",
            "23:59:58.123456", "2024-01-02 03:04:05.123456", local("2024-01-02T03:04:05.654321+05:30"), "AAEC/4A=",
            "123e4567-e89b-12d3-a456-426614174000", "[1,\"two\",null,[3,4],true]",
            "{\"k\":\"v\",\"n\":5,\"nil\":null,\"inner\":{\"x\":1.5},\"key with space\":[\"a\"]}", SampleRows.QUOTES,
            "1", SampleRows.SEPARATORS, SampleRows.NEWLINES, "<b>&amp;</b>"},
        {"-9223372036854775808", "0", "0", "0", "-1180591620717411303425", "-12345678901234567890.123456789", "NaN",
            "-Infinity", "False", SampleRows.FORMULA, "1970-01-01", "00:00:00", "1999-12-31 23:59:59",
            local("2024-06-01T00:00:00Z"), "", "00000000-0000-0000-0000-000000000000", "[]", "{}", "", "2", SampleRows.HASH,
            "-5", "@cmd"},
        new String[SampleRows.COLUMNS.size()],
        {"0", "42", "7", "-1", "0", "1000.0", "Infinity", "0.25", "True", "null", "2000-01-01", "12:00:00",
            "2024-01-02 03:04:05.007", local("2024-01-02T03:04:05-08:00"), "QQ==", "123e4567-e89b-12d3-a456-426614174000",
            "[[]]", "{\"a\":{}}", "true", "3", "0123", "2024-01-01", "x\u0001y\u0000z"},
    };

    private Expected() {}

    /** A timestamp with an offset as the gateway shows it: the wall time in the JVM's zone, without the offset. */
    static String local(String isoWithOffset) {
        return java.time.OffsetDateTime.parse(isoWithOffset).atZoneSameInstant(java.time.ZoneId.systemDefault())
                .toLocalDateTime().format(java.time.format.DateTimeFormatter.ISO_LOCAL_DATE_TIME).replace('T', ' ');
    }
}
