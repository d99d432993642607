package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Leaks;
import io.queryapigate.testing.TestingConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lexical disagreement and masking on the real ClickHouse (18.16, which ends a block comment at the first
 * {@code *}{@code /} where the guard's newer-ClickHouse reading nests them), through the REST API.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClickHouseAttackIT {
    private static final TestServers.Server CLICKHOUSE = TestServers.clickhouse();
    private static final String URL = CLICKHOUSE.url();
    static final String DB = "qag_atk_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    static final String SECRET = "s3cr3t-token-4711";
    static final List<String> SSNS = List.of("123-45-6789", "987-65-4321");
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;

    /** Runs SQL on ClickHouse directly; returns the body (TSV), failing on an error status. */
    static String direct(String sql) {
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(URL + "/"))
                    .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new AssertionError(sql + ": " + r.body());
            }
            return r.body();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String config() {
        direct("CREATE DATABASE " + DB);
        direct("CREATE DATABASE " + DB + "_other");
        direct("CREATE TABLE " + DB + ".sec_people (id UInt32, name String, ssn String) ENGINE = Memory");
        direct("INSERT INTO " + DB + ".sec_people VALUES (1, 'Ada', '" + SSNS.get(0) + "'), (2, 'Bob', '"
                + SSNS.get(1) + "')");
        direct("CREATE TABLE " + DB + "_other.secret (token String) ENGINE = Memory");
        direct("INSERT INTO " + DB + "_other.secret VALUES ('" + SECRET + "')");
        return TestingConfig.write("  ch:\n    dialect: clickhouse\n    url: " + URL + "\n    user: " + CLICKHOUSE.user()
                + "\n    properties:\n      clickhouse.database: " + DB + "\n", "").toString();
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> ch = List.of("ch");
        keys = Map.of(
                "narrow", http.key("narrow", Map.of("connections", ch, "adhoc_sql", true,
                        "allowed_tables", List.of("sec_people"))),
                "reader", http.key("reader", Map.of("connections", ch, "adhoc_sql", true)),
                "masked", http.key("masked", Map.of("connections", ch, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "sec_people.ssn", "action", "null")))));
    }

    @AfterAll
    static void drop() {
        direct("DROP DATABASE " + DB);
        direct("DROP DATABASE " + DB + "_other");
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "ch", sql);
    }

    @Test
    void aCommentThatEndsEarlyOnTheServerIsRefused() {
        String attack = "SELECT name FROM sec_people /* /* */ UNION ALL SELECT token FROM " + DB
                + "_other.secret -- */";
        // the attack is real: this server ends the comment at the first */ and runs the UNION
        assertThat(direct(attack.replace("FROM sec_people", "FROM " + DB + ".sec_people"))).contains(SECRET);
        for (String key : List.of("narrow", "reader", "masked")) {
            Reply r = sql(key, attack);
            r.assertRefused(400, "sql_not_parseable");
            assertThat(r.body()).doesNotContain(SECRET);
        }
        Reply masked = sql("masked", "SELECT name FROM sec_people /* /* */ UNION ALL SELECT ssn FROM sec_people -- */");
        assertThat(masked.status()).isEqualTo(400);
        assertThat(masked.body()).doesNotContain(SSNS.get(0));
        Reply plain = sql("narrow", "SELECT name /* a comment */ FROM sec_people ORDER BY id");
        assertThat(plain.status()).as(plain.body()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            SELECT name, ssn FROM sec_people                               | 200
            SELECT `ssn` FROM sec_people                                   | 200
            SELECT arrayMap(z -> z, [ssn]) AS a FROM sec_people            | 200
            SELECT ssn AS x, x AS y, name FROM sec_people                  | 200
            SELECT tuple(name, ssn) AS t FROM sec_people                   | 200
            SELECT groupArray(ssn) AS g FROM sec_people                    | 200
            SELECT countIf(ssn LIKE '1%') AS c FROM sec_people             | 200
            SELECT arrayMap(z -> ssn, [1]) AS a FROM sec_people            | 403
            SELECT toDate(ssn) AS n FROM sec_people                        | 500
            SELECT name FROM system.columns                                | 403
            SELECT * FROM sec_people                                       | 403
            SELECT name FROM sec_people WHERE ssn LIKE '1%'                | 200
            """)
    void maskedValuesNeverLeave(String sql, int status) {
        Reply r = sql("masked", sql);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        Leaks.assertNone(sql, r.body(), SSNS);
    }

    @Test
    void theDatabaseMessageIsShownToUnrestrictedCallersOnly() {
        String sql = "SELECT toDate(ssn) AS n FROM sec_people";
        Leaks.assertMessageWithheld(sql("reader", sql), sql("masked", sql), SSNS.get(0));
    }
}
