package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A published version stored without its result columns (saved while its database was down, or by a release before
 * versions were described) is described in the background at the next start, and its document gets typed rows.
 */
class DescribeLaterIT {
    @Test
    void unknownColumnsAreDescribedAtTheNextStart() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), "");
        DropwizardTestSupport<GatewayConfiguration> first = new DropwizardTestSupport<>(GatewayApplication.class,
                config.toString());
        first.before();
        try {
            Http http = new Http("http://127.0.0.1:" + first.getLocalPort());
            http.saveQuery(TestingConfig.ADMIN_KEY, "film", "SELECT film_id, title FROM film WHERE film_id = :id",
                    Map.of("id", "int"), true, null, Map.of());
            assertThat(titleType(http)).isEqualTo("[\"string\",\"null\"]");
        } finally {
            first.after();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + config.getParent().resolve("queryapigate.db"));
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE query_versions SET result_columns = NULL")).isEqualTo(1);
        }

        DropwizardTestSupport<GatewayConfiguration> second = new DropwizardTestSupport<>(GatewayApplication.class,
                config.toString());
        second.before();
        try {
            Http http = new Http("http://127.0.0.1:" + second.getLocalPort());
            long deadline = System.nanoTime() + 20_000_000_000L;
            String type = titleType(http);
            while (type == null && System.nanoTime() < deadline) {
                Thread.sleep(100);
                type = titleType(http);
            }
            assertThat(type).as("the title's type once described again").isEqualTo("[\"string\",\"null\"]");
        } finally {
            second.after();
        }
    }

    /** The title column's type in the administrator's document, or null while the rows are untyped. */
    private static String titleType(Http http) {
        JsonNode spec = http.get("/openapi.json", TestingConfig.ADMIN_KEY).json();
        JsonNode type = spec.at("/components/schemas/FilmRow/properties/title/type");
        return type.isMissingNode() ? null : type.toString();
    }
}
