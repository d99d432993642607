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
     * message (which echoes {@code echoed}), the second gets {@code 400 query_invalid} with the message withheld.
     */
    public static void assertMessageWithheld(Http.Reply unrestricted, Http.Reply restricted, String echoed) {
        assertThat(unrestricted.status()).as(unrestricted.body()).isEqualTo(400);
        assertThat(unrestricted.body()).contains(echoed);
        restricted.assertRefused(400, "query_invalid");
        assertThat(restricted.body()).contains("withheld").doesNotContain(echoed);
    }
}
