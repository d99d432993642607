package io.queryapigate.dialect.trino;

import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.spi.Parameter;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/**
 * trino-jdbc 476 refuses {@code setObject(OffsetDateTime)} ("Unsupported object type") and {@code setObject(odt,
 * TIMESTAMP_WITH_TIMEZONE)}; it accepts the text form {@code 2024-01-15 10:30:00.123 +02:00} with {@link
 * Types#TIMESTAMP_WITH_TIMEZONE} and renders it as a {@code TIMESTAMP '...'} literal with that offset (measured),
 * so the offset survives. Every other kind goes through the shared binder.
 */
final class TrinoParameterBinder extends ParameterBinder {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final DateTimeFormatter OFFSET = DateTimeFormatter.ofPattern("xxx");

    @Override
    protected void bind(PreparedStatement statement, int index, Parameter parameter) throws SQLException {
        if (parameter.value() instanceof OffsetDateTime odt) {
            statement.setObject(index, text(odt), Types.TIMESTAMP_WITH_TIMEZONE);
            return;
        }
        super.bind(statement, index, parameter);
    }

    /**
     * The literal text Trino reads as a {@code timestamp with time zone}: seconds always, the fraction only when
     * there is one (trailing zeros dropped), and a numeric offset.
     *
     * @param odt the value
     * @return for example {@code 2024-01-15 10:30:00.5 +02:00}
     */
    static String text(OffsetDateTime odt) {
        StringBuilder b = new StringBuilder(SECONDS.format(odt));
        int nanos = odt.getNano();
        if (nanos != 0) {
            String fraction = String.format("%09d", nanos);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(fraction, 0, end);
        }
        return b.append(' ').append(OFFSET.format(odt)).toString();
    }
}
