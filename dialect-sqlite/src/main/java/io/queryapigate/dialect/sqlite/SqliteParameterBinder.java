package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.spi.Parameter;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Binds dates and times as the ISO-8601 text SQLite's date functions read and write ({@code 2024-01-15}, {@code
 * 2024-01-15 10:30:00}, as Python's {@code sqlite3} adapters do), so that they compare equal to such text in a
 * column; the driver would otherwise bind them as milliseconds since 1970. Everything else as the standard binder.
 */
final class SqliteParameterBinder extends ParameterBinder {

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]");

    @Override
    protected void bind(PreparedStatement statement, int index, Parameter parameter) throws SQLException {
        switch (parameter.value()) {
            case LocalDate d -> statement.setString(index, d.toString());
            case LocalDateTime d -> statement.setString(index, text(d));
            case OffsetDateTime d -> statement.setString(index, text(d.toLocalDateTime()) + d.getOffset().getId()
                    .replace("Z", "+00:00"));
            case null, default -> super.bind(statement, index, parameter);
        }
    }

    /** {@code 2024-01-15 10:30:00}, with as many fraction digits as the value has (none when it has none). */
    private static String text(LocalDateTime value) {
        String text = value.format(DATE_TIME);
        if (value.getNano() == 0) {
            return text.substring(0, 19);
        }
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        return text.substring(0, end);
    }
}
