package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.http.Cors;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecurityConfigTest {
    private static SecurityConfig cors(List<String> origins, boolean credentials) {
        SecurityConfig c = new SecurityConfig();
        c.setCorsOrigins(origins);
        c.setCorsCredentials(credentials);
        return c;
    }

    @Test
    void corsIsOffWithoutOrigins() {
        assertThat(cors(List.of(), false).buildCors()).isNull();
    }

    @Test
    void credentialsAreNeverAllowedWithAnyOrigin() {
        assertThatThrownBy(() -> cors(List.of("*"), true).buildCors())
                .hasMessageStartingWith("security.corsCredentials:");
        assertThatThrownBy(() -> cors(List.of("https://a.example", " * "), true).buildCors())
                .hasMessageStartingWith("security.corsCredentials:");
        assertThatThrownBy(() -> cors(List.of(), true).buildCors())
                .hasMessageStartingWith("security.corsCredentials:");
        Cors listed = cors(List.of("https://a.example"), true).buildCors();
        assertThat(listed.isAllowCredentials()).isTrue();
    }

    @Test
    void originsAreExactNeverPatterns() {
        assertThatThrownBy(() -> cors(List.of("https://*.example.com"), false).buildCors())
                .hasMessageStartingWith("security.corsOrigins:");
        Cors c = cors(List.of("https://App.Example.com/", "http://localhost:3000"), false).buildCors();
        assertThat(c.getAllowedOriginPatterns()).containsExactlyInAnyOrder("\\Qhttps://app.example.com\\E",
                "\\Qhttp://localhost:3000\\E");
        assertThatThrownBy(() -> cors(List.of("app.example.com"), false).buildCors())
                .hasMessageStartingWith("security.corsOrigins:");
        assertThatThrownBy(() -> cors(List.of("https://app.example.com/path"), false).buildCors())
                .hasMessageStartingWith("security.corsOrigins:");
    }

    @Test
    void methodsAndHeadersMustBeTokens() {
        SecurityConfig c = cors(List.of("https://a.example"), false);
        c.setCorsHeaders(List.of("X-API-Key", "Bad Header"));
        assertThatThrownBy(c::buildCors).hasMessageStartingWith("security.corsHeaders:");
        c.setCorsHeaders(List.of("X-API-Key"));
        c.setCorsMethods(List.of("GET", "PO\nST"));
        assertThatThrownBy(c::buildCors).hasMessageStartingWith("security.corsMethods:");
    }
}
