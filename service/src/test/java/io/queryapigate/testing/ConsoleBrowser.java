package io.queryapigate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The Console in headless Chromium ({@link TestingChromium}), as a person uses it: open an address, sign in by typing
 * the key, click, type, wait for what the screen shows. Also what the checks need: axe-core's WCAG 2 A and AA
 * rules run in the page ({@link #assertAccessible}), the browser's console errors (a CSP violation is one), and
 * screenshots for docs/console.md at 1280x800 and at a phone's width.
 *
 * <p>Screens mark themselves busy while they load ({@code main[aria-busy]}) and name themselves
 * ({@code main[data-screen]}, the screen's path pattern such as {@code /queries/:name}): waits use both.
 */
public final class ConsoleBrowser implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
    /** Where screenshots go: docs/console/ in the repository, committed when they change. */
    public static final Path SHOTS = TestingQuickstart.repo().resolve("docs/console");
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String AXE = "/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js";

    private TestingChromium chromium;
    private String base;
    private TestingQuickstart quickstart;

    private ConsoleBrowser(TestingChromium chromium, String base) {
        this.chromium = chromium;
        this.base = base;
    }

    /**
     * A browser on the quickstart, as a JUnit extension ({@code @RegisterExtension static final}): the packaged jar
     * starts before the class's tests, then Chromium at 1280x800; both stop after them.
     */
    public static ConsoleBrowser onQuickstart() {
        return new ConsoleBrowser(null, null);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (chromium == null) {
            quickstart = TestingQuickstart.start();
            base = quickstart.baseUrl();
            chromium = TestingChromium.start();
            desktop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (quickstart != null) {
            close();
            quickstart.close();
        }
    }

    /** The quickstart this browser was started on by {@link #onQuickstart()}. */
    public TestingQuickstart quickstart() {
        return quickstart;
    }

    /** A browser for the gateway at {@code base} ({@code http://127.0.0.1:port}), 1280x800. */
    public static ConsoleBrowser open(String base) {
        ConsoleBrowser browser = new ConsoleBrowser(TestingChromium.start(), base);
        browser.desktop();
        return browser;
    }

    /** The driver, for what these helpers do not cover. */
    public ChromeDriver driver() {
        return chromium.driver();
    }

    /** What the browser costs now ({@link TestingChromium#cost()}), for docs/testing.md. */
    public String cost() {
        return chromium.cost();
    }

    /** The gateway's address. */
    public String base() {
        return base;
    }

    /** Opens a Console address ({@code /queries/film}) by loading the page, and waits for its screen. */
    public ConsoleBrowser go(String path) {
        driver().get(base + "/console" + path);
        return waitForScreen();
    }

    /**
     * Opens {@code /console} and signs in with the administrator key or a personal admin token, typed in (signing out
     * first whoever is signed in).
     */
    public ConsoleBrowser signIn(String secret) {
        driver().get(base + "/console/");
        WebElement seen = waitFor("input[name=secret], header.top");
        if (!"input".equals(seen.getTagName())) {
            signOut();
        }
        WebElement field = waitFor("input[name=secret]");
        field.sendKeys(secret);
        click("main.signin button[type=submit]");
        waitFor("header.top");
        return waitForScreen();
    }

    /** Signs out with the header's button and waits for the sign-in form. */
    public ConsoleBrowser signOut() {
        click("[data-action=sign-out]");
        waitFor("input[name=secret]");
        return this;
    }

    /** Waits until the screen shown has finished loading (no {@code aria-busy}). */
    public ConsoleBrowser waitForScreen() {
        until("the screen to load", () -> (Boolean) js("const m = document.getElementById('main');"
                + " return !!m && !m.hasAttribute('aria-busy') && (m.closest('.signin') !== null"
                + " || m.dataset.screen !== undefined);"));
        return this;
    }

    /** Waits until the screen {@code pattern} (its path, as registered: {@code /keys/:name}) is shown, loaded. */
    public ConsoleBrowser waitForScreen(String pattern) {
        until("the screen " + pattern, () -> (Boolean) js("const m = document.getElementById('main');"
                + " return !!m && m.dataset.screen === arguments[0] && !m.hasAttribute('aria-busy');", pattern));
        return this;
    }

    /** Follows a link in the menu by its text and waits for its screen. */
    public ConsoleBrowser menu(String label) {
        WebElement link = until("the menu link " + label, () -> driver().findElements(By.cssSelector("#menu a"))
                .stream().filter(a -> a.getText().strip().equals(label)).findFirst().orElse(null));
        ((JavascriptExecutor) driver()).executeScript("arguments[0].click()", link);
        return waitForScreen();
    }

    /** The first element matching a CSS selector, once there and shown. */
    public WebElement waitFor(String css) {
        return until(css, () -> driver().findElements(By.cssSelector(css)).stream().filter(WebElement::isDisplayed)
                .findFirst().orElse(null));
    }

    /** The first element matching {@code css} whose text contains {@code text}, once there. */
    public WebElement waitForText(String css, String text) {
        return until(css + " containing \"" + text + "\"", () -> driver().findElements(By.cssSelector(css)).stream()
                .filter(e -> e.getText().contains(text)).findFirst().orElse(null));
    }

    /** Whether something matching {@code css} is in the page now (no waiting). */
    public boolean present(String css) {
        return !driver().findElements(By.cssSelector(css)).isEmpty();
    }

    /** Clicks the element matching {@code css}, once there. */
    public ConsoleBrowser click(String css) {
        waitFor(css).click();
        return this;
    }

    /** Clicks the element matching {@code css} once scrolled to the middle of the window (the sticky header covers
     * the top). */
    public ConsoleBrowser press(String css) {
        WebElement target = waitFor(css);
        js("arguments[0].scrollIntoView({block: 'center'})", target);
        target.click();
        return this;
    }

    /** Chooses the option {@code value} of the select matching {@code css} (failing when it has none), as a change. */
    public ConsoleBrowser choose(String css, String value) {
        js("arguments[0].value = arguments[1]; if (arguments[0].value !== arguments[1]) throw new Error('no option '"
                + " + arguments[1]); arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                waitFor(css), value);
        return this;
    }

    /** Clicks the button (or link) whose text is {@code text}, once there. */
    public ConsoleBrowser clickText(String text) {
        WebElement target = until("a button or link \"" + text + "\"", () -> driver()
                .findElements(By.cssSelector("button, a")).stream()
                .filter(e -> e.isDisplayed() && e.getText().strip().equals(text)).findFirst().orElse(null));
        target.click();
        return this;
    }

    /** Replaces the text of the field matching {@code css} with {@code text}. */
    public ConsoleBrowser type(String css, String text) {
        WebElement field = waitFor(css);
        field.clear();
        field.sendKeys(text);
        return this;
    }

    /** Replaces the text of the SQL editor (CodeMirror) in the element matching {@code css}. */
    public ConsoleBrowser typeSql(String css, String sql) {
        WebElement editor = waitFor(css + " .CodeMirror");
        js("arguments[0].CodeMirror.setValue(arguments[1]);", editor, sql);
        return this;
    }

    /** Answers the confirmation dialog with its confirm button. */
    public ConsoleBrowser confirm() {
        return click("dialog[open] [data-confirm=yes]");
    }

    /** Runs JavaScript in the page. */
    public Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver()).executeScript(script, args);
    }

    /** Calls the API from the page, with the session's cookie and CSRF token, as the Console does: the status. */
    public long fetchStatus(String method, String path, String jsonBody) {
        Object status = ((JavascriptExecutor) driver()).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + " const init = {method: arguments[0], headers: {'X-CSRF-Token': window.QAG.csrfToken(),"
                + " 'Content-Type': 'application/json'}, credentials: 'same-origin'};"
                + " if (arguments[2] !== null) init.body = arguments[2];"
                + " fetch(arguments[1], init).then(r => done(r.status), e => done(-1));", method, path, jsonBody);
        return ((Number) status).longValue();
    }

    /**
     * Runs axe-core's WCAG 2 A and AA rules on the page as it is now and fails, naming each violation and the
     * elements it found, unless there are none.
     */
    public ConsoleBrowser assertAccessible(String where) {
        if (!(Boolean) js("return typeof window.axe !== 'undefined';")) {
            js(axeSource());
        }
        Object result = ((JavascriptExecutor) driver()).executeAsyncScript("const done = arguments[0];"
                + " axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
                + ".then(r => done(r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at '"
                + " + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', '))), e => done(['axe failed: ' + e]));");
        @SuppressWarnings("unchecked")
        List<String> violations = (List<String>) result;
        if (!violations.isEmpty()) {
            throw new AssertionError("axe-core found accessibility problems on " + where + ":\n  "
                    + String.join("\n  ", violations));
        }
        return this;
    }

    /** What the page logged as errors (a CSP violation, a failed script), since the last call. */
    public List<String> consoleErrors() {
        List<String> errors = new ArrayList<>();
        for (LogEntry e : driver().manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(e.getMessage());
            }
        }
        return errors;
    }

    /**
     * A screenshot of the page as shown, into docs/console/NAME.png, and at a phone's width (390x844) into
     * NAME-phone.png when {@code phone}; the window is 1280x800 again afterwards.
     */
    public ConsoleBrowser screenshot(String name, boolean phone) {
        desktop();
        waitForScreen();
        save(name + ".png");
        if (phone) {
            driver().manage().window().setSize(new Dimension(390, 844));
            waitForScreen();
            save(name + "-phone.png");
            desktop();
        }
        return this;
    }

    /** Waits for {@code what} to answer something other than null or false. */
    public <T> T until(String what, java.util.function.Supplier<T> probe) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = probe.get();
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (RuntimeException e) { // an element replaced while looked at, a page still loading
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
        String main = String.valueOf(js("const m = document.getElementById('main') || document.body;"
                + " return m.innerText.slice(0, 2000);"));
        throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + what + " at "
                + driver().getCurrentUrl() + "; the page shows:\n" + main + "\nbrowser errors: " + consoleErrors(),
                last);
    }

    @Override
    public void close() {
        if (chromium != null) {
            chromium.close();
        }
    }

    private void desktop() {
        driver().manage().window().setSize(new Dimension(1280, 800));
    }

    private void save(String file) {
        try {
            Files.createDirectories(SHOTS);
            // the viewport only: what a person sees at this size without scrolling
            Files.write(SHOTS.resolve(file), driver().getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String axeSource() {
        try (InputStream in = ConsoleBrowser.class.getResourceAsStream(AXE)) {
            if (in == null) {
                throw new IllegalStateException("axe-core is not on the test class path (" + AXE + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
