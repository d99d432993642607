package io.queryapigate;

import static io.queryapigate.testing.TestingConfig.startAndStop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingKeycloak;
import io.queryapigate.testing.TestingPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Signed-in users against the real Keycloak of the tests and a real PostgreSQL: tokens from password grants and
 * client credentials work, rows are scoped by the token's {@code org_id} ({@code from_claim}), and every forgery or
 * foreign token is the same 401 as an unknown key. A second, HMAC issuer (tokens this test signs) shows several
 * issuers side by side, and per-person limits.
 */
class JwtCallersIT {
    private static final String BACKEND = "https://backend.test";
    private static final String BACKEND_SECRET = "backend-secret-of-at-least-32-bytes!!";
    private static final String QUERY = "/q/tenant_orders";

    private static TestingPostgres.Database pg;
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static Http http;
    private static Jdbi store;

    @BeforeAll
    static void start() throws Exception {
        String issuer = TestingKeycloak.issuer();
        pg = TestingPostgres.freshDatabase("qag_jwt");
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, tenant TEXT NOT NULL, item TEXT NOT NULL)");
            s.execute("INSERT INTO orders VALUES (1, 'acme', 'anvil'), (2, 'globex', 'laser'), (3, 'acme', 'rocket'),"
                    + " (4, 'initech', 'stapler'), (5, 'globex', 'doomsday device')");
        }
        Path config = TestingConfig.write("  pg:\n    dialect: postgres\n    url: " + pg.url() + "\n    user: "
                + pg.user() + "\n    password: " + pg.password() + "\n    poolSize: 2\n",
                "jwt:\n  issuers:\n"
                        + "    - issuer: " + issuer + "\n"
                        + "      audiences: [" + TestingKeycloak.AUDIENCE + "]\n"
                        + "      userClaim: preferred_username\n"
                        + "      roleClaim: realm_access.roles\n"
                        + "      defaultRole: member\n"
                        + "    - issuer: " + BACKEND + "\n"
                        + "      algorithms: [HS256]\n"
                        + "      hmacSecret: " + BACKEND_SECRET + "\n"
                        + "      roleClaim: role\n");
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        http = new Http("http://127.0.0.1:" + app.getLocalPort());
        store = Jdbi.create("jdbc:sqlite:" + config.getParent().resolve("queryapigate.db"));
        String tenantQueries = "{\"queries\": [\"tenant_orders\", \"order_count\", \"cached_orders\"]}";
        role("analyst", tenantQueries);
        role("viewer-role", tenantQueries);
        role("member", tenantQueries);
        role("limited", "{\"queries\": [\"order_count\"], \"rate_limit\": \"3/minute\"}");
        role("elsewhere-only", "{\"queries\": [\"order_count\"], \"allowed_ips\": [\"10.0.0.0/8\"]}");
        save("tenant_orders", "SELECT id, item FROM orders WHERE tenant = :tenant ORDER BY id",
                Map.of("tenant", Map.of("type", "str", "from_claim", "org_id")));
        save("order_count", "SELECT count(*) AS n FROM orders", Map.of());
        Map<String, Object> cached = new LinkedHashMap<>();
        cached.put("name", "cached_orders");
        cached.put("sql", "SELECT id, item FROM orders WHERE tenant = :tenant ORDER BY id");
        cached.put("parameters", Map.of("tenant", Map.of("type", "str", "from_claim", "org_id")));
        cached.put("connection_name", "pg");
        cached.put("publish", true);
        cached.put("cache_ttl", 300);
        Http.Reply r = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(cached));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.after();
        }
        if (pg != null) {
            pg.dropDatabase();
        }
    }

    private static void role(String name, String grantsJson) {
        String body = "{\"name\": \"" + name + "\", " + grantsJson.substring(1);
        Http.Reply r = http.post("/api/v1/roles", TestingConfig.ADMIN_KEY, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static void save(String name, String sql, Map<String, Object> parameters) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("parameters", parameters);
        body.put("connection_name", "pg");
        body.put("publish", true);
        Http.Reply r = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static Http.Reply bearer(String path, String token) {
        return http.request("GET", path, null, null, "Authorization", "Bearer " + token);
    }

    private static List<String> items(Http.Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<String> items = new ArrayList<>();
        r.json().forEach(row -> items.add(row.get("item").asText()));
        return items;
    }

    @Test
    void eachUserSeesOnlyTheirOrganisationsRows() {
        String alice = TestingKeycloak.userToken("alice");
        String bob = TestingKeycloak.userToken("bob");
        String dave = TestingKeycloak.userToken("dave");
        assertThat(items(bearer(QUERY, alice))).containsExactly("anvil", "rocket");
        assertThat(items(bearer(QUERY, bob))).containsExactly("laser", "doomsday device");
        assertThat(items(bearer(QUERY, dave))).as("dave: org acme, no realm role, the default role")
                .containsExactly("anvil", "rocket");
        // the console client's tokens carry the audience too
        assertThat(items(bearer(QUERY, TestingKeycloak.userToken(TestingKeycloak.CONSOLE,
                TestingKeycloak.CONSOLE_SECRET, "alice")))).containsExactly("anvil", "rocket");
        // the X-API-Key header takes a token as well
        assertThat(items(http.get(QUERY, alice))).containsExactly("anvil", "rocket");
    }

    @Test
    void aSignedInUserIsNoAdministrator() {
        String alice = TestingKeycloak.userToken("alice");
        assertThat(bearer("/api/v1/queries", alice).status()).isEqualTo(403);
        assertThat(bearer("/api/v1/api-keys", alice).status()).isEqualTo(403);
        http.request("POST", "/execute_sql", null, Http.json(Map.of("sql", "SELECT 1", "connection_name", "pg")),
                "Authorization", "Bearer " + alice).assertRefused(403, "adhoc_not_granted");
    }

    @Test
    void aCachedAnswerIsNeverAnotherTenants() {
        String alice = TestingKeycloak.userToken("alice");
        String bob = TestingKeycloak.userToken("bob");
        for (int i = 0; i < 2; i++) { // the second round comes from the cache
            assertThat(items(bearer("/q/cached_orders", alice))).containsExactly("anvil", "rocket");
            assertThat(items(bearer("/q/cached_orders", bob))).containsExactly("laser", "doomsday device");
        }
        assertThat(bearer("/q/cached_orders", alice).header("X-Cache")).as("served from the cache").isEqualTo("HIT");
    }

    @Test
    void aUserCannotChooseTheTenant() {
        String alice = TestingKeycloak.userToken("alice");
        Http.Reply sent = bearer(QUERY + "?tenant=globex", alice);
        sent.assertRefused(400, "param_from_claim");
        assertThat(sent.json().get("errors").has("tenant")).isTrue();
        Http.Reply inBody = http.request("POST", QUERY, null, "{\"params\": {\"tenant\": \"globex\"}}",
                "Authorization", "Bearer " + alice);
        inBody.assertRefused(400, "param_from_claim");
        Http.Reply twice = bearer(QUERY + "?tenant=acme&tenant=globex", alice);
        twice.assertRefused(400, "param_from_claim");
    }

    @Test
    void aCallerWithoutTheClaimIsRefused() {
        // carol has no org_id (and no role: the default role lets her in)
        bearer(QUERY, TestingKeycloak.userToken("carol")).assertRefused(403, "claim_missing");
        // the reporting application's own token: accepted, but it has no org_id either
        String app = TestingKeycloak.clientToken(TestingKeycloak.REPORTING, TestingKeycloak.REPORTING_SECRET);
        assertThat(bearer("/q/order_count", app).status()).isEqualTo(200);
        bearer(QUERY, app).assertRefused(403, "claim_missing");
        // a key without claims is told to sign in; the administrator key supplies the value, for testing
        String key = http.key("reporting-key", Map.of("queries", List.of("tenant_orders")));
        http.get(QUERY, key).assertRefused(403, "sign_in_required");
        assertThat(items(http.get(QUERY + "?tenant=globex", TestingConfig.ADMIN_KEY)))
                .containsExactly("laser", "doomsday device");
        http.get(QUERY, TestingConfig.ADMIN_KEY).assertRefused(400, "param_required");
    }

    @Test
    void theDocumentAndTheCatalogOfferNoClaimParameter() {
        JsonNode doc = http.get("/openapi.json", TestingConfig.ADMIN_KEY).json();
        JsonNode get = doc.at("/paths/~1q~1tenant_orders/get");
        assertThat(get.isMissingNode()).as(doc.at("/paths").toString()).isFalse();
        assertThat(get.get("parameters").toString()).doesNotContain("\"tenant\"");
        JsonNode catalog = http.request("GET", "/catalog", null, null, "Authorization", "Bearer "
                + TestingKeycloak.userToken("alice")).json();
        assertThat(catalog.toString()).contains("tenant_orders").doesNotContain("\"tenant\"");
    }

    @Test
    void forgedAndForeignTokensAreTheSame401AsABadKey() throws Exception {
        String alice = TestingKeycloak.userToken("alice");
        assertThat(bearer(QUERY, alice).status()).as("the genuine token").isEqualTo(200);
        String[] parts = alice.split("\\.");
        JsonNode header = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                Base64URL.from(parts[0]).decodeToString());
        JsonNode payload = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                Base64URL.from(parts[1]).decodeToString());
        Map<String, String> forged = new LinkedHashMap<>();

        forged.put("wrong kid", encode(((com.fasterxml.jackson.databind.node.ObjectNode) header.deepCopy())
                .put("kid", "not-a-key-of-this-realm")) + "." + parts[1] + "." + parts[2]);
        forged.put("alg none", encode(mapper().createObjectNode().put("alg", "none").put("typ", "JWT")) + "."
                + parts[1] + ".");
        forged.put("alg none, signature kept", encode(mapper().createObjectNode().put("alg", "none")) + "."
                + parts[1] + "." + parts[2]);
        forged.put("org_id injected into the payload", parts[0] + "." + encode(((com.fasterxml.jackson.databind.node
                .ObjectNode) payload.deepCopy()).put("org_id", "globex")) + "." + parts[2]);
        forged.put("org_id injected into the header", encode(((com.fasterxml.jackson.databind.node.ObjectNode) header
                .deepCopy()).put("org_id", "globex")) + "." + parts[1] + "." + parts[2]);
        forged.put("signature dropped", parts[0] + "." + parts[1] + ".");
        RSAKey realmKey = realmRsaKey(header.get("kid").asText());
        int i = 0;
        for (byte[] secret : List.of(realmKey.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8),
                realmKey.toRSAPublicKey().getEncoded(), ("-----BEGIN PUBLIC KEY-----\n"
                        + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(
                                realmKey.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n")
                        .getBytes(StandardCharsets.US_ASCII))) {
            SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(realmKey.getKeyID()).build(),
                    JWTClaimsSet.parse(payload.toString()));
            hs.sign(new MACSigner(secret));
            forged.put("HS256 with the realm's public key as the secret #" + i++, hs.serialize());
        }
        forged.put("another client's audience (other-app)", TestingKeycloak.userToken(TestingKeycloak.OTHER,
                TestingKeycloak.OTHER_SECRET, "alice"));
        forged.put("a second real issuer, not configured (realm master)", masterToken());
        forged.put("the HMAC issuer's name on a Keycloak-signed token", parts[0] + "." + encode(((com.fasterxml
                .jackson.databind.node.ObjectNode) payload.deepCopy()).put("iss", BACKEND)) + "." + parts[2]);
        forged.put("expired (HMAC issuer)", backend("someone", "member", -120));
        forged.put("signed with another secret (HMAC issuer)", backendSignedWith("x".repeat(40), "someone",
                "member", 300));
        forged.put("no existing role (HMAC issuer)", backend("someone", "nobody", 300));
        Http.Reply unknownKey = http.get(QUERY, "sk_not_a_key_0123456789");
        assertThat(unknownKey.status()).isEqualTo(401);
        for (Map.Entry<String, String> f : forged.entrySet()) {
            Http.Reply r = bearer(QUERY, f.getValue());
            assertThat(r.status()).as(f.getKey() + ": " + r.body()).isEqualTo(401);
            assertThat(r.json().get("code").asText()).as(f.getKey()).isEqualTo("unauthorized");
            assertThat(r.json().get("error").asText()).as(f.getKey())
                    .isEqualTo(unknownKey.json().get("error").asText());
        }
        assertThat(items(bearer(QUERY, alice))).as("the genuine token, still").containsExactly("anvil", "rocket");
        assertThat(bearer("/q/order_count", backend("someone", "member", 300)).status())
                .as("the HMAC issuer's genuine token").isEqualTo(200);
    }

    @Test
    void limitsAndAddressesApplyPerPerson() {
        String ann = backend("ann", "limited", 300);
        String ben = backend("ben", "limited", 300);
        for (int i = 0; i < 3; i++) {
            assertThat(bearer("/q/order_count", ann).status()).isEqualTo(200);
        }
        bearer("/q/order_count", ann).assertRefused(429, "rate_limited");
        assertThat(bearer("/q/order_count", ben).status()).as("another person of the same role").isEqualTo(200);
        assertThat(bearer("/q/order_count", backend("cid", "elsewhere-only", 300)).status()).isEqualTo(401);
    }

    @Test
    void historyAndEventsNameThePersonAndTheRole() {
        String bob = TestingKeycloak.userToken("bob");
        assertThat(bearer(QUERY, bob).status()).isEqualTo(200);
        JsonNode page = http.get("/api/v1/history?key=jwt:bob", TestingConfig.ADMIN_KEY).json();
        assertThat(page.get("items").size()).as(page.toString()).isPositive();
        JsonNode run = page.get("items").get(0);
        assertThat(run.get("key_name").asText()).isEqualTo("jwt:bob");
        assertThat(run.get("issuer").asText()).isEqualTo(TestingKeycloak.issuer());
        assertThat(run.get("role").asText()).isEqualTo("viewer-role");
        JsonNode ofQuery = http.get("/api/v1/queries/tenant_orders/history?key=jwt:bob", TestingConfig.ADMIN_KEY)
                .json();
        assertThat(ofQuery.get("items").get(0).get("key_name").asText()).isEqualTo("jwt:bob");
        List<Map<String, Object>> events = store.withHandle(h -> h.createQuery("SELECT e.role, p.name, p.issuer,"
                + " p.subject FROM events e JOIN principals p ON e.key_id = -1 - p.id WHERE p.name = 'jwt:bob'")
                .mapToMap().list());
        assertThat(events).isNotEmpty();
        assertThat(events.get(0)).containsEntry("role", "viewer-role").containsEntry("issuer",
                TestingKeycloak.issuer()).containsEntry("subject", "b0b00000-0000-4000-8000-000000000002");
    }

    @Test
    void aBadJwtBlockStopsStartupNamingTheKey() {
        Path hmacWithJwks = TestingConfig.write(TestingConfig.demoConnection(), "jwt:\n  issuers:\n"
                + "    - issuer: " + BACKEND + "\n      algorithms: [HS256]\n      hmacSecret: " + BACKEND_SECRET
                + "\n      jwksUrl: " + BACKEND + "/jwks\n      roleClaim: role\n");
        assertThatThrownBy(() -> startAndStop(hmacWithJwks)).hasStackTraceContaining("jwt.issuers[0].jwksUrl");
        Path unknownAlgorithm = TestingConfig.write(TestingConfig.demoConnection(), "jwt:\n  issuers:\n"
                + "    - issuer: " + BACKEND + "\n      algorithms: [RS257]\n      audiences: [x]\n"
                + "      roleClaim: role\n");
        assertThatThrownBy(() -> startAndStop(unknownAlgorithm)).hasStackTraceContaining("jwt.issuers[0].algorithms")
                .hasStackTraceContaining("RS257");
        Path noAudience = TestingConfig.write(TestingConfig.demoConnection(), "jwt:\n  issuers:\n"
                + "    - issuer: " + BACKEND + "\n      roleClaim: role\n");
        assertThatThrownBy(() -> startAndStop(noAudience)).hasStackTraceContaining("jwt.issuers[0].audiences");
    }

    private static com.fasterxml.jackson.databind.ObjectMapper mapper() {
        return new com.fasterxml.jackson.databind.ObjectMapper();
    }

    private static String encode(JsonNode json) {
        return Base64URL.encode(json.toString()).toString();
    }

    private static String backend(String user, String role, int validSeconds) {
        return backendSignedWith(BACKEND_SECRET, user, role, validSeconds);
    }

    private static String backendSignedWith(String secret, String user, String role, int validSeconds) {
        try {
            long now = System.currentTimeMillis();
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder()
                    .issuer(BACKEND).subject(user).claim("role", role).issueTime(new Date(now - 300_000))
                    .expirationTime(new Date(now + validSeconds * 1000L)).build());
            jwt.sign(new MACSigner(secret));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RSAKey realmRsaKey(String kid) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            String body = client.send(HttpRequest.newBuilder(URI.create(TestingKeycloak.jwksUrl())).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return (RSAKey) JWKSet.parse(body).getKeyByKeyId(kid);
        }
    }

    // a real token of another issuer on the same server: the master realm's administrator through admin-cli
    private static String masterToken() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(TestingKeycloak.url()
                    + "/realms/master/protocol/openid-connect/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=password&client_id=admin-cli&username=admin"
                            + "&password=admin")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return mapper().readTree(r.body()).get("access_token").asText();
        }
    }
}
