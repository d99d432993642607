package io.queryapigate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** Checks that a response shows none of the raw values an attack tried to reach, in any obvious disguise. */
public final class Leaks {
    private Leaks() {}

    /**
     * Fails when {@code body} holds any raw value, the value without its dashes, its tail after the first
     * separator, or the value reversed.
     */
    public static void assertNone(String context, String body, List<String> raw) {
        for (String value : raw) {
            assertThat(body).as(context).doesNotContain(value).doesNotContain(value.replace("-", ""))
                    .doesNotContain(value.substring(value.indexOf('-') + 1))
                    .doesNotContain(new StringBuilder(value).reverse().toString());
        }
    }

    /**
     * The same failing SQL, as an unrestricted key and as a restricted or masked one: the first sees the database's
     * message as {@code detail} (which echoes {@code echoed}), the second gets {@code 500 query_failed} with the
     * message withheld.
     */
    public static void assertMessageWithheld(Http.Reply unrestricted, Http.Reply restricted, String echoed) {
        assertThat(unrestricted.status()).as(unrestricted.body()).isEqualTo(500);
        assertThat(unrestricted.json().get("detail").asText()).contains(echoed);
        restricted.assertRefused(500, "query_failed");
        assertThat(restricted.body()).contains("withheld").doesNotContain(echoed);
    }
}
