package io.queryapigate.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;

/**
 * Headless Chromium for browser tests, driven through Debian's chromedriver: both paths are given to Selenium, so
 * Selenium Manager never looks for (or downloads) a driver or a browser. Found as the test servers are ({@code
 * docs/testing.md}): {@code QAG_CHROMIUM} and {@code QAG_CHROMEDRIVER} ({@code scripts/test-services.sh} writes
 * them), else {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}; when they are not there the test fails
 * (never skips), naming the command that installs them.
 *
 * <p>The browser starts with the flags this closed network needs (no background calls to Google's hosts), a fresh
 * profile in a temporary folder (deleted on {@link #close()}), and its console ({@link LogType#BROWSER}) and network
 * events ({@link LogType#PERFORMANCE}) recorded.
 */
public final class TestingChromium implements AutoCloseable {
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1024");

    private final ChromeDriver driver;
    private final Path dir;
    private final long startMillis;

    private TestingChromium(ChromeDriver driver, Path dir, long startMillis) {
        this.driver = driver;
        this.dir = dir;
        this.startMillis = startMillis;
    }

    /** Starts chromedriver and a browser. */
    public static TestingChromium start() {
        Path chromium = find("QAG_CHROMIUM", "/usr/bin/chromium");
        Path chromedriver = find("QAG_CHROMEDRIVER", "/usr/bin/chromedriver");
        Path dir;
        try {
            dir = Files.createTempDirectory("qag-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions().setBinary(chromium.toFile()).addArguments(FLAGS)
                .addArguments("--user-data-dir=" + dir.resolve("profile"));
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL", LogType.PERFORMANCE, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .withLogFile(dir.resolve("chromedriver.log").toFile())
                .withTimeout(Duration.ofSeconds(60))
                .build();
        long t0 = System.nanoTime();
        ChromeDriver driver = new ChromeDriver(service, options);
        long started = (System.nanoTime() - t0) / 1_000_000;
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
        return new TestingChromium(driver, dir, started);
    }

    /** The browser. */
    public ChromeDriver driver() {
        return driver;
    }

    /**
     * What the browser costs now, for docs/testing.md: its start time (chromedriver and the browser), its processes
     * and their proportional set size (PSS: shared pages split between the processes that share them).
     */
    public String cost() {
        List<ProcessHandle> browser = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.contains("chrom")).orElse(false)).toList();
        long pssKib = browser.stream().mapToLong(TestingChromium::pssKib).sum();
        return "started in " + startMillis + " ms; " + browser.size() + " processes (chromedriver and Chromium), PSS "
                + pssKib / 1024 + " MiB";
    }

    /** Quits the browser and chromedriver and deletes the profile. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException e) {
                // a temporary folder left behind
            }
        }
    }

    private static long pssKib(ProcessHandle p) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(p.pid()), "smaps_rollup"))) {
            return lines.filter(l -> l.startsWith("Pss:")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .sum();
        } catch (IOException | UncheckedIOException gone) {
            return 0;
        }
    }

    private static Path find(String variable, String standard) {
        String fromEnv = System.getenv(variable);
        Path path = Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv.strip() : standard);
        if (!Files.isExecutable(path)) {
            throw new AssertionError(path + " (" + (fromEnv != null ? variable : "the standard place, or set "
                    + variable) + ") is missing: install Chromium and its driver with"
                    + " SERVICES=chromium scripts/test-services.sh start (scripts/test.sh does it)");
        }
        return path;
    }
}
