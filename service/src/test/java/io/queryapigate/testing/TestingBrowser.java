package io.queryapigate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser driven by plain HTTP requests, for console sign-in through the test Keycloak: it follows nothing by
 * itself (each 302 is the test's to follow), keeps cookies per host and port (sending Secure ones over http too, as
 * browsers do for localhost), and fills Keycloak's login form.
 */
public final class TestingBrowser {
    private static final Pattern LOGIN_FORM = Pattern.compile("<form[^>]*id=\"kc-form-login\"[^>]*action=\"([^\"]+)\"",
            Pattern.DOTALL);
    private static final Pattern ACTION_FIRST = Pattern.compile("<form[^>]*action=\"([^\"]+)\"[^>]*id=\"kc-form-login\"",
            Pattern.DOTALL);

    public static final String SESSION = "__Host-qag_session";
    public static final String CSRF = "__Host-qag_csrf";
    public static final String STATE = "__Host-qag_sso";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final Map<String, Map<String, String>> jars = new LinkedHashMap<>();

    /** GET, with this browser's cookies for the address and any extra headers (name, value pairs). */
    public HttpResponse<String> get(URI uri, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
        return send(uri, b, headers);
    }

    /** POST of a form. */
    public HttpResponse<String> postForm(URI uri, Map<String, String> form, String... headers) {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&").append(URLEncoder.encode(k,
                StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        return send(uri, b, headers);
    }

    /** Any method without a body. */
    public HttpResponse<String> request(String method, URI uri, String... headers) {
        return send(uri, HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody()), headers);
    }

    /**
     * Signs in at Keycloak from its authorization URL: the login page, then the form with the user's password
     * ({@code <name>-pw}).
     *
     * @return Keycloak's answer to the form: a 302 to the client's callback when the credentials were right
     */
    public HttpResponse<String> signInAtKeycloak(URI authorization, String user) {
        HttpResponse<String> page = get(authorization);
        if (page.statusCode() != 200) {
            throw new AssertionError("Keycloak's login page answered " + page.statusCode() + ": " + page.body());
        }
        Matcher m = LOGIN_FORM.matcher(page.body());
        if (!m.find()) {
            m = ACTION_FIRST.matcher(page.body());
            if (!m.find()) {
                throw new AssertionError("no login form on Keycloak's page: " + page.body());
            }
        }
        URI action = URI.create(m.group(1).replace("&amp;", "&"));
        return postForm(action, Map.of("username", user, "password", user + "-pw", "credentialId", ""));
    }

    /**
     * A console sign-in on the gateway at {@code gateway} up to Keycloak's answer to the login form: the callback
     * Keycloak sends the browser to, not yet called.
     */
    public URI toCallback(String gateway, String user, String returnTo) {
        HttpResponse<String> login = get(URI.create(gateway + "/auth/sso/login" + (returnTo == null ? ""
                : "?return_to=" + URLEncoder.encode(returnTo, StandardCharsets.UTF_8))));
        if (login.statusCode() != 302) {
            throw new AssertionError("/auth/sso/login answered " + login.statusCode() + ": " + login.body());
        }
        URI authorization = URI.create(login.headers().firstValue("Location").orElseThrow());
        if (!authorization.toString().startsWith(TestingKeycloak.url() + "/realms/queryapigate/protocol/openid-connect/auth?")
                || !authorization.getRawQuery().contains("code_challenge_method=S256")) {
            throw new AssertionError("not Keycloak's authorization endpoint with PKCE: " + authorization);
        }
        HttpResponse<String> form = signInAtKeycloak(authorization, user);
        if (form.statusCode() != 302) {
            throw new AssertionError("Keycloak's answer to the login form: " + form.statusCode() + " " + form.body());
        }
        URI callback = URI.create(form.headers().firstValue("Location").orElseThrow());
        if (!callback.getPath().equals("/auth/sso/callback")) {
            throw new AssertionError("Keycloak sent the browser to " + callback);
        }
        return callback;
    }

    /** A whole console sign-in on the gateway at {@code gateway}; fails unless it ends with a session cookie. */
    public TestingBrowser signIn(String gateway, String user) {
        HttpResponse<String> done = get(toCallback(gateway, user, null));
        if (done.statusCode() != 302 || cookie(URI.create(gateway), SESSION) == null) {
            throw new AssertionError("the callback answered " + done.statusCode() + ": " + done.body());
        }
        return this;
    }

    /** A request with the session cookie (sent by this browser) and the CSRF token its page would send. */
    public HttpResponse<String> withSession(String method, URI uri) {
        return request(method, uri, "X-CSRF-Token", cookie(uri, CSRF));
    }

    /** {@link #withSession(String, URI)} with a JSON body. */
    public HttpResponse<String> withSession(String method, URI uri, String json) {
        return send(uri, HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json)),
                "X-CSRF-Token", cookie(uri, CSRF));
    }

    /** The value of a cookie this browser holds for the address, or null. */
    public String cookie(URI uri, String name) {
        return jars.getOrDefault(origin(uri), Map.of()).get(name);
    }

    /** Sets (or, with null, removes) a cookie for the address, as another site's page could not. */
    public void setCookie(URI uri, String name, String value) {
        Map<String, String> jar = jars.computeIfAbsent(origin(uri), k -> new LinkedHashMap<>());
        if (value == null) {
            jar.remove(name);
        } else {
            jar.put(name, value);
        }
    }

    /** The Set-Cookie header for {@code name} in an answer, or null. */
    public static String setCookie(HttpResponse<?> response, String name) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(name + "="))
                .findFirst().orElse(null);
    }

    private HttpResponse<String> send(URI uri, HttpRequest.Builder b, String... headers) {
        Map<String, String> jar = jars.getOrDefault(origin(uri), Map.of());
        if (!jar.isEmpty()) {
            b.header("Cookie", String.join("; ", jar.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .toList()));
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            keep(uri, r.headers().allValues("Set-Cookie"));
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void keep(URI uri, List<String> setCookies) {
        Map<String, String> jar = jars.computeIfAbsent(origin(uri), k -> new LinkedHashMap<>());
        for (String c : setCookies) {
            String pair = c.split(";", 2)[0];
            int eq = pair.indexOf('=');
            String name = pair.substring(0, eq).strip();
            String value = pair.substring(eq + 1).strip();
            boolean expired = value.isEmpty() || c.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")
                    || c.contains("Expires=Thu, 01 Jan 1970") || c.contains("Expires=Thu, 01-Jan-1970");
            if (expired) {
                jar.remove(name);
            } else {
                jar.put(name, value);
            }
        }
    }

    private static String origin(URI uri) {
        return uri.getHost() + ":" + uri.getPort();
    }
}
