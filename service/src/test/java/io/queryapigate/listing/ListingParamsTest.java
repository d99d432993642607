package io.queryapigate.listing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.errors.ApiException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ListingParamsTest {

    @Test
    void aCursorReadsBackOnlyAsItsOwnKind() {
        String history = ListingParams.nextCursor('r', 1234);
        assertThat(ListingParams.cursor('r', history)).isEqualTo(1234);
        assertThat(ListingParams.cursor('r', " " + history + " ")).isEqualTo(1234);
        assertThat(ListingParams.cursor('r', null)).as("none: from the newest").isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> ListingParams.cursor('a', history)).as("the audit log refuses the history's")
                .isInstanceOf(ApiException.class).hasMessageContaining("not one this server returned");
    }

    @Test
    void anythingElseIsNotACursor() {
        for (String text : new String[] {"!!", "cg", ListingParams.nextCursor('r', 0),
                ListingParams.nextCursor('r', -5), Base64.getUrlEncoder().encodeToString("rx".getBytes()),
                Base64.getUrlEncoder().encodeToString("r99999999999999999999".getBytes())}) {
            assertThatThrownBy(() -> ListingParams.cursor('r', text)).as(text).isInstanceOf(ApiException.class);
        }
    }

    @Test
    void aLimitIsAWholeNumberWithinItsRange() {
        assertThat(ListingParams.limit(null, 100, 1000)).isEqualTo(100);
        assertThat(ListingParams.limit(" 7 ", 100, 1000)).isEqualTo(7);
        for (String text : new String[] {"0", "-1", "1001", "99999999999999999999"}) {
            assertThatThrownBy(() -> ListingParams.limit(text, 100, 1000)).as(text)
                    .hasMessage("limit must be between 1 and 1000");
        }
        assertThatThrownBy(() -> ListingParams.limit("ten", 100, 1000)).hasMessage("limit must be an integer");
    }
}
