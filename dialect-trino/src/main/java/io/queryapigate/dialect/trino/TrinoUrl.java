package io.queryapigate.dialect.trino;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code jdbc:trino://host:port[/catalog[/schema]][?property=value&...]} URL, split into the part the driver gets
 * (without the path: the dialect passes catalog and schema as properties) and the catalog and schema it names.
 *
 * @param driverUrl the URL without its path, as handed to trino-jdbc
 * @param catalog the first path segment, or empty
 * @param schema the second path segment, or empty
 */
record TrinoUrl(String driverUrl, Optional<String> catalog, Optional<String> schema) {

    /** The URL prefix trino-jdbc accepts. */
    static final String PREFIX = "jdbc:trino://";

    /**
     * URL properties the dialect sets itself (lower case): they would contradict the session strategy or the
     * configuration ({@code explicitPrepare=true} adds a round trip, {@code timezone} and {@code source} come from
     * {@code trino.*} properties, credentials from the connection's {@code user} and {@code password}).
     */
    static final Set<String> RESERVED = Set.of(
            "user", "password", "sessionuser", "source", "clienttags", "timezone", "explicitprepare", "catalog",
            "schema", "ssl", "sslverification", "ssltruststorepath", "ssltruststorepassword", "ssltruststoretype",
            "tracetoken", "validateconnection");

    TrinoUrl {
        requireNonNull(driverUrl, "driverUrl is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
    }

    /**
     * Parses and checks a URL.
     *
     * @param url the configured URL
     * @return the parts
     * @throws IllegalArgumentException naming {@code url} when it is not a Trino URL, has more than two path
     *     segments or sets a reserved property
     */
    static TrinoUrl parse(String url) {
        requireNonNull(url, "url is null");
        if (!url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("url: the trino dialect needs a jdbc:trino://host:port[/catalog[/schema]]"
                    + " URL, got '" + redact(url) + "'");
        }
        String rest = url.substring(PREFIX.length());
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q);
            rest = rest.substring(0, q);
        }
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        if (authority.isBlank()) {
            throw new IllegalArgumentException("url: no host in '" + redact(url) + "'");
        }
        Optional<String> catalog = Optional.empty();
        Optional<String> schema = Optional.empty();
        if (slash >= 0) {
            String path = rest.substring(slash + 1);
            if (path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            if (!path.isEmpty()) {
                String[] parts = path.split("/", -1);
                if (parts.length > 2) {
                    throw new IllegalArgumentException("url: expected at most /catalog/schema after the host, got '/"
                            + path + "'");
                }
                catalog = Optional.of(TrinoDialectConfig.checkName("url (catalog)", decode(parts[0])));
                if (parts.length == 2) {
                    schema = Optional.of(TrinoDialectConfig.checkName("url (schema)", decode(parts[1])));
                }
            }
        }
        if (query.length() > 1) {
            for (String pair : query.substring(1).split("&")) {
                String key = pair.split("=", 2)[0].strip();
                if (RESERVED.contains(key.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("url: the trino-jdbc property '" + key + "' is set by the trino"
                            + " dialect itself and may not appear in the URL (use the connection's user/password and"
                            + " the trino.* properties)");
                }
            }
        }
        return new TrinoUrl(PREFIX + authority + query, catalog, schema);
    }

    private static String decode(String part) {
        return URLDecoder.decode(part, StandardCharsets.UTF_8);
    }

    /**
     * The URL without its query part, which may hold credentials of other kinds (access tokens).
     *
     * @param url the URL
     * @return the URL up to {@code ?}
     */
    static String redact(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q) + "?...";
    }
}
