package io.queryapigate.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.AuthDynamicFeature;
import io.dropwizard.auth.AuthValueFactoryProvider;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.cache.LocalResponseCache;
import io.queryapigate.call.CallAuthorizer;
import io.queryapigate.call.CallLimits;
import io.queryapigate.call.CallRecorder;
import io.queryapigate.call.QueryService;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.errors.ApiExceptionMapper;
import io.queryapigate.errors.DialectExceptionMapper;
import io.queryapigate.errors.JsonExceptionMapper;
import io.queryapigate.errors.ParamExceptionMapper;
import io.queryapigate.errors.UnexpectedExceptionMapper;
import io.queryapigate.errors.WebApplicationExceptionMapper;
import io.queryapigate.events.EventLog;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.Store;
import io.queryapigate.limits.Concurrency;
import io.queryapigate.limits.Quotas;
import java.time.ZoneOffset;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.glassfish.jersey.test.grizzly.GrizzlyWebTestContainerFactory;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The call resources ({@code /q/{name}}, {@code /execute_sql}) on their own, in a servlet container without the rest
 * of the application: authentication, body validation, output negotiation and error envelopes, over the real call
 * pipeline (a SQLite store, an embedded DuckDB connection, the guard).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CallResourcesTest {
    private static final String ADMIN = "resource-test-admin-key-0123";
    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();
    private static final QueryService QUERIES;
    private static final MetadataCache CACHE;
    private static final FormatsConfig FORMATS = new FormatsConfig();

    static {
        try {
            Path home = Files.createTempDirectory("qag-resources-");
            String url = "jdbc:sqlite:" + home.resolve("store.db");
            Store store = Store.open(Jdbi.create(url).installPlugin(new SqlObjectPlugin()), url, null, null);
            MetricRegistry metrics = new MetricRegistry();
            Clock clock = Clock.systemUTC();
            ConnectionConfig duck = new ConnectionConfig();
            duck.setDialect("duckdb");
            duck.setUrl(":memory:");
            duck.setPoolSize(1);
            duck.setProperties(new java.util.LinkedHashMap<>(Map.of("duckdb.read_only", "false")));
            ConnectionRegistry connections = ConnectionRegistry.create(
                    DialectRegistry.discover(CallResourcesTest.class.getClassLoader()), Map.of("duck", duck),
                    Duration.ofSeconds(10), 1000, home);
            CACHE = new MetadataCache(store, Duration.ZERO, 1000, metrics);
            Guarding guarding = new Guarding(new SqlGuard(), false);
            EventLog events = new EventLog(store.jdbi(), 100, Duration.ofSeconds(1), 10, Duration.ofHours(1), clock,
                    metrics);
            QUERIES = new QueryService(new SavedQueryResolver(CACHE, connections, guarding, MAPPER),
                    new CallAuthorizer(), guarding, new Masking(null), new LocalResponseCache(1 << 20, clock),
                    connections, new CallRecorder(events, metrics, clock),
                    new CallLimits(1000, 65536, 0, FORMATS.paging(), FORMATS.writerOptions()),
                    new Quotas(store.usage(), clock, ZoneOffset.UTC, null, "", 0, metrics), new Concurrency(),
                    metrics, clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ResourceExtension RESOURCES = ResourceExtension.builder()
            .setTestContainerFactory(new GrizzlyWebTestContainerFactory())
            .setMapper(MAPPER)
            .addResource(new QueryResource(QUERIES, FORMATS.paging()))
            .addResource(new ExecuteSqlResource(QUERIES, FORMATS.paging()))
            .addProvider(new AuthDynamicFeature(new ApiKeyAuthFilter.Builder()
                    .setAuthenticator(new ApiKeyAuthenticator(ADMIN, CACHE, MAPPER, Clock.systemUTC()))
                    .setPrefix("ApiKey").setRealm("queryapigate").buildAuthFilter()))
            .addProvider(new AuthValueFactoryProvider.Binder<>(Caller.class))
            .addProvider(new ApiExceptionMapper())
            .addProvider(new DialectExceptionMapper())
            .addProvider(new JsonExceptionMapper())
            .addProvider(new WebApplicationExceptionMapper())
            .addProvider(new ParamExceptionMapper())
            .addProvider(new UnexpectedExceptionMapper())
            .build();

    private static Response executeSql(String key, String json, String query) {
        var target = RESOURCES.target("/execute_sql");
        if (query != null) {
            String[] kv = query.split("=", 2);
            target = target.queryParam(kv[0], kv[1]);
        }
        var request = key == null ? target.request() : target.request().header("X-API-Key", key);
        return request.post(Entity.entity(json, MediaType.APPLICATION_JSON_TYPE));
    }

    private static JsonNode json(Response r) {
        try {
            return MAPPER.readTree(r.readEntity(String.class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void withoutAKeyTheAnswerIs401InTheEnvelope() {
        Response r = executeSql(null, "{\"sql\": \"SELECT 1\", \"connection_name\": \"duck\"}", null);
        assertThat(r.getStatus()).isEqualTo(401);
        assertThat(json(r).get("code").asText()).isEqualTo("unauthorized");
    }

    @Test
    void adHocSqlAnswersItsRows() {
        Response r = executeSql(ADMIN, "{\"sql\": \"SELECT 1 AS one, 'a' AS s\", \"connection_name\": \"duck\"}", null);
        assertThat(r.getStatus()).isEqualTo(200);
        JsonNode rows = json(r);
        assertThat(rows.get(0).get("one").asInt()).isEqualTo(1);
        assertThat(rows.get(0).get("s").asText()).isEqualTo("a");
    }

    @Test
    void theFormatComesFromTheBodyOrTheQueryString() {
        Response csv = executeSql(ADMIN, "{\"sql\": \"SELECT 1 AS one\", \"connection_name\": \"duck\", "
                + "\"format\": \"csv\"}", null);
        assertThat(csv.getMediaType().toString()).startsWith("text/csv");
        assertThat(csv.readEntity(String.class)).startsWith("one");
        Response byQuery = executeSql(ADMIN, "{\"sql\": \"SELECT 1 AS one\", \"connection_name\": \"duck\"}",
                "format=csv");
        assertThat(byQuery.getMediaType().toString()).startsWith("text/csv");
    }

    @Test
    void fieldsItDoesNotKnowAreIgnoredKnownOnesChecked() {
        Response unknown = executeSql(ADMIN, "{\"sql\": \"SELECT 1 AS one\", \"connection_name\": \"duck\", "
                + "\"nope\": 1, \"placeholders\": [], \"tags\": [\"x\"]}", null);
        assertThat(unknown.getStatus()).isEqualTo(200);
        assertThat(json(unknown).get(0).get("one").asInt()).isEqualTo(1);
        Response database = executeSql(ADMIN, "{\"sql\": \"SELECT 1\", \"connection_name\": \"duck\", "
                + "\"database\": \"other\"}", null);
        assertThat(database.getStatus()).isEqualTo(400);
        assertThat(json(database).get("code").asText()).isEqualTo("unsupported_field");
        Response badType = executeSql(ADMIN, "{\"sql\": 7, \"connection_name\": \"duck\"}", null);
        assertThat(badType.getStatus()).isEqualTo(400);
        assertThat(json(badType).get("code").asText()).isEqualTo("invalid_body");
        Response stream = executeSql(ADMIN, "{\"sql\": \"SELECT 1\", \"connection_name\": \"duck\", "
                + "\"stream\": true, \"format\": \"json\"}", null);
        assertThat(stream.getStatus()).isEqualTo(400);
        assertThat(json(stream).get("code").asText()).isEqualTo("invalid_stream");
    }

    @Test
    void theGuardsRefusalIsAnEnvelope() {
        Response r = executeSql(ADMIN, "{\"sql\": \"DELETE FROM t\", \"connection_name\": \"duck\"}", null);
        assertThat(r.getStatus()).isEqualTo(403);
        assertThat(json(r).get("code").asText()).isEqualTo("read_only");
    }

    @Test
    void anUnknownSavedQueryIs404() {
        Response r = RESOURCES.target("/q/nothing").request().header("X-API-Key", ADMIN).get();
        assertThat(r.getStatus()).isEqualTo(404);
        assertThat(json(r).get("code").asText()).isEqualTo("query_not_found");
    }
}
