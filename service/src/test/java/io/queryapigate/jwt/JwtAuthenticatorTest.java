package io.queryapigate.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.util.Duration;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.Quota;
import io.queryapigate.auth.RoleGrants;
import io.queryapigate.config.JwtConfig;
import io.queryapigate.store.PrincipalDao;
import io.queryapigate.store.Store;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JWT verification against a real JWKS served over HTTP by this test (counting its fetches), with tokens signed by
 * keys the test makes, and forged ones: each forgery must be refused while the same token made properly is accepted.
 */
class JwtAuthenticatorTest {
    private static final String ISSUER = "https://idp.test/realms/acme";
    private static final String AUDIENCE = "queryapigate-api";
    private static final String SECRET = "an-hmac-secret-of-at-least-32-bytes!";

    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };
    private final AtomicInteger jwksHits = new AtomicInteger();
    private final AtomicInteger discoveryHits = new AtomicInteger();
    private final AtomicReference<JWKSet> published = new AtomicReference<>();
    private final Map<String, RoleGrants.Role> roles = new java.util.concurrent.ConcurrentHashMap<>();
    private HttpServer server;
    private String base;
    private Jdbi store;
    private RSAKey rsa;
    private ECKey ec;
    private OctetKeyPair ed;

    @BeforeEach
    void setUp() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        ed = new OctetKeyPairGenerator(Curve.Ed25519).keyID("ed-1").generate();
        published.set(new JWKSet(List.<JWK>of(rsa.toPublicJWK(), ec.toPublicJWK(), ed.toPublicJWK())));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jwks", exchange -> {
            jwksHits.incrementAndGet();
            byte[] body = published.get().toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        server.createContext("/.well-known/openid-configuration", exchange -> {
            discoveryHits.incrementAndGet();
            byte[] body = ("{\"issuer\": \"" + base + "\", \"jwks_uri\": \"" + base + "/jwks\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        String url = "jdbc:sqlite:" + Files.createTempDirectory("qag-jwt-").resolve("store.db");
        Store.migrate(url, null, null);
        store = Jdbi.create(url).installPlugin(new SqlObjectPlugin());
        roles.put("analyst", role(1, "analyst", "default", Grants.reach(List.of(), List.of("orders"), false)));
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
    }

    private static RoleGrants.Role role(long id, String name, String workspace, Grants grants) {
        return new RoleGrants.Role(id, name, workspace, grants);
    }

    private JwtConfig.Issuer issuer(String... algorithms) {
        JwtConfig.Issuer i = new JwtConfig.Issuer();
        i.setIssuer(ISSUER);
        i.setJwksUrl(base + "/jwks");
        i.setAudiences(List.of(AUDIENCE));
        i.setAlgorithms(List.of(algorithms.length == 0 ? new String[] {"RS256"} : algorithms));
        i.setUserClaim("preferred_username");
        i.setRoleClaim("realm_access.roles");
        return i;
    }

    private JwtAuthenticator authenticator(JwtConfig.Issuer... issuers) {
        JwtConfig config = new JwtConfig();
        config.setIssuers(new ArrayList<>(List.of(issuers)));
        return new JwtAuthenticator(config, name -> Optional.ofNullable(roles.get(name)),
                store.onDemand(PrincipalDao.class), clock, HttpClient.newHttpClient());
    }

    private JWTClaimsSet.Builder claims() {
        long s = now.get();
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("sub-alice")
                .claim("preferred_username", "alice").claim("org_id", "acme")
                .claim("realm_access", Map.of("roles", List.of("offline_access", "analyst")))
                .issueTime(new Date(s)).expirationTime(new Date(s + 300_000));
    }

    private static String sign(JWK key, JWSAlgorithm alg, JWTClaimsSet claims) throws Exception {
        JWSSigner signer = key instanceof RSAKey r ? new RSASSASigner(r) : key instanceof ECKey e ? new ECDSASigner(e)
                : new Ed25519Signer((OctetKeyPair) key);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT)
                .build(), claims);
        jwt.sign(signer);
        return jwt.serialize();
    }

    private String rs256(JWTClaimsSet claims) throws Exception {
        return sign(rsa, JWSAlgorithm.RS256, claims);
    }

    @Test
    void aGoodTokenIsASignedInUserWithTheRolesGrants() throws Exception {
        Caller caller = authenticator(issuer()).authenticate(rs256(claims().build())).orElseThrow();
        assertThat(caller.name()).isEqualTo("jwt:alice");
        assertThat(caller.admin()).isFalse();
        assertThat(Caller.principalId(caller.keyId())).isPositive();
        assertThat(caller.grants().queries()).containsExactly("orders");
        Identity who = caller.identity();
        assertThat(who.kind()).isEqualTo(Identity.Kind.USER);
        assertThat(who.role()).isEqualTo("analyst");
        assertThat(who.issuer()).isEqualTo(ISSUER);
        assertThat(who.subject()).isEqualTo("sub-alice");
        assertThat(who.workspace()).isEqualTo("default");
        assertThat(who.claims()).containsEntry("org_id", "acme");
        String name = store.withHandle(h -> h.createQuery("SELECT name FROM principals WHERE subject = 'sub-alice'"
                + " AND issuer = :i AND kind = 'jwt'").bind("i", ISSUER).mapTo(String.class).one());
        assertThat(name).isEqualTo("jwt:alice");
    }

    @Test
    void aUserSeenBeforeIsRememberedWithoutReadingTheStore() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer());
        long first = jwt.authenticate(rs256(claims().build())).orElseThrow().keyId();
        // the row goes away: were the store read again, the user would get a new id
        store.useHandle(h -> h.execute("DELETE FROM principals"));
        assertThat(jwt.authenticate(rs256(claims().build())).orElseThrow().keyId()).isEqualTo(first);
        JWTClaimsSet bob = claims().subject("sub-bob").claim("preferred_username", "bob").build();
        assertThat(jwt.authenticate(rs256(bob)).orElseThrow().keyId()).isNotEqualTo(first);
    }

    @Test
    void twoInstancesOnOnePostgresStoreCountAUserAsOnePerson() throws Exception {
        io.queryapigate.testing.TestingPostgres.Database pg =
                io.queryapigate.testing.TestingPostgres.freshDatabase("qag_jwt_store");
        try {
            Store.migrate(pg.url(), pg.user(), pg.password());
            Jdbi shared = Jdbi.create(pg.url(), pg.user(), pg.password()).installPlugin(new SqlObjectPlugin());
            JwtConfig config = new JwtConfig();
            config.setIssuers(new ArrayList<>(List.of(issuer())));
            RoleGrants grants = name -> Optional.ofNullable(roles.get(name));
            JwtAuthenticator one = new JwtAuthenticator(config, grants, shared.onDemand(PrincipalDao.class), clock,
                    HttpClient.newHttpClient());
            JwtAuthenticator two = new JwtAuthenticator(config, grants, shared.onDemand(PrincipalDao.class), clock,
                    HttpClient.newHttpClient());
            String token = rs256(claims().build());
            long first = one.authenticate(token).orElseThrow().keyId();
            assertThat(two.authenticate(token).orElseThrow().keyId()).isEqualTo(first);
            long rows = shared.withHandle(h -> h.createQuery("SELECT count(*) FROM principals").mapTo(Long.class)
                    .one());
            assertThat(rows).isEqualTo(1);
        } finally {
            pg.dropDatabase();
        }
    }

    @Test
    void everyAllowedAlgorithmWorksWithItsOwnKeyType() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer("RS256", "PS256", "ES256", "EdDSA"));
        assertThat(jwt.authenticate(sign(rsa, JWSAlgorithm.RS256, claims().build()))).isPresent();
        assertThat(jwt.authenticate(sign(rsa, JWSAlgorithm.PS256, claims().build()))).isPresent();
        assertThat(jwt.authenticate(sign(ec, JWSAlgorithm.ES256, claims().build()))).isPresent();
        assertThat(jwt.authenticate(sign(ed, JWSAlgorithm.EdDSA, claims().build()))).isPresent();
        // RS512 is not allowed for this issuer, though the key could make it
        assertThat(jwt.authenticate(sign(rsa, JWSAlgorithm.RS512, claims().build()))).isEmpty();
        // only RS256 allowed: the EC and Ed25519 tokens are refused
        JwtAuthenticator rsOnly = authenticator(issuer());
        assertThat(rsOnly.authenticate(sign(ec, JWSAlgorithm.ES256, claims().build()))).isEmpty();
        assertThat(rsOnly.authenticate(sign(ed, JWSAlgorithm.EdDSA, claims().build()))).isEmpty();
    }

    @Test
    void aKeyIdNamingAnotherKeysTypeIsRefused() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer("RS256", "ES256"));
        // an RSA signature under the EC key's id: no RSA key has that id
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("ec-1").build(),
                claims().build());
        token.sign(new RSASSASigner(rsa));
        assertThat(jwt.authenticate(token.serialize())).isEmpty();
    }

    @Test
    void forgeriesAreRefused() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer());
        assertThat(jwt.authenticate(rs256(claims().build()))).as("the genuine token").isPresent();

        // alg none: an unsecured JWT, and one that claims none but carries a signature
        String none = new PlainJWT(claims().build()).serialize();
        assertThat(jwt.authenticate(none)).isEmpty();
        String[] good = rs256(claims().build()).split("\\.");
        String noneHeader = Base64URL.encode("{\"alg\":\"none\",\"kid\":\"rsa-1\"}").toString();
        assertThat(jwt.authenticate(noneHeader + "." + good[1] + "." + good[2])).isEmpty();
        assertThat(jwt.authenticate(noneHeader + "." + good[1] + ".")).isEmpty();

        // HS256 signed with the RSA public key as the secret, in every form an attacker might guess
        for (byte[] secret : List.of(rsa.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8),
                rsa.toRSAPublicKey().getEncoded(), pem(rsa.toRSAPublicKey().getEncoded()))) {
            SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(),
                    claims().build());
            hs.sign(new MACSigner(secret));
            assertThat(jwt.authenticate(hs.serialize())).isEmpty();
        }
        JwtAuthenticator lax = authenticator(issuer("RS256", "ES256", "EdDSA", "PS256"));
        SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(),
                claims().build());
        hs.sign(new MACSigner(rsa.toRSAPublicKey().getEncoded()));
        assertThat(lax.authenticate(hs.serialize())).isEmpty();

        // a claim injected into the payload, the signature kept
        String injected = Base64URL.encode(claims().claim("org_id", "globex").build().toString()).toString();
        assertThat(jwt.authenticate(good[0] + "." + injected + "." + good[2])).isEmpty();
        // the header re-encoded to name another key
        String otherKid = Base64URL.encode("{\"alg\":\"RS256\",\"kid\":\"ec-1\"}").toString();
        assertThat(jwt.authenticate(otherKid + "." + good[1] + "." + good[2])).isEmpty();

        // a key that is not the issuer's (same kid, another RSA key)
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        assertThat(jwt.authenticate(sign(stranger, JWSAlgorithm.RS256, claims().build()))).isEmpty();
        // the attacker's own key, offered in the header (jwk) or at an address of theirs (jku)
        SignedJWT offered = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1")
                .jwk(stranger.toPublicJWK()).jwkURL(java.net.URI.create(base + "/attacker-jwks")).build(),
                claims().build());
        offered.sign(new RSASSASigner(stranger));
        assertThat(jwt.authenticate(offered.serialize())).isEmpty();
        // an unknown kid
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("who-knows").generate();
        assertThat(jwt.authenticate(sign(unknown, JWSAlgorithm.RS256, claims().build()))).isEmpty();

        // claims
        assertThat(jwt.authenticate(rs256(claims().issuer("https://evil.test/realms/acme").build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().issuer(null).build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().audience("other-api").build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().audience((String) null).build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().expirationTime(null).build()))).as("no exp").isEmpty();
        assertThat(jwt.authenticate(rs256(claims().claim("exp", "tomorrow").build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().claim("preferred_username", true).build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().claim("preferred_username", "").build()))).isEmpty();
        assertThat(jwt.authenticate("a.b.c".repeat(2000))).isEmpty();
        assertThat(jwt.authenticate("not-even.a-token.x")).isEmpty();
    }

    private static byte[] pem(byte[] der) {
        return ("-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder(64, "\n".getBytes())
                .encodeToString(der) + "\n-----END PUBLIC KEY-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void timesAreCheckedWithTheClockSkew() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer());
        long s = now.get();
        assertThat(jwt.authenticate(rs256(claims().expirationTime(new Date(s - 20_000)).build())))
                .as("expired 20 s ago, within the 30 s skew").isPresent();
        assertThat(jwt.authenticate(rs256(claims().expirationTime(new Date(s - 31_000)).build())))
                .as("expired 31 s ago").isEmpty();
        assertThat(jwt.authenticate(rs256(claims().notBeforeTime(new Date(s + 60_000)).build())))
                .as("not valid before a minute from now").isEmpty();
        assertThat(jwt.authenticate(rs256(claims().notBeforeTime(new Date(s + 10_000)).build()))).isPresent();
        assertThat(jwt.authenticate(rs256(claims().issueTime(new Date(s + 60_000)).build())))
                .as("issued in the future").isEmpty();
        String soon = rs256(claims().expirationTime(new Date(s + 60_000)).build());
        assertThat(jwt.authenticate(soon)).isPresent();
        now.addAndGet(89_000);
        assertThat(jwt.authenticate(soon)).as("remembered, within exp + skew").isPresent();
        now.addAndGet(2_000);
        assertThat(jwt.authenticate(soon)).as("a remembered token expires too").isEmpty();
        now.set(s);
        JwtConfig.Issuer strict = issuer();
        strict.setClockSkew(Duration.seconds(0));
        assertThat(authenticator(strict).authenticate(rs256(claims().expirationTime(new Date(s - 1_000)).build())))
                .isEmpty();
    }

    @Test
    void anUnknownKeyIdRefetchesAtMostOnceIn30Seconds() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer());
        assertThat(jwt.authenticate(rs256(claims().build()))).isPresent();
        assertThat(jwksHits.get()).isEqualTo(1);
        RSAKey made = new RSAKeyGenerator(2048).generate();
        for (int i = 0; i < 50; i++) { // made-up key ids within 30 s of the first fetch: none fetches again
            assertThat(jwt.authenticate(sign(new RSAKey.Builder(made).keyID("made-up-" + i).build(),
                    JWSAlgorithm.RS256, claims().build()))).isEmpty();
            now.addAndGet(100);
        }
        assertThat(jwksHits.get()).isEqualTo(1);
        now.addAndGet(30_000);
        for (int i = 0; i < 50; i++) { // after the cooldown: one refetch, then nothing for 30 s again
            assertThat(jwt.authenticate(sign(new RSAKey.Builder(made).keyID("made-up-again-" + i).build(),
                    JWSAlgorithm.RS256, claims().build()))).isEmpty();
            now.addAndGet(100);
        }
        assertThat(jwksHits.get()).isEqualTo(2);
        assertThat(jwt.keyFetches(ISSUER)).isEqualTo(2);
        assertThat(jwt.authenticate(rs256(claims().build()))).as("known keys still work").isPresent();

        // the provider rotates: a new key is published; after the cooldown its first token makes one fetch
        RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
        published.set(new JWKSet(List.<JWK>of(rsa.toPublicJWK(), next.toPublicJWK())));
        assertThat(jwt.authenticate(sign(next, JWSAlgorithm.RS256, claims().build()))).as("within the cooldown")
                .isEmpty();
        assertThat(jwksHits.get()).isEqualTo(2);
        now.addAndGet(30_000);
        assertThat(jwt.authenticate(sign(next, JWSAlgorithm.RS256, claims().build()))).isPresent();
        assertThat(jwksHits.get()).isEqualTo(3);
        for (int i = 0; i < 20; i++) {
            assertThat(jwt.authenticate(sign(next, JWSAlgorithm.RS256, claims().build()))).isPresent();
        }
        assertThat(jwksHits.get()).as("known keys are not fetched again").isEqualTo(3);
    }

    @Test
    void theJwksIsDiscoveredFromTheIssuer() throws Exception {
        JwtConfig.Issuer discovered = issuer();
        discovered.setIssuer(base);
        discovered.setJwksUrl(null);
        JwtAuthenticator jwt = authenticator(discovered);
        assertThat(jwt.authenticate(rs256(claims().issuer(base).build()))).isPresent();
        assertThat(discoveryHits.get()).isEqualTo(1);
        assertThat(jwksHits.get()).isEqualTo(1);
    }

    @Test
    void hmacIssuersVerifyWithTheirSecretOnly() throws Exception {
        JwtConfig.Issuer hs = issuer("HS256");
        hs.setIssuer("https://backend.test");
        hs.setJwksUrl(null);
        hs.setHmacSecret(SECRET);
        JwtAuthenticator jwt = authenticator(issuer(), hs);
        JWTClaimsSet mine = claims().issuer("https://backend.test").build();
        SignedJWT good = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), mine);
        good.sign(new MACSigner(SECRET));
        assertThat(jwt.authenticate(good.serialize())).isPresent();
        SignedJWT wrong = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), mine);
        wrong.sign(new MACSigner(SECRET.replace('!', '?')));
        assertThat(jwt.authenticate(wrong.serialize())).isEmpty();
        // the HMAC issuer's secret cannot sign for the JWKS issuer, nor an RSA key for the HMAC issuer
        SignedJWT crossed = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        crossed.sign(new MACSigner(SECRET));
        assertThat(jwt.authenticate(crossed.serialize())).isEmpty();
        assertThat(jwt.authenticate(rs256(mine))).isEmpty();
        assertThat(jwksHits.get()).as("the HMAC issuer never fetches keys").isLessThanOrEqualTo(1);
    }

    @Test
    void aTokenNamingNoExistingRoleIsRefused() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer());
        assertThat(jwt.authenticate(rs256(claims().claim("realm_access", Map.of("roles", List.of("nobody")))
                .build()))).isEmpty();
        assertThat(jwt.authenticate(rs256(claims().claim("realm_access", null).build()))).isEmpty();
        // a role changed or removed applies on the next request of a token already verified
        String token = rs256(claims().build());
        assertThat(jwt.authenticate(token).orElseThrow().grants().queries()).containsExactly("orders");
        roles.put("analyst", role(1, "analyst", "default", Grants.reach(List.of(), List.of("other"), false)));
        assertThat(jwt.authenticate(token).orElseThrow().grants().queries()).containsExactly("other");
        roles.remove("analyst");
        assertThat(jwt.authenticate(token)).isEmpty();
        roles.put("analyst", role(1, "analyst", "default", Grants.reach(List.of(), List.of("orders"), false)));
        JwtConfig.Issuer withDefault = issuer();
        withDefault.setDefaultRole("analyst");
        assertThat(authenticator(withDefault).authenticate(rs256(claims().claim("realm_access", null).build()))
                .orElseThrow().identity().role()).isEqualTo("analyst");
    }

    @Test
    void theFirstExistingRoleWinsUnlessRolesAreCombined() throws Exception {
        roles.put("reader", role(2, "reader", "default", new Grants(List.of("pg"), List.of("a"), false, false, null,
                List.of("public.t1"), List.of("10.0.0.0/8"), null, "10/minute", new Quota(100L, null, "day"), 100, 2,
                null)));
        roles.put("writer", role(3, "writer", "default", new Grants(List.of("duck"), List.of("b"), true, true,
                List.of("insert"), List.of("public.t2"), null, null, "5/second", new Quota(50L, 10L, "day"), 50,
                null, java.math.BigDecimal.TEN)));
        roles.put("elsewhere", role(4, "elsewhere", "team-b", Grants.reach(List.of("*"), List.of("*"), true)));
        JWTClaimsSet token = claims().claim("realm_access", Map.of("roles", List.of("nobody", "reader", "writer",
                "elsewhere"))).build();
        Caller first = authenticator(issuer()).authenticate(rs256(token)).orElseThrow();
        assertThat(first.identity().role()).isEqualTo("reader");
        assertThat(first.grants()).isEqualTo(roles.get("reader").grants());

        JwtConfig.Issuer combining = issuer();
        combining.setCombineRoles(true);
        Caller both = authenticator(combining).authenticate(rs256(token)).orElseThrow();
        assertThat(both.identity().role()).isEqualTo("reader,writer");
        Grants g = both.grants();
        assertThat(g.connections()).containsExactly("pg", "duck");
        assertThat(g.queries()).containsExactly("a", "b");
        assertThat(g.adhocSql()).isTrue();
        assertThat(g.allowWrites()).isTrue();
        assertThat(g.allowedWriteOps()).containsExactly("insert");
        assertThat(g.allowedTables()).containsExactly("public.t1", "public.t2");
        assertThat(g.allowedIps()).as("one role is not restricted to addresses").isNull();
        assertThat(g.rateLimit()).isEqualTo("5/second");
        assertThat(g.quota()).isEqualTo(new Quota(100L, null, "day"));
        assertThat(g.maxRows()).isEqualTo(100);
        assertThat(g.maxConcurrent()).isNull();
        assertThat(g.queryTimeout()).isNull();

        JwtConfig.Issuer teamB = issuer();
        teamB.setWorkspace("team-b");
        Caller b = authenticator(teamB).authenticate(rs256(token)).orElseThrow();
        assertThat(b.identity().role()).isEqualTo("elsewhere");
        assertThat(b.workspace()).isEqualTo("team-b");
    }

    @Test
    void verifyingATokenIsCheapAndReadsNothing() throws Exception {
        JwtAuthenticator jwt = authenticator(issuer("RS256", "ES256", "EdDSA"));
        Map<String, String> tokens = Map.of("RS256", rs256(claims().build()),
                "ES256", sign(ec, JWSAlgorithm.ES256, claims().build()),
                "EdDSA", sign(ed, JWSAlgorithm.EdDSA, claims().build()));
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (Map.Entry<String, String> t : tokens.entrySet()) {
            for (int i = 0; i < 2_000; i++) { // warm-up
                jwt.authenticate(t.getValue()).orElseThrow();
            }
            int n = 5_000;
            long bytes = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                jwt.authenticate(t.getValue()).orElseThrow();
            }
            double us = (System.nanoTime() - start) / 1_000.0 / n;
            long perCall = (threads.getCurrentThreadAllocatedBytes() - bytes) / n;
            System.out.printf("JWT %s, a token seen before: %.1f us and %d bytes allocated per authentication%n",
                    t.getKey(), us, perCall);
            assertThat(us).as(t.getKey()).isLessThan(200);
            assertThat(perCall).as(t.getKey()).isLessThan(2_000);
        }
        List<String> fresh = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            fresh.add(rs256(claims().jwtID("t" + i).build()));
        }
        long start = System.nanoTime();
        for (String t : fresh) {
            jwt.authenticate(t).orElseThrow();
        }
        System.out.printf("JWT RS256, a new token: %.1f us per authentication%n",
                (System.nanoTime() - start) / 1_000.0 / fresh.size());
        assertThat(jwksHits.get()).as("one fetch for all of them").isEqualTo(1);
    }

    @Test
    void badConfigurationNamesTheKey() {
        JwtConfig.Issuer unknown = issuer("RS256", "XS999");
        assertThatThrownBy(() -> authenticator(unknown)).hasMessageContaining("jwt.issuers[0].algorithms")
                .hasMessageContaining("XS999");
        JwtConfig.Issuer none = issuer("none");
        assertThatThrownBy(() -> authenticator(none)).hasMessageContaining("jwt.issuers[0].algorithms");
        JwtConfig.Issuer hsWithJwks = issuer("HS256");
        hsWithJwks.setHmacSecret(SECRET);
        assertThatThrownBy(() -> authenticator(hsWithJwks)).hasMessageContaining("jwt.issuers[0].jwksUrl");
        JwtConfig.Issuer hsShort = issuer("HS256");
        hsShort.setJwksUrl(null);
        hsShort.setHmacSecret("short");
        assertThatThrownBy(() -> authenticator(hsShort)).hasMessageContaining("jwt.issuers[0].hmacSecret");
        JwtConfig.Issuer mixed = issuer("HS256", "RS256");
        mixed.setJwksUrl(null);
        mixed.setHmacSecret(SECRET);
        assertThatThrownBy(() -> authenticator(mixed)).hasMessageContaining("jwt.issuers[0].algorithms");
        JwtConfig.Issuer noAudience = issuer();
        noAudience.setAudiences(List.of());
        assertThatThrownBy(() -> authenticator(issuer(), noAudience)).hasMessageContaining("jwt.issuers[1].audiences");
        JwtConfig.Issuer noRole = issuer();
        noRole.setRoleClaim(null);
        assertThatThrownBy(() -> authenticator(noRole)).hasMessageContaining("jwt.issuers[0].roleClaim");
        assertThatThrownBy(() -> authenticator(issuer(), issuer())).hasMessageContaining("jwt.issuers[1].issuer");
        JwtConfig.Issuer plainHttp = issuer();
        plainHttp.setJwksUrl("http://idp.example.com/jwks");
        assertThatThrownBy(() -> authenticator(plainHttp)).hasMessageContaining("jwt.issuers[0].jwksUrl")
                .hasMessageContaining("https");
        JwtConfig.Issuer plainIssuer = issuer();
        plainIssuer.setJwksUrl(null);
        plainIssuer.setIssuer("http://idp.example.com");
        assertThatThrownBy(() -> authenticator(plainIssuer)).hasMessageContaining("jwt.issuers[0].issuer");
        assertThatThrownBy(() -> authenticator()).hasMessageContaining("jwt.issuers");
    }
}
