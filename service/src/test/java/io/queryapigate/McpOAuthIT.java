package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.testing.DropwizardTestSupport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MCP server as an OAuth 2.1 protected resource (RFC 9728) with {@code mcp.oauth}: its metadata, the challenges
 * that point a client at it, and bearer tokens checked for their issuer, signature, audience (the resource URL) and
 * scope. The issuer is a JWKS served by this test (the Keycloak test realm's tokens carry the REST audience
 * {@code queryapigate-api}, not a resource URL, and the realm is fixed at its start), signing real RS256 tokens.
 */
class McpOAuthIT {
    private static final String RESOURCE = "http://localhost/mcp";
    private static final String METADATA = "http://localhost/.well-known/oauth-protected-resource/mcp";
    private static RSAKey signing;
    private static HttpServer issuerServer;
    private static String issuer;
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static Http http;

    @BeforeAll
    static void start() throws Exception {
        signing = new RSAKeyGenerator(2048).keyID("mcp-1").generate();
        issuerServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuerServer.createContext("/jwks", exchange -> {
            byte[] body = new JWKSet(signing.toPublicJWK()).toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        issuerServer.start();
        issuer = "http://127.0.0.1:" + issuerServer.getAddress().getPort();
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + "mcp:\n  oauth:\n    resourceUrl: " + RESOURCE + "\n    authorizationServer: " + issuer
                + "\n    jwksUrl: " + issuer + "/jwks\n    role: agents\n");
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        http = new Http("http://127.0.0.1:" + app.getLocalPort());
        Reply role = http.post("/api/v1/roles", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "agents",
                "queries", List.of("film"))));
        assertThat(role.status()).as(role.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.after();
        }
        if (issuerServer != null) {
            issuerServer.stop(0);
        }
    }

    private static String token(String audience, String scope) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).subject("agent-7").audience(audience)
                .issueTime(new Date()).expirationTime(new Date(System.currentTimeMillis() + 300_000));
        if (scope != null) {
            claims.claim("scope", scope);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("mcp-1").build(),
                claims.build());
        jwt.sign(new RSASSASigner(signing));
        return jwt.serialize();
    }

    private static Reply ping(String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getLocalPort() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build());
    }

    @Test
    void theMetadataTellsClientsWhereToSignIn() {
        for (String path : List.of("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp")) {
            Reply r = http.get(path, null);
            assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
            assertThat(r.json().get("resource").asText()).isEqualTo(RESOURCE);
            assertThat(r.json().get("authorization_servers").get(0).asText()).isEqualTo(issuer);
            assertThat(r.json().get("scopes_supported").get(0).asText()).isEqualTo("queryapigate.mcp");
            assertThat(r.json().get("bearer_methods_supported").get(0).asText()).isEqualTo("header");
        }
        Reply none = ping(null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer resource_metadata=\"" + METADATA
                + "\", scope=\"queryapigate.mcp\"");
        Reply status = http.get("/api/v1/mcp/status", TestingConfig.ADMIN_KEY);
        assertThat(status.json().get("oauth").get("metadata_url").asText()).isEqualTo(METADATA);
    }

    @Test
    void aTokenForTheResourceWithItsScopeIsLetIn() throws Exception {
        String token = token(RESOURCE, "openid queryapigate.mcp");
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + app.getLocalPort())
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.initialize();
            assertThat(client.listTools().tools().stream().map(McpSchema.Tool::name).toList())
                    .as("the role's grants").containsExactly("film");
            assertThat(client.callTool(new McpSchema.CallToolRequest("film", Map.of("film_id", 2))).isError())
                    .isFalse();
        }
    }

    @Test
    void otherTokensAreRefusedWithTheChallenge() throws Exception {
        Reply noScope = ping("Bearer " + token(RESOURCE, "openid profile"));
        assertThat(noScope.status()).as(noScope.body()).isEqualTo(403);
        assertThat(noScope.json().get("code").asText()).isEqualTo("insufficient_scope");
        assertThat(noScope.header("WWW-Authenticate")).isEqualTo("Bearer error=\"insufficient_scope\","
                + " resource_metadata=\"" + METADATA + "\", scope=\"queryapigate.mcp\"");
        Reply otherAudience = ping("Bearer " + token("queryapigate-api", "queryapigate.mcp"));
        assertThat(otherAudience.status()).isEqualTo(401);
        assertThat(otherAudience.header("WWW-Authenticate")).startsWith("Bearer error=\"invalid_token\",");
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("mcp-1").generate();
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("mcp-1").build(),
                SignedJWT.parse(token(RESOURCE, "queryapigate.mcp")).getJWTClaimsSet());
        forged.sign(new RSASSASigner(stranger));
        assertThat(ping("Bearer " + forged.serialize()).status()).isEqualTo(401);
        assertThat(ping("Bearer " + TestingConfig.ADMIN_KEY).status()).as("API keys still work").isEqualTo(200);
    }
}
