package io.queryapigate.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CursorsTest {

    @Test
    void aCursorReadsBackOnlyAsItsOwnKind() {
        String history = Cursors.encode('r', 1234);
        assertThat(Cursors.decode('r', history)).isEqualTo(1234);
        assertThat(Cursors.decode('r', " " + history + " ")).isEqualTo(1234);
        assertThat(Cursors.decode('a', history)).as("the audit log's listing refuses the history's").isEqualTo(-1);
    }

    @Test
    void anythingElseIsNotACursor() {
        for (String text : new String[] {"", "!!", "cg", Cursors.encode('r', 0), Cursors.encode('r', -5),
                java.util.Base64.getUrlEncoder().encodeToString("rx".getBytes()),
                java.util.Base64.getUrlEncoder().encodeToString("r99999999999999999999".getBytes())}) {
            assertThat(Cursors.decode('r', text)).as(text).isEqualTo(-1);
        }
    }
}
