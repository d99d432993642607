package io.queryapigate.sso;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a finished sign-in may send the browser: only a console page of this server, never an open redirect. */
class ConsoleSignInTest {
    @Test
    void consolePagesAreKept() {
        assertThat(ConsoleSignIn.safeReturnTo("/console/queries/sales?tab=history#v2"))
                .isEqualTo("/console/queries/sales?tab=history#v2");
        assertThat(ConsoleSignIn.safeReturnTo("/console")).isEqualTo("/console");
        assertThat(ConsoleSignIn.safeReturnTo(null)).isEqualTo("/console/");
    }

    @Test
    void everythingElseLandsOnTheConsole() {
        for (String attack : List.of("https://evil.example.com/", "//evil.example.com", "/\\evil.example.com",
                "/console//evil.example.com", "/console/\\\\evil.example.com", "/console/../api/v1/api-keys",
                "/console/%2e%2e/api", "/console/%2F%2Fevil.example.com", "/consolex", "/console@evil.example.com",
                "/console/\r\nSet-Cookie: x=y", "/console/\tx", "javascript:alert(1)", "/api/v1/me", "",
                "/console/ä", "console/x", "/console/" + "a".repeat(2001))) {
            assertThat(ConsoleSignIn.safeReturnTo(attack)).as(attack).isEqualTo("/console/");
        }
    }
}
