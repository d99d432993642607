package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code mysql.*} properties of one connection, validated and frozen.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code mysql.flavor}</td><td>{@code auto}</td><td>{@code auto}, {@code mysql} or {@code mariadb}: a
 *       pinned flavour refuses a server of the other one</td></tr>
 *   <tr><td>{@code mysql.time_limit_mode}</td><td>{@code auto}</td><td>{@code auto}, {@code hint}, {@code
 *       set_statement} or {@code session}; see {@link TimeLimitMode}</td></tr>
 *   <tr><td>{@code mysql.idle_validation}</td><td>{@code 5s}</td><td>a pooled connection idle at least this long
 *       is pinged (COM_PING) before reuse; younger ones are handed out without any check</td></tr>
 *   <tr><td>{@code mysql.client_cancel_grace}</td><td>{@code 500ms}</td><td>how long after the time limit the
 *       client kills a statement the server's own limit has not stopped</td></tr>
 *   <tr><td>{@code mysql.connect_timeout}</td><td>{@code 5s}</td><td>TCP connect and login timeout</td></tr>
 *   <tr><td>{@code mysql.write_pool_size}</td><td>the connection's pool size</td><td>connections kept for
 *       write calls (a separate pool, opened on the first write)</td></tr>
 *   <tr><td>{@code mysql.max_lifetime}</td><td>{@code 30m}</td><td>pooled connections are replaced after this
 *       long (keep it below the server's {@code wait_timeout})</td></tr>
 * </table>
 *
 * <p>Durations are written {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S}).
 *
 * @param flavor the pinned flavour, or empty for {@code auto}
 * @param timeLimitMode how the time limit is placed
 * @param idleValidation idle time after which a connection is pinged before reuse
 * @param clientCancelGrace delay after the time limit before the client kills the statement
 * @param connectTimeout connect and login timeout
 * @param writePoolSize the write pool's size, or empty for the connection's pool size
 * @param maxLifetime how long a pooled connection lives
 */
public record MySqlDialectConfig(
        Optional<ServerInfo.Flavor> flavor,
        TimeLimitMode timeLimitMode,
        Duration idleValidation,
        Duration clientCancelGrace,
        Duration connectTimeout,
        Optional<Integer> writePoolSize,
        Duration maxLifetime) {

    /** Every key this dialect reads. */
    public static final Set<String> KEYS = Set.of(
            "mysql.flavor",
            "mysql.time_limit_mode",
            "mysql.idle_validation",
            "mysql.client_cancel_grace",
            "mysql.connect_timeout",
            "mysql.write_pool_size",
            "mysql.max_lifetime");

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    /** Validates the fields. */
    public MySqlDialectConfig {
        requireNonNull(flavor, "flavor is null");
        requireNonNull(timeLimitMode, "timeLimitMode is null");
        requireNonNull(idleValidation, "idleValidation is null");
        requireNonNull(clientCancelGrace, "clientCancelGrace is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(writePoolSize, "writePoolSize is null");
        requireNonNull(maxLifetime, "maxLifetime is null");
    }

    /**
     * The defaults: everything {@code auto}, 5 s idle validation, 500 ms cancel grace, 5 s connect timeout.
     *
     * @return the default configuration
     */
    public static MySqlDialectConfig defaults() {
        return from(Map.of());
    }

    /**
     * Reads and validates the properties.
     *
     * @param properties the connection's {@code properties} map, verbatim
     * @return the configuration
     * @throws IllegalArgumentException naming every unknown key, or the first malformed one
     */
    public static MySqlDialectConfig from(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key)) {
                unknown.add(String.valueOf(key));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown mysql dialect propert" + (unknown.size() == 1 ? "y" : "ies")
                    + ": " + String.join(", ", unknown) + " (known: " + String.join(", ", new TreeSet<>(KEYS)) + ")");
        }
        Map<String, String> p = new HashMap<>(properties);

        Optional<ServerInfo.Flavor> flavor = switch (choice(p, "mysql.flavor", "auto", List.of("auto", "mysql", "mariadb"))) {
            case "mysql" -> Optional.of(ServerInfo.Flavor.MYSQL);
            case "mariadb" -> Optional.of(ServerInfo.Flavor.MARIADB);
            default -> Optional.empty();
        };
        List<String> modes = new ArrayList<>();
        for (TimeLimitMode mode : TimeLimitMode.values()) {
            modes.add(mode.configName());
        }
        TimeLimitMode mode = TimeLimitMode.valueOf(
                choice(p, "mysql.time_limit_mode", "auto", modes).toUpperCase(Locale.ROOT));
        if (flavor.isPresent()) {
            // a pinned flavour lets a contradiction surface now instead of at the first connection
            MySqlSessionStrategy.resolve(mode, flavor.get(), "mysql.time_limit_mode");
        }
        Duration idle = duration(p, "mysql.idle_validation", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(1));
        Duration grace = duration(p, "mysql.client_cancel_grace", Duration.ofMillis(500), Duration.ZERO,
                Duration.ofMinutes(1));
        Duration connect = duration(p, "mysql.connect_timeout", Duration.ofSeconds(5), Duration.ofMillis(250),
                Duration.ofMinutes(5));
        Duration lifetime = duration(p, "mysql.max_lifetime", Duration.ofMinutes(30), Duration.ofSeconds(30),
                Duration.ofDays(1));
        Optional<Integer> writePool = Optional.empty();
        String wp = p.get("mysql.write_pool_size");
        if (wp != null) {
            try {
                int n = Integer.parseInt(wp.strip());
                if (n < 1 || n > 1000) {
                    throw new NumberFormatException();
                }
                writePool = Optional.of(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "mysql.write_pool_size: expected a whole number from 1 to 1000, got '" + wp + "'");
            }
        }
        return new MySqlDialectConfig(flavor, mode, idle, grace, connect, writePool, lifetime);
    }

    private static String choice(Map<String, String> p, String key, String dflt, List<String> allowed) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        String value = raw.strip().toLowerCase(Locale.ROOT);
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException(
                    key + ": expected one of " + String.join(", ", allowed) + ", got '" + raw + "'");
        }
        return value;
    }

    static Duration duration(Map<String, String> p, String key, Duration dflt, Duration min, Duration max) {
        String raw = p.get(key);
        if (raw == null) {
            return dflt;
        }
        Duration d = parseDuration(raw);
        if (d == null) {
            throw new IllegalArgumentException(
                    key + ": expected a duration such as 500ms, 5s, 2m, 1h or PT5S, got '" + raw + "'");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(key + ": must be between " + text(min) + " and " + text(max)
                    + ", got '" + raw + "'");
        }
        return d;
    }

    private static Duration parseDuration(String raw) {
        String s = raw.strip().toLowerCase(Locale.ROOT);
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = SIMPLE_DURATION.matcher(s);
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException tooLong) {
                return null;
            }
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(Math.min(n, Long.MAX_VALUE / 60));
                default -> Duration.ofHours(Math.min(n, Long.MAX_VALUE / 3600));
            };
        }
        if (s.startsWith("pt") || s.startsWith("p")) {
            try {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }

    private static String text(Duration d) {
        if (d.isZero()) {
            return "0";
        }
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        if (s % 3600 == 0) {
            return (s / 3600) + "h";
        }
        if (s % 60 == 0) {
            return (s / 60) + "m";
        }
        return s + "s";
    }
}
