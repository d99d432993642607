package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Formats, paging and streams through the service, on DuckDB. */
@ExtendWith(DropwizardExtensionsSupport.class)
class FormatsAppIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    TestingConfig.filmSeed() + "output:\n  streamMaxRows: 1000\n").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Reply sql(String query, String sql) {
        return http.post("/execute_sql" + query, ADMIN, Http.json(Map.of("sql", sql, "connection_name", "demo")));
    }

    @Test
    void formatsComeFromTheParameterOrTheAcceptHeader() {
        Reply csv = http.get("/q/film?film_id=1&format=csv", ADMIN);
        assertThat(csv.status()).as(csv.body()).isEqualTo(200);
        assertThat(csv.header("Content-Type")).startsWith("text/csv");
        assertThat(csv.body().replace("\r\n", "\n")).startsWith("film_id,title,rental_rate\n1,");
        Reply ndjson = http.send(http.builder("/q/film?film_id=2", ADMIN).header("Accept", "application/x-ndjson")
                .GET().build());
        assertThat(ndjson.header("Content-Type")).startsWith("application/x-ndjson");
        assertThat(ndjson.body().strip().lines()).hasSize(1);
        Reply xlsx = http.get("/q/film?film_id=1&format=xlsx", ADMIN);
        assertThat(xlsx.header("Content-Disposition")).contains("film.xlsx");
        Reply bad = http.get("/q/film?film_id=1&format=pdf", ADMIN);
        bad.assertRefused(400, "invalid_format");
        assertThat(bad.json().get("error").asText()).contains("csv").contains("parquet");
    }

    @Test
    void pagesNarrowTheStatementsOwnWindow() {
        Reply page2 = sql("?page=2&page_size=10", "SELECT film_id FROM film ORDER BY film_id");
        assertThat(page2.status()).as(page2.body()).isEqualTo(200);
        JsonNode rows = page2.json();
        assertThat(rows).hasSize(10);
        assertThat(rows.get(0).get("film_id").asInt()).isEqualTo(11);
        assertThat(page2.header("X-Page")).isEqualTo("2");
        assertThat(page2.header("X-Page-Size")).isEqualTo("10");
        assertThat(page2.header("X-Has-More")).isEqualTo("true");
        Reply own = sql("?page=2&page_size=10", "SELECT film_id FROM film ORDER BY film_id LIMIT 15");
        assertThat(own.json()).hasSize(5);
        assertThat(own.header("X-Has-More")).isEqualTo("false");
        for (String bad : new String[] {"?page=0", "?page_size=-1", "?page_size=100000"}) {
            Reply r = sql(bad, "SELECT film_id FROM film");
            r.assertRefused(400, "invalid_paging");
        }
        sql("?page=abc", "SELECT film_id FROM film").assertRefused(400, "invalid_request");
        Reply unpaged = sql("", "SELECT film_id FROM film ORDER BY film_id");
        assertThat(unpaged.json()).hasSize(10);
        assertThat(unpaged.header("X-Page")).isEqualTo("1");
        assertThat(unpaged.header("X-Row-Count")).isEqualTo("10");
        assertThat(unpaged.header("X-Has-More")).isEqualTo("true");
        Reply empty = sql("", "SELECT film_id FROM film WHERE film_id < 0");
        assertThat(empty.json().get("message").asText()).isEqualTo("No results returned");
        assertThat(empty.header("X-Row-Count")).isEqualTo("0");
    }

    @Test
    void streamsAreReadsWithATrailerAtTheCeiling() {
        Reply ndjson = sql("?stream=true&format=ndjson", "SELECT range AS n FROM range(5000)");
        assertThat(ndjson.status()).as(ndjson.body()).isEqualTo(200);
        String[] lines = ndjson.body().strip().split("\n");
        assertThat(lines).hasSize(1001);
        assertThat(lines[999]).isEqualTo("{\"n\":999}");
        assertThat(lines[1000]).contains("\"_truncated\":true");
        Reply small = sql("?stream=true&format=csv", "SELECT range AS n FROM range(3)");
        assertThat(small.body().replace("\r\n", "\n")).isEqualTo("n\n0\n1\n2\n");
        assertThat(small.header("Content-Disposition")).contains("attachment");
        Reply json = sql("?stream=true&format=json", "SELECT 1");
        json.assertRefused(400, "invalid_stream");
        Reply paged = sql("?stream=true&format=csv&page=1", "SELECT 1");
        assertThat(paged.json().get("code").asText()).isEqualTo("invalid_stream");
    }
}
