package io.queryapigate.sso;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import io.queryapigate.audit.Acting;
import io.queryapigate.audit.Actor;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.errors.ApiException;
import io.queryapigate.secrets.SecretResolver;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.SsoDao;
import io.queryapigate.store.SsoLoginRow;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Console sign-in through the identity provider: the authorization code flow with PKCE (S256), this server the
 * confidential client.
 *
 * <ol>
 * <li>{@link #begin}: a sign-in under way is stored (the state's hash, the nonce, the PKCE verifier, where to go
 *     afterwards) and bound to this browser by the hash of a random cookie; the browser goes to the provider.</li>
 * <li>{@link #finish}: the sign-in is taken by its state, once (deleted as it is taken), unexpired and only from the
 *     browser that started it; the code is exchanged with the client secret and the verifier; the ID token is
 *     checked ({@link IdTokens}); the person's groups give the most capable mapped role (none: no sign-in); the
 *     administrator linked to (issuer, sub) is found or created, its role set from its groups, refused when
 *     deactivated; a console session starts ({@link ConsoleSessions}).</li>
 * </ol>
 */
public final class ConsoleSignIn {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleSignIn.class);
    /** Where people land after signing in, unless they asked for another console page. */
    public static final String CONSOLE = "/console/";
    /** Sign-ins under way at once; past it, new ones wait (each adds a row, and starting one needs no credential). */
    static final int MAX_PENDING = 10_000;
    private static final Set<String> RESERVED_NAMES = Set.of("admin", "cli", "startup");

    /** A started sign-in: where to send the browser, and the value of the cookie binding it to this browser. */
    public record Started(URI location, String browser) {}

    /** A finished sign-in: who, with which role, the new session and the console page to go to. */
    public record SignedIn(AdministratorRow administrator, AdminRole role, ConsoleSessions.Issued session,
            String returnTo) {}

    private final SsoSettings settings;
    private final OidcProvider provider;
    private final ConsoleSessions sessions;
    private final Jdbi jdbi;
    private final SecretResolver secrets;
    private final HttpClient http;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final AuditLog audit;
    private IdTokens idTokens;
    private URI idTokensKeys;

    public ConsoleSignIn(SsoSettings settings, OidcProvider provider, ConsoleSessions sessions, Jdbi jdbi,
            SecretResolver secrets, HttpClient http, ObjectMapper mapper, Clock clock, AuditLog audit) {
        this.settings = settings;
        this.audit = audit;
        this.provider = provider;
        this.sessions = sessions;
        this.jdbi = jdbi;
        this.secrets = secrets;
        this.http = http;
        this.mapper = mapper;
        this.clock = clock;
    }

    public SsoSettings settings() {
        return settings;
    }

    /** The console sessions sign-ins start. */
    public ConsoleSessions sessions() {
        return sessions;
    }

    /**
     * Starts a sign-in.
     *
     * @param returnTo the console page to go to afterwards (anything else: the console's first page)
     * @param redirect this server's callback, as the provider will call it
     */
    public Started begin(String returnTo, URI redirect) {
        OidcProvider.Metadata m = provider.metadata();
        if (!m.pkceMethods().isEmpty() && !m.pkceMethods().contains("S256")) {
            throw new ApiException(503, "sso_unsupported", "The identity provider does not support PKCE with S256.");
        }
        String state = ConsoleSessions.random();
        String nonce = ConsoleSessions.random();
        String verifier = ConsoleSessions.random();
        String browser = ConsoleSessions.random();
        long now = clock.millis();
        jdbi.useTransaction(h -> {
            SsoDao dao = h.attach(SsoDao.class);
            dao.forgetExpiredLogins(now);
            if (dao.pendingLogins() >= MAX_PENDING) {
                throw new ApiException(503, "sso_busy", "Too many sign-ins are under way: try again in a few"
                        + " minutes.");
            }
            dao.startLogin(KeyHasher.hashHex(state), KeyHasher.hashHex(browser), nonce, verifier,
                    safeReturnTo(returnTo), now, now + settings.loginTtl().toMillis());
        });
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", settings.clientId());
        query.put("redirect_uri", redirect.toString());
        query.put("scope", settings.scopes());
        query.put("state", state);
        query.put("nonce", nonce);
        query.put("code_challenge", Base64.getUrlEncoder().withoutPadding().encodeToString(
                KeyHasher.sha256(verifier)));
        query.put("code_challenge_method", "S256");
        String authorization = m.authorization().toString();
        return new Started(URI.create(authorization + (authorization.contains("?") ? "&" : "?") + form(query)),
                browser);
    }

    /**
     * Finishes a sign-in at the callback.
     *
     * @param code    the provider's authorization code
     * @param state   the state the provider sent back
     * @param browser the browser's binding cookie, or null
     * @param error   the provider's {@code error}, when it ended the sign-in
     * @param redirect this server's callback, as sent when the sign-in began
     */
    public SignedIn finish(String code, String state, String browser, String error, URI redirect) {
        SsoLoginRow pending = take(state, browser);
        if (error != null) {
            String word = error.matches("[A-Za-z0-9_.-]{1,64}") ? error : "error";
            throw new ApiException(403, "sso_denied", "The identity provider ended the sign-in (" + word + ").");
        }
        if (code == null || code.isBlank()) {
            throw new ApiException(400, "sso_token", "The identity provider sent no code: sign in again.");
        }
        OidcProvider.Metadata m = provider.metadata();
        String idToken = exchange(m, code, pending.codeVerifier(), redirect);
        JWTClaimsSet claims = idTokens(m).verify(idToken, pending.nonce());
        String subject = claims.getSubject();
        List<String> groups = groups(claims);
        AdminRole role = settings.roleFor(groups);
        if (role == null) {
            LOG.info("SSO: {} signed in at the provider but is in no mapped group ({})", subject, groups);
            throw new ApiException(403, "sso_no_role", "You signed in, but you are in no group that gives a role"
                    + " here: ask an owner to add you to one.");
        }
        AdministratorRow admin = linkedAdministrator(claims, role);
        if (!admin.active()) {
            LOG.info("SSO: the deactivated administrator '{}' tried to sign in", admin.name());
            throw new ApiException(403, "sso_inactive", "Your administrator account is deactivated here: ask an"
                    + " owner.");
        }
        ConsoleSessions.Issued session = sessions.start(admin.id());
        LOG.info("SSO: '{}' signed in as {} (issuer {})", admin.name(), role.label(), settings.issuer());
        return new SignedIn(admin, role, session, pending.returnTo());
    }

    /** Where the browser may end its session at the provider too ({@code end_session_endpoint}), or null. */
    public String providerSignOut() {
        OidcProvider.Metadata m;
        try {
            m = provider.metadata();
        } catch (ApiException unreachable) {
            return null;
        }
        if (m.endSession() == null) {
            return null;
        }
        String end = m.endSession().toString();
        return end + (end.contains("?") ? "&" : "?") + form(Map.of("client_id", settings.clientId()));
    }

    /** Only a console page of this server: anything else (another origin, a protocol-relative path) is not used. */
    public static String safeReturnTo(String value) {
        if (value == null || !(value.equals("/console") || value.startsWith(CONSOLE)) || value.length() > 2000) {
            return CONSOLE;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c == 0x7f || c == '\\' || c > 0x7e) {
                return CONSOLE;
            }
        }
        if (value.contains("//") || value.contains("/..") || value.contains("%2e") || value.contains("%2E")
                || value.contains("%2f") || value.contains("%2F") || value.contains("%5c") || value.contains("%5C")) {
            return CONSOLE;
        }
        return value;
    }

    private SsoLoginRow take(String state, String browser) {
        ApiException refused = new ApiException(400, "sso_state", "This sign-in has expired, was used already or"
                + " was started in another browser: sign in again.");
        if (state == null || state.isEmpty() || state.length() > 200 || browser == null || browser.isEmpty()) {
            throw refused;
        }
        String stateHash = KeyHasher.hashHex(state);
        Optional<SsoLoginRow> row = jdbi.inTransaction(h -> {
            SsoDao dao = h.attach(SsoDao.class);
            Optional<SsoLoginRow> found = dao.login(stateHash);
            // used once: only the request whose own DELETE removed the row goes on
            return found.isPresent() && dao.takeLogin(stateHash) == 1 ? found : Optional.<SsoLoginRow>empty();
        });
        if (row.isEmpty() || row.get().expiresAt() < clock.millis() || !MessageDigest.isEqual(
                row.get().browserHash().getBytes(StandardCharsets.US_ASCII),
                KeyHasher.hashHex(browser).getBytes(StandardCharsets.US_ASCII))) {
            throw refused;
        }
        return row.get();
    }

    /**
     * The ID token the token endpoint gives for {@code code}: the client authenticates with HTTP Basic, unless the
     * provider says it takes only {@code client_secret_post}.
     */
    private String exchange(OidcProvider.Metadata m, String code, String verifier, URI redirect) {
        String secret = secrets.resolve("sso", settings.clientSecret()).value();
        Map<String, String> body = new LinkedHashMap<>();
        body.put("grant_type", "authorization_code");
        body.put("code", code);
        body.put("redirect_uri", redirect.toString());
        body.put("code_verifier", verifier);
        HttpRequest.Builder request = HttpRequest.newBuilder(m.token()).timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json");
        List<String> methods = m.tokenAuthMethods();
        if (!methods.isEmpty() && !methods.contains("client_secret_basic") && methods.contains("client_secret_post")) {
            body.put("client_id", settings.clientId());
            body.put("client_secret", secret);
        } else {
            String pair = URLEncoder.encode(settings.clientId(), StandardCharsets.UTF_8) + ":"
                    + URLEncoder.encode(secret, StandardCharsets.UTF_8);
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    pair.getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(request.POST(HttpRequest.BodyPublishers.ofString(form(body))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            LOG.warn("SSO: the token endpoint {} cannot be reached: {}", m.token(), e.toString());
            throw new ApiException(503, "sso_unreachable", "The identity provider cannot be reached: try again"
                    + " shortly.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "sso_unreachable", "The sign-in was interrupted: try again.");
        }
        JsonNode json = parse(answer.body());
        if (answer.statusCode() >= 500) {
            LOG.warn("SSO: the token endpoint answered {}", answer.statusCode());
            throw new ApiException(503, "sso_unreachable", "The identity provider failed: try again shortly.");
        }
        if (answer.statusCode() != 200 || !json.path("id_token").isTextual()) {
            LOG.warn("SSO: the token endpoint refused the code: {} {}", answer.statusCode(),
                    json.path("error").asText("(no error named)"));
            throw new ApiException(400, "sso_token", "The identity provider did not accept this sign-in: sign in"
                    + " again.");
        }
        return json.get("id_token").asText();
    }

    private JsonNode parse(byte[] body) {
        try {
            return mapper.readTree(body);
        } catch (IOException e) {
            return mapper.createObjectNode();
        }
    }

    /** The verifier for the provider's current keys address (it may change when the document is read again). */
    private synchronized IdTokens idTokens(OidcProvider.Metadata m) {
        if (idTokens == null || !m.jwks().equals(idTokensKeys)) {
            JWKSource<SecurityContext> keys;
            try {
                keys = JWKSourceBuilder.create(m.jwks().toURL(), new DefaultResourceRetriever(5_000, 5_000, 512 * 1024))
                        .build();
            } catch (MalformedURLException e) {
                throw new ApiException(503, "sso_unreachable", "The identity provider's keys address is not usable.");
            }
            idTokens = new IdTokens(settings.issuer(), settings.clientId(), keys, settings.loginTtl(), clock);
            idTokensKeys = m.jwks();
        }
        return idTokens;
    }

    /** The person's groups: the configured claim (a dotted path), a list of names or one name. */
    private List<String> groups(JWTClaimsSet claims) {
        Object value = claims.getClaims();
        for (String part : settings.groupsClaim().split("\\.")) {
            value = value instanceof Map<?, ?> map ? map.get(part) : null;
        }
        List<String> out = new ArrayList<>();
        if (value instanceof String s) {
            out.add(s);
        } else if (value instanceof List<?> list) {
            list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(out::add);
        }
        return out;
    }

    /**
     * The administrator linked to the token's (issuer, sub), its role set to {@code role}; created at a first sign-in
     * with a free name from {@code preferred_username} (else the verified email's local part) and the verified email.
     */
    private AdministratorRow linkedAdministrator(JWTClaimsSet claims, AdminRole role) {
        String issuer = claims.getIssuer();
        String subject = claims.getSubject();
        String email = verifiedEmail(claims);
        for (int attempt = 0; ; attempt++) {
            try {
                return jdbi.inTransaction(h -> {
                    SsoDao dao = h.attach(SsoDao.class);
                    Optional<AdministratorRow> found = dao.linked(issuer, subject);
                    if (found.isPresent()) {
                        AdministratorRow a = found.get();
                        if (a.active() && !role.label().equals(a.role())) {
                            dao.setRole(a.id(), role.label());
                            audited(a.name(), "update_admin",
                                    Map.of("role", Map.of("from", a.role(), "to", role.label()), "source", "groups"));
                            LOG.info("SSO: '{}' is now {} (from its groups; was {})", a.name(), role.label(),
                                    a.role());
                        }
                        return dao.linked(issuer, subject).orElseThrow();
                    }
                    String name = freeName(dao, wantedName(claims, email, subject));
                    dao.createLinked(name, role.label(), email, issuer, subject, clock.millis());
                    Map<String, Object> created = new java.util.TreeMap<>();
                    created.put("role", role.label());
                    created.put("email", email);
                    created.put("issuer", issuer);
                    created.put("source", "first sign-in");
                    audited(name, "create_admin", created);
                    LOG.info("SSO: created the administrator '{}' ({}) at its first sign-in", name, role.label());
                    return dao.linked(issuer, subject).orElseThrow();
                });
            } catch (UnableToExecuteStatementException e) {
                if (attempt > 0) { // the same person's first two sign-ins at once: the second finds the first's row
                    throw e;
                }
            }
        }
    }

    /** An entry for a change sign-in makes to an administrator, made by that administrator signing in. */
    private void audited(String administrator, String action, Map<String, ?> changes) {
        Acting.as(new Actor("administrator", administrator, "sso", 0, null, null), () -> {
            audit.append(action, administrator, null, changes);
            return null;
        });
    }

    private static String verifiedEmail(JWTClaimsSet claims) {
        String email = IdTokens.stringClaim(claims, "email");
        boolean verified = Boolean.TRUE.equals(claims.getClaim("email_verified"));
        return email != null && verified && email.length() <= 254 && email.matches("[^@\\s]+@[^@\\s]+")
                ? email.toLowerCase(java.util.Locale.ROOT) : null;
    }

    private static String wantedName(JWTClaimsSet claims, String email, String subject) {
        String preferred = IdTokens.stringClaim(claims, "preferred_username");
        if (preferred != null && !preferred.isBlank()) {
            return preferred;
        }
        if (email != null) {
            return email.substring(0, email.indexOf('@'));
        }
        return "sso-" + subject.substring(0, Math.min(8, subject.length()));
    }

    private static String freeName(SsoDao dao, String wanted) {
        String base = wanted.replaceAll("[^\\w.\\-]+", "-").replaceAll("^[-.]+|[-.]+$", "");
        base = base.substring(0, Math.min(90, base.length()));
        if (base.isEmpty()) {
            base = "admin-sso";
        } else if (RESERVED_NAMES.contains(base.toLowerCase(java.util.Locale.ROOT))) {
            base += "-sso";
        }
        for (int n = 1; n < 1000; n++) {
            String name = n == 1 ? base : base + "-" + n;
            if (!dao.nameTaken(name)) {
                return name;
            }
        }
        throw new ApiException(409, "conflict", "No free administrator name for '" + wanted + "'.");
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
