package io.queryapigate.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

class SwaggerUiTest {
    private final SwaggerUi ui = SwaggerUi.fromClassPath(SwaggerUiTest.class.getClassLoader());

    @Test
    void theVersionIsTheWebjarsAndNamesTheFolder() throws IOException {
        assertThat(ui.version()).matches("\\d+\\.\\d+\\.\\d+");
        Asset bundle = ui.file(ui.version(), "swagger-ui-bundle.js").orElseThrow();
        assertThat(bundle.mediaType()).isEqualTo("text/javascript; charset=utf-8");
        assertThat(bundle.cacheControl()).contains("immutable");
        try (InputStream in = bundle.content().get()) {
            assertThat(new String(in.readNBytes(4096))).contains("SwaggerUIBundle");
        }
        assertThat(ui.file(ui.version(), "swagger-ui.css")).isPresent();
        assertThat(ui.file(ui.version(), "favicon-32x32.png")).isPresent();
    }

    @Test
    void onlyThePagesFilesOfThisVersionAreGiven() {
        assertThat(ui.file("1.0.0", "swagger-ui-bundle.js")).isEmpty();
        assertThat(ui.file(ui.version(), "index.html")).isEmpty();
        assertThat(ui.file(ui.version(), "swagger-initializer.js")).isEmpty();
        assertThat(ui.file(ui.version(), "../" + ui.version() + "/swagger-ui.css")).isEmpty();
    }

    @Test
    void aClassPathWithoutTheWebjarFailsAtStartup() throws IOException {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThatThrownBy(() -> SwaggerUi.fromClassPath(empty)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("org.webjars:swagger-ui");
        }
    }

    @Test
    void thePageLoadsItsFilesFromThisVersionsFolderAndItsOwnFiles() {
        DocsPage page = DocsPage.of(ui);
        assertThat(page.html()).contains("/docs/swagger-ui/" + ui.version() + "/swagger-ui-bundle.js")
                .contains("/docs/swagger-ui/" + ui.version() + "/swagger-ui.css").doesNotContain("{{");
        assertThat(page.ownFile("docs.js").orElseThrow().etag()).hasSize(32);
        assertThat(page.ownFile("docs.css").orElseThrow().cacheControl()).isEqualTo("no-cache");
        assertThat(page.ownFile("docs.html")).isEmpty();
    }
}
