package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.testing.TestingBrowser;
import io.queryapigate.testing.TestingKeycloak;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Console sign-in against the real Keycloak of the tests (realm {@code queryapigate}): the browser flow driven by
 * plain HTTP requests (the gateway's 302 to Keycloak, Keycloak's login form, its 302 back to the callback with the
 * browser's cookies), the session cookie with its CSRF token as a credential, groups to roles, and the attacks: a
 * wrong, replayed, expired or unbound state, a code used twice, another sign-in's nonce, an open redirect, another
 * session's CSRF token, a session after sign-out, expiry or deactivation.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SsoSignInIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SESSION = TestingBrowser.SESSION;
    private static final String CSRF = TestingBrowser.CSRF;
    private static final String STATE = TestingBrowser.STATE;
    private static final Path SECRETS = secretFile();

    static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), ssoYaml(null)).toString());

    private static final DropwizardAppExtension<GatewayConfiguration> OFF = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());

    /** The {@code sso:} block for the realm; the client secret through a file reference. */
    static String ssoYaml(String store) {
        return (store == null ? "" : store)
                + "secrets:\n  fileDirectories: [" + SECRETS + "]\n"
                + "sso:\n  issuer: " + TestingKeycloak.url() + "/realms/queryapigate\n"
                + "  clientId: queryapigate-console\n"
                + "  clientSecret: \"${file:" + SECRETS.resolve("console-secret") + "}\"\n"
                + "  roles: {qag-owners: owner, qag-developers: developer, qag-auditors: auditor}\n";
    }

    private static Path secretFile() {
        try {
            Path dir = Files.createTempDirectory("qag-sso-secrets-");
            Files.writeString(dir.resolve("console-secret"), "console-secret\n");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static DropwizardAppExtension<GatewayConfiguration> app() {
        return APP;
    }

    private static String storeUrl() {
        return "jdbc:sqlite:" + Path.of(app().getConfiguration().getHome()).resolve("queryapigate.db");
    }

    private static URI at(String path) {
        return URI.create("http://127.0.0.1:" + app().getLocalPort() + path);
    }

    private URI toCallback(TestingBrowser browser, String user, String returnTo) {
        return browser.toCallback(at("").toString(), user, returnTo);
    }

    private TestingBrowser signedIn(String user) {
        return new TestingBrowser().signIn(at("").toString(), user);
    }

    private HttpResponse<String> withSession(TestingBrowser browser, String method, String path) {
        return browser.withSession(method, at(path));
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
        }
    }

    private static void assertRefused(HttpResponse<String> r, int status, String code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(json(r).path("code").asText()).as(r.body()).isEqualTo(code);
        assertThat(json(r).path("request_id").asText()).isNotEmpty();
        assertThat(r.body()).doesNotContain("Exception", "\tat ");
    }

    private static int update(String sql, Object... args) {
        try (Connection c = DriverManager.getConnection(storeUrl());
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    private static List<List<Object>> rows(String sql, Object... args) {
        try (Connection c = DriverManager.getConnection(storeUrl());
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            List<List<Object>> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.add(rs.getObject(i));
                    }
                    out.add(row);
                }
            }
            return out;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    @Test
    void aliceSignsInThroughKeycloakAndHerGroupMakesHerAnOwner() {
        TestingBrowser browser = new TestingBrowser();
        URI callback = toCallback(browser, "alice", "/console/queries/film?tab=history");
        assertThat(browser.cookie(at("/"), STATE)).as("the sign-in is bound to this browser").isNotNull();
        HttpResponse<String> done = browser.get(callback);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(302);
        assertThat(done.headers().firstValue("Location").orElseThrow())
                .isEqualTo(at("/console/queries/film?tab=history").toString());
        String session = TestingBrowser.setCookie(done, SESSION);
        assertThat(session).contains("; Path=/", "; Secure", "; HttpOnly", "; SameSite=Strict", "Max-Age=28800")
                .doesNotContainIgnoringCase("domain");
        assertThat(TestingBrowser.setCookie(done, CSRF)).contains("; Path=/", "; Secure", "; SameSite=Strict")
                .doesNotContain("HttpOnly");
        assertThat(TestingBrowser.setCookie(done, STATE)).as("the binding cookie is cleared").contains("Max-Age=0");

        HttpResponse<String> me = withSession(browser, "GET", "/api/v1/me");
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(json(me).get("name").asText()).isEqualTo("alice");
        assertThat(withSession(browser, "GET", "/api/v1/api-keys").statusCode()).as("owner: access.read")
                .isEqualTo(200);
        HttpResponse<String> status = withSession(browser, "GET", "/auth/session");
        assertThat(json(status).get("signed_in").asBoolean()).as(status.body()).isTrue();
        assertThat(json(status).get("admin").asText()).isEqualTo("alice");
        assertThat(json(status).get("role").asText()).isEqualTo("owner");

        List<List<Object>> admin = rows("SELECT name, role, email, issuer, subject, created_by, active FROM"
                + " administrators WHERE name = 'alice'");
        assertThat(admin).hasSize(1);
        assertThat(admin.get(0).subList(0, 6)).containsExactly("alice", "owner", "alice@example.com",
                TestingKeycloak.url() + "/realms/queryapigate", "a11ce000-0000-4000-8000-000000000001", "sso");
        assertThat(rows("SELECT actor_kind, actor, entry_json FROM audit_log WHERE action = 'create_admin'"
                + " AND target = 'alice'")).as("created at her first sign-in, once, by herself through SSO")
                .singleElement().satisfies(entry -> {
                    assertThat(entry.subList(0, 2)).containsExactly("administrator", "alice");
                    assertThat(entry.get(2).toString()).contains("\"via\":\"sso\"", "first sign-in", "owner");
                });
        String sessionId = browser.cookie(at("/"), SESSION);
        String csrf = browser.cookie(at("/"), CSRF);
        assertThat(rows("SELECT id_hash, csrf_hash FROM admin_sessions WHERE id_hash = ?",
                KeyHasher.hashHex(sessionId))).as("only hashes are stored")
                .containsExactly(List.of(KeyHasher.hashHex(sessionId), KeyHasher.hashHex(csrf)));
        assertThat(rows("SELECT COUNT(*) FROM admin_sessions WHERE id_hash = ? OR csrf_hash = ?", sessionId, csrf)
                .get(0).get(0).toString()).isEqualTo("0");
    }

    @Test
    void theCookieWithoutItsCsrfTokenIsRefusedOnEveryRequest() {
        TestingBrowser alice = signedIn("alice");
        assertRefused(alice.get(at("/api/v1/me")), 403, "csrf_failed");
        assertRefused(alice.get(at("/q/film?film_id=1")), 403, "csrf_failed");
        assertRefused(alice.get(at("/api/v1/me"), "X-CSRF-Token", "forged"), 403, "csrf_failed");
        assertRefused(alice.get(at("/auth/session")), 403, "csrf_failed");
        TestingBrowser bob = signedIn("bob");
        assertRefused(alice.get(at("/api/v1/me"), "X-CSRF-Token", bob.cookie(at("/"), CSRF)), 403, "csrf_failed");
        assertRefused(alice.request("DELETE", at("/api/v1/api-keys/x")), 403, "csrf_failed");
        assertThat(withSession(alice, "GET", "/api/v1/me").statusCode()).isEqualTo(200);
    }

    @Test
    void bobsGroupMakesHimADeveloperAndAReturnToElsewhereLandsOnTheConsole() {
        for (String elsewhere : List.of("https://evil.example.com/", "//evil.example.com/x", "/\\evil.example.com",
                "/console/../api/v1/api-keys")) {
            TestingBrowser bob = new TestingBrowser();
            HttpResponse<String> done = bob.get(toCallback(bob, "bob", elsewhere));
            assertThat(done.statusCode()).as(done.body()).isEqualTo(302);
            assertThat(done.headers().firstValue("Location").orElseThrow()).as(elsewhere)
                    .isEqualTo(at("/console/").toString());
            assertThat(withSession(bob, "GET", "/api/v1/queries").statusCode()).isEqualTo(200);
            assertRefused(withSession(bob, "GET", "/api/v1/api-keys"), 403, "role_forbidden");
        }
        assertThat(rows("SELECT COUNT(*) FROM administrators WHERE subject = 'b0b00000-0000-4000-8000-000000000002'"
                + " OR name LIKE 'bob%'").get(0).get(0).toString()).as("one administrator, signed in four times")
                .isEqualTo("1");
    }

    @Test
    void carolInNoMappedGroupCannotSignIn() {
        TestingBrowser carol = new TestingBrowser();
        HttpResponse<String> refused = carol.get(toCallback(carol, "carol", null));
        assertRefused(refused, 403, "sso_no_role");
        assertThat(TestingBrowser.setCookie(refused, SESSION)).isNull();
        assertThat(rows("SELECT name FROM administrators WHERE name LIKE 'carol%'")).isEmpty();
    }

    @Test
    void aStateThatIsWrongReplayedExpiredOrNotThisBrowsersIsRefused() {
        TestingBrowser browser = new TestingBrowser();
        URI callback = toCallback(browser, "dave", null);
        String code = query(callback, "code");
        assertRefused(browser.get(at("/auth/sso/callback?code=" + code + "&state=not-the-state")), 400, "sso_state");

        TestingBrowser attacker = new TestingBrowser();
        attacker.get(at("/auth/sso/login"));
        assertThat(attacker.cookie(at("/"), STATE)).isNotNull();
        assertRefused(attacker.get(callback), 400, "sso_state");
        assertRefused(browser.get(callback), 400, "sso_state"); // taken by the attacker's try: gone for good

        TestingBrowser noCookie = new TestingBrowser();
        URI another = toCallback(noCookie, "dave", null);
        noCookie.setCookie(at("/"), STATE, null);
        assertRefused(noCookie.get(another), 400, "sso_state");

        TestingBrowser twice = new TestingBrowser();
        URI once = toCallback(twice, "dave", null);
        String binding = twice.cookie(at("/"), STATE);
        assertThat(twice.get(once).statusCode()).isEqualTo(302);
        twice.setCookie(at("/"), STATE, binding);
        assertRefused(twice.get(once), 400, "sso_state");

        TestingBrowser late = new TestingBrowser();
        URI expiring = toCallback(late, "dave", null);
        assertThat(update("UPDATE sso_logins SET expires_at = ? WHERE state_hash = ?",
                System.currentTimeMillis() - 1, KeyHasher.hashHex(query(expiring, "state")))).isEqualTo(1);
        assertRefused(late.get(expiring), 400, "sso_state");
    }

    @Test
    void aCodeUsedTwiceIsRefusedByTheProvider() {
        TestingBrowser browser = new TestingBrowser();
        URI first = toCallback(browser, "alice", null);
        assertThat(browser.get(first).statusCode()).isEqualTo(302);
        HttpResponse<String> again = browser.get(at("/auth/sso/login"));
        String state = query(URI.create(again.headers().firstValue("Location").orElseThrow()), "state");
        assertRefused(browser.get(at("/auth/sso/callback?code=" + query(first, "code") + "&state=" + state)), 400,
                "sso_token");
    }

    @Test
    void anotherSignInsNonceIsRefused() {
        TestingBrowser browser = new TestingBrowser();
        URI mine = toCallback(browser, "alice", null);
        String binding = browser.cookie(at("/"), STATE);
        TestingBrowser other = new TestingBrowser();
        URI theirs = toCallback(other, "bob", null);
        String mineHash = KeyHasher.hashHex(query(mine, "state"));
        String theirsHash = KeyHasher.hashHex(query(theirs, "state"));
        Object myNonce = rows("SELECT nonce FROM sso_logins WHERE state_hash = ?", mineHash).get(0).get(0);
        Object theirNonce = rows("SELECT nonce FROM sso_logins WHERE state_hash = ?", theirsHash).get(0).get(0);
        update("UPDATE sso_logins SET nonce = ? WHERE state_hash = ?", theirNonce, mineHash);
        update("UPDATE sso_logins SET nonce = ? WHERE state_hash = ?", myNonce, theirsHash);
        browser.setCookie(at("/"), STATE, binding);
        HttpResponse<String> refused = browser.get(mine);
        assertRefused(refused, 400, "sso_id_token");
        assertThat(TestingBrowser.setCookie(refused, SESSION)).isNull();
        assertRefused(other.get(theirs), 400, "sso_id_token");
    }

    @Test
    void aSessionEndsAtSignOutExpiryOrDeactivation() {
        TestingBrowser alice = signedIn("alice");
        String cookie = alice.cookie(at("/"), SESSION);
        String csrf = alice.cookie(at("/"), CSRF);
        assertRefused(alice.request("POST", at("/auth/logout")), 403, "csrf_failed");
        HttpResponse<String> out = withSession(alice, "POST", "/auth/logout");
        assertThat(out.statusCode()).as(out.body()).isEqualTo(200);
        assertThat(json(out).get("signed_out").asBoolean()).isTrue();
        assertThat(json(out).get("provider_sign_out").asText()).startsWith(TestingKeycloak.url()
                + "/realms/queryapigate/protocol/openid-connect/logout?client_id=queryapigate-console");
        assertThat(TestingBrowser.setCookie(out, SESSION)).contains("Max-Age=0");
        TestingBrowser replay = new TestingBrowser();
        replay.setCookie(at("/"), SESSION, cookie);
        assertRefused(replay.get(at("/api/v1/me"), "X-CSRF-Token", csrf), 401, "unauthorized");
        assertRefused(replay.request("POST", at("/auth/logout"), "X-CSRF-Token", csrf), 401, "unauthorized");

        TestingBrowser expiring = signedIn("bob");
        update("UPDATE admin_sessions SET expires_at = ? WHERE id_hash = ?", System.currentTimeMillis() - 1,
                KeyHasher.hashHex(expiring.cookie(at("/"), SESSION)));
        assertRefused(withSession(expiring, "GET", "/api/v1/me"), 401, "unauthorized");

        TestingBrowser dave = signedIn("dave");
        assertThat(withSession(dave, "GET", "/api/v1/queries").statusCode()).as("auditor: queries.read")
                .isEqualTo(200);
        assertThat(update("UPDATE administrators SET active = ? WHERE name = 'dave'", false)).isEqualTo(1);
        assertRefused(withSession(dave, "GET", "/api/v1/me"), 401, "unauthorized");
        TestingBrowser again = new TestingBrowser();
        assertRefused(again.get(toCallback(again, "dave", null)), 403, "sso_inactive");
        update("UPDATE administrators SET active = ? WHERE name = 'dave'", true);
    }

    @Test
    void theRoleFollowsTheGroupsAtEverySignInAndLastSeenIsNotedOnceAMinute() {
        signedIn("alice");
        update("UPDATE administrators SET role = 'auditor', last_seen_at = NULL WHERE name = 'alice'");
        TestingBrowser alice = signedIn("alice");
        assertThat(rows("SELECT role FROM administrators WHERE name = 'alice'").get(0).get(0)).isEqualTo("owner");
        assertThat(rows("SELECT entry_json FROM audit_log WHERE action = 'update_admin' AND target = 'alice'"
                + " ORDER BY seq DESC").get(0).get(0).toString()).as("the role her groups gave her back is audited")
                .contains("\"from\":\"auditor\"", "\"to\":\"owner\"", "groups");

        String hash = KeyHasher.hashHex(alice.cookie(at("/"), SESSION));
        long longAgo = System.currentTimeMillis() - 120_000;
        update("UPDATE admin_sessions SET last_seen_at = ? WHERE id_hash = ?", longAgo, hash);
        assertThat(withSession(alice, "GET", "/api/v1/me").statusCode()).isEqualTo(200);
        long seen = ((Number) rows("SELECT last_seen_at FROM admin_sessions WHERE id_hash = ?", hash).get(0).get(0))
                .longValue();
        assertThat(seen).isGreaterThan(longAgo);
        assertThat(rows("SELECT last_seen_at FROM administrators WHERE name = 'alice'").get(0).get(0)).isNotNull();
        assertThat(withSession(alice, "GET", "/api/v1/me").statusCode()).isEqualTo(200);
        assertThat(((Number) rows("SELECT last_seen_at FROM admin_sessions WHERE id_hash = ?", hash).get(0).get(0))
                .longValue()).as("not again within the minute").isEqualTo(seen);
    }

    @Test
    void aKeyWinsOverTheCookieAndAnonymousRoutesIgnoreACookieWithoutItsToken() {
        TestingBrowser alice = signedIn("alice");
        HttpResponse<String> asKey = alice.get(at("/api/v1/me"), "X-API-Key", "not-a-key");
        assertRefused(asKey, 401, "unauthorized");
        assertThat(alice.get(at("/health")).statusCode()).isEqualTo(200);
        HttpResponse<String> session = new TestingBrowser().get(at("/auth/session"));
        assertThat(json(session).get("sso").asBoolean()).isTrue();
        assertThat(json(session).get("signed_in").asBoolean()).isFalse();
    }

    @Test
    void signingInAgainInTheSameBrowserEndsTheSessionItHad() {
        TestingBrowser first = signedIn("alice");
        String oldSession = first.cookie(at("/"), SESSION);
        String oldCsrf = first.cookie(at("/"), CSRF);
        TestingBrowser same = new TestingBrowser(); // the same browser to us; a fresh one to Keycloak's own cookies
        same.setCookie(at("/"), SESSION, oldSession);
        same.setCookie(at("/"), CSRF, oldCsrf);
        same.signIn(at("").toString(), "alice");
        assertThat(same.cookie(at("/"), SESSION)).isNotEqualTo(oldSession);
        assertThat(withSession(same, "GET", "/api/v1/me").statusCode()).isEqualTo(200);
        assertRefused(first.get(at("/api/v1/me"), "X-CSRF-Token", oldCsrf), 401, "unauthorized");
    }

    @Test
    void theProviderEndingTheSignInIsRefusedWithoutEchoingItsText() {
        TestingBrowser browser = new TestingBrowser();
        HttpResponse<String> login = browser.get(at("/auth/sso/login"));
        String state = query(URI.create(login.headers().firstValue("Location").orElseThrow()), "state");
        HttpResponse<String> denied = browser.get(at("/auth/sso/callback?state=" + state
                + "&error=access_denied&error_description=Call+0800+now"));
        assertRefused(denied, 403, "sso_denied");
        assertThat(denied.body()).contains("access_denied").doesNotContain("0800");
        assertRefused(browser.get(at("/auth/sso/callback?state=" + state + "&code=x")), 400, "sso_state");
    }

    @Test
    void withoutSsoItsRoutesAreNotFoundAndAnotherServersSessionIsUnknown() {
        TestingBrowser browser = new TestingBrowser();
        URI off = URI.create("http://127.0.0.1:" + OFF.getLocalPort());
        assertRefused(browser.get(off.resolve("/auth/sso/login")), 404, "not_found");
        assertRefused(browser.get(off.resolve("/auth/sso/callback?code=x&state=y")), 404, "not_found");
        // sign-out is also for sessions started with a key or token (POST /auth/console/sign-in)
        assertRefused(browser.request("POST", off.resolve("/auth/logout")), 401, "unauthorized");
        HttpResponse<String> session = browser.get(off.resolve("/auth/session"));
        assertThat(session.body()).isEqualTo("{\"sso\":false,\"signed_in\":false,\"sso_only\":false}");
        TestingBrowser alice = signedIn("alice");
        browser.setCookie(off, SESSION, alice.cookie(at("/"), SESSION));
        assertRefused(browser.get(off.resolve("/api/v1/me"), "X-CSRF-Token", alice.cookie(at("/"), CSRF)), 401,
                "unauthorized");
    }

    private static String query(URI uri, String name) {
        for (String pair : uri.getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1),
                        java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no " + name + " in " + uri);
    }
}
