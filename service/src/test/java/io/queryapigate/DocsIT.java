package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.docs.DocsPage;
import io.queryapigate.http.SecurityHeaders;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingChromium;
import io.queryapigate.testing.TestingQuickstart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * {@code /docs} on the quickstart as a newcomer meets it: the packaged jar started as the README starts it, the page
 * opened in headless Chromium, the README's key typed into it, {@code film} called with "Try it out". Also the page's
 * and its files' headers (CSP, caching) over plain HTTP, and that nothing is loaded from another host.
 */
class DocsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LINKS = Pattern.compile("(?:src|href)=\"([^\"]*)\"");
    @RegisterExtension
    static final TestingQuickstart.Running QUICKSTART = new TestingQuickstart.Running();
    /** The browser of the test running, for what a failed wait shows. */
    private static ChromeDriver browser;

    private static Http http() {
        return QUICKSTART.get().http();
    }

    @Test
    void thePageAndEveryFileItLoadsComeFromTheJarWithTheirOwnHeaders() {
        Reply page = http().get("/docs", null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).isEqualTo("text/html;charset=utf-8");
        assertThat(page.header("Content-Security-Policy")).isEqualTo(DocsPage.CSP)
                .contains("default-src 'none'").contains("script-src 'self';").contains("style-src 'self';")
                .contains("connect-src 'self'").contains("img-src 'self' data:").contains("frame-ancestors 'none'")
                .contains("base-uri 'none'").contains("form-action 'none'").doesNotContain("unsafe");
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.header("Referrer-Policy")).isEqualTo("no-referrer");
        assertThat(page.header("X-Request-Id")).isNotBlank();
        assertThat(page.body()).doesNotContain("http:").doesNotContain("https:").doesNotContain("//cdn")
                .doesNotContain("<style").doesNotContain(" style=").doesNotContainPattern("\\son[a-z]+=")
                .doesNotContainPattern("<script>|<script(?![^>]*\\ssrc=)");

        List<String> links = new ArrayList<>();
        Matcher m = LINKS.matcher(page.body());
        while (m.find()) {
            links.add(m.group(1));
        }
        assertThat(links).contains("/docs/docs.js", "/docs/docs.css")
                .anyMatch(l -> l.matches("/docs/swagger-ui/\\d+\\.\\d+\\.\\d+/swagger-ui-bundle\\.js"))
                .anyMatch(l -> l.matches("/docs/swagger-ui/\\d+\\.\\d+\\.\\d+/swagger-ui\\.css"))
                .allMatch(l -> l.startsWith("/docs/"));
        for (String link : links) {
            Reply file = http().get(link, null);
            assertThat(file.status()).as(link).isEqualTo(200);
            assertThat(file.body()).as(link).isNotEmpty();
            assertThat(file.header("X-Content-Type-Options")).as(link).isEqualTo("nosniff");
            assertThat(file.header("Content-Type")).as(link).startsWith(link.endsWith(".js") ? "text/javascript"
                    : link.endsWith(".css") ? "text/css" : "image/png");
            if (link.startsWith(DocsPage.SWAGGER_UI_PATH)) {
                assertThat(file.header("Cache-Control")).as(link).isEqualTo("public, max-age=31536000, immutable");
            } else {
                assertThat(file.header("Cache-Control")).as(link).isEqualTo("no-cache");
                String etag = file.header("ETag");
                assertThat(etag).as(link).matches("\"[0-9a-f]{32}\"");
                Reply again = http().request("GET", link, null, null, "If-None-Match", etag);
                assertThat(again.status()).as(link).isEqualTo(304);
                assertThat(again.body()).isEmpty();
            }
        }
    }

    @Test
    void nothingElseUnderDocsIsServedAndAMissIsTheUsualJsonError() {
        String current = swaggerUiFolder();
        for (String path : List.of(current + "index.html", current + "swagger-initializer.js",
                current + "swagger-ui.js", current + "oauth2-redirect.html", "/docs/swagger-ui/1.0.0/swagger-ui.css",
                "/docs/index.html", "/docs/nope.js", "/docs/swagger-ui/", "/docs/a/b/c")) {
            Reply miss = http().get(path, null);
            miss.assertRefused(404, "not_found");
            assertThat(miss.json().get("request_id").asText()).isEqualTo(miss.header("X-Request-Id"));
            assertThat(miss.header("Content-Security-Policy")).as(path).isEqualTo(SecurityHeaders.API_CSP);
            assertThat(miss.header("Cache-Control")).as(path).isEqualTo("no-store");
        }
        assertThat(http().request("POST", "/docs", null, "{}").status()).isEqualTo(405);
    }

    @Test
    void aNewcomerOpensDocsPastesTheReadmeKeyAndCallsFilm() {
        String expectedTitle = http().get("/q/film?film_id=1", TestingQuickstart.README_KEY).json().get(0)
                .get("title").asText();
        String base = QUICKSTART.get().baseUrl();
        try (TestingChromium chromium = TestingChromium.start()) {
            browser = chromium.driver();
            // without a key the spec is refused, and the page says so
            browser.get(base + "/docs");
            until("Swagger UI reports the refused spec", () -> text(browser, ".swagger-ui").contains("Unauthorized")
                    || text(browser, ".swagger-ui").contains("401"));
            assertThat(browser.findElements(By.cssSelector(".opblock"))).isEmpty();
            List<LogEntry> withoutKey = browser.manage().logs().get(LogType.BROWSER).getAll();

            // the README's key, typed and applied
            browser.findElement(By.id("key")).sendKeys(TestingQuickstart.README_KEY);
            browser.findElement(By.id("apply-key")).click();
            WebElement film = until("the film operation is listed", () -> browser.findElements(By.xpath(
                    "//div[contains(@class,'opblock-get')][.//*[@data-path='/q/film']]")).stream().findFirst()
                    .orElse(null));
            assertThat(browser.executeScript("return sessionStorage.getItem('queryapigate-key')"))
                    .isEqualTo(TestingQuickstart.README_KEY);
            assertThat(browser.executeScript("return window.localStorage.length")).isEqualTo(0L);
            assertThat(browser.executeScript("return document.cookie")).isEqualTo("");

            // expand film, Try it out, film_id=1, Execute
            film.findElement(By.cssSelector(".opblock-summary-control")).click();
            until("Try it out", () -> film.findElements(By.cssSelector("button.try-out__btn")).stream()
                    .findFirst().orElse(null)).click();
            WebElement filmId = until("the film_id field", () -> film.findElements(
                    By.cssSelector("tr[data-param-name='film_id'] input")).stream().findFirst().orElse(null));
            // the field starts with the parameter's example from the document; type over it as a person would
            filmId.sendKeys(Keys.chord(Keys.CONTROL, "a"), "1");
            assertThat(filmId.getAttribute("value")).isEqualTo("1");
            film.findElement(By.cssSelector("button.execute")).click();
            until("the live response", () -> !film.findElements(
                    By.cssSelector(".live-responses-table tr.response .response-col_status")).isEmpty());
            assertThat(film.findElement(By.cssSelector(".live-responses-table tr.response .response-col_status")).getText())
                    .isEqualTo("200");
            assertThat(film.findElement(By.cssSelector(".live-responses-table tr.response .response-col_description"))
                    .getText()).contains("\"film_id\": 1").contains(expectedTitle);

            // the console: no CSP violation, and no error but the spec refused before the key was typed
            List<LogEntry> console = new ArrayList<>(withoutKey);
            console.addAll(browser.manage().logs().get(LogType.BROWSER).getAll());
            assertThat(console).noneMatch(e -> e.getMessage().contains("Content Security Policy")
                    || e.getMessage().contains("Refused to"));
            assertThat(console).filteredOn(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                    .allMatch(e -> e.getMessage().contains("/openapi.json") && e.getMessage().contains("401"),
                            "only the spec refused without a key");

            // the network: every request went to the gateway (chrome: and data: are the browser's own, not sent);
            // the key went with the spec and with Try it out
            List<JsonNode> requests = requestsSent(browser);
            assertThat(requests).extracting(r -> r.get("url").asText())
                    .filteredOn(url -> !url.startsWith("chrome:") && !url.startsWith("data:"))
                    .allMatch(url -> url.startsWith(base + "/"))
                    .anyMatch(url -> url.startsWith(base + swaggerUiFolder() + "swagger-ui-bundle.js"))
                    .contains(base + "/docs/docs.js", base + "/openapi.json");
            assertThat(requests).filteredOn(r -> r.get("url").asText().startsWith(base + "/q/film?"))
                    .singleElement().satisfies(r -> assertThat(r.get("url").asText()).contains("film_id=1"))
                    .satisfies(r -> assertThat(header(r, "X-API-Key")).isEqualTo(TestingQuickstart.README_KEY));
            assertThat(requests).filteredOn(r -> r.get("url").asText().equals(base + "/openapi.json"))
                    .extracting(r -> header(r, "X-API-Key"))
                    .containsExactly(null, TestingQuickstart.README_KEY);

            // the checks above can fail: what the page may not do is refused, and seen in both logs
            browser.executeScript("var img = document.createElement('img');"
                    + "img.src = 'https://cdn.example.invalid/x.png'; document.body.appendChild(img);"
                    + "var s = document.createElement('script'); s.textContent = 'window.inlineRan = true;';"
                    + "document.body.appendChild(s);");
            assertThat(browser.executeScript("return window.inlineRan === true")).isEqualTo(false);
            List<String> refused = until("the console reports the refusals", () -> {
                List<String> messages = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                        .map(LogEntry::getMessage).filter(msg -> msg.contains("Content Security Policy")).toList();
                return messages.isEmpty() ? null : messages;
            });
            assertThat(String.join("\n", refused)).contains("cdn.example.invalid");
            System.out.println("DocsIT: Chromium " + chromium.cost());
        } finally {
            browser = null;
        }
    }

    /** The folder of Swagger UI's files, as the page names it: {@code /docs/swagger-ui/5.34.1/}. */
    private static String swaggerUiFolder() {
        Matcher m = Pattern.compile("/docs/swagger-ui/[^/\"]+/").matcher(http().get("/docs", null).body());
        assertThat(m.find()).isTrue();
        return m.group();
    }

    /** Every request the page sent, from the performance log: {@code Network.requestWillBeSent}'s request. */
    private static List<JsonNode> requestsSent(ChromeDriver browser) {
        List<JsonNode> requests = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.PERFORMANCE)) {
            try {
                JsonNode message = JSON.readTree(entry.getMessage()).get("message");
                if (message.get("method").asText().equals("Network.requestWillBeSent")) {
                    requests.add(message.get("params").get("request"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return requests;
    }

    private static String header(JsonNode request, String name) {
        for (Map.Entry<String, JsonNode> h : request.get("headers").properties()) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue().asText();
            }
        }
        return null;
    }

    /** What the browser shows and logged, for a failure's message. */
    private static String shown() {
        if (browser == null) {
            return "";
        }
        StringBuilder out = new StringBuilder("\n--- page ").append(browser.getCurrentUrl()).append('\n');
        String text = text(browser, "body");
        out.append(text, 0, Math.min(text.length(), 3000)).append("\n--- console\n");
        browser.manage().logs().get(LogType.BROWSER).forEach(e -> out.append(e).append('\n'));
        return out.toString();
    }

    private static String text(ChromeDriver browser, String css) {
        return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText)
                .reduce("", String::concat);
    }

    /** Polls (up to 30 s) until {@code probe} gives a value that is neither null nor false. */
    private static <T> T until(String what, Supplier<T> probe) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        WebDriverException last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = probe.get();
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (WebDriverException notYet) {
                last = notYet; // e.g. an element replaced while it was read
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("timed out waiting for: " + what + shown(), last);
    }
}
