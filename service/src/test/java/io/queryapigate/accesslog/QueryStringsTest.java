package io.queryapigate.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryStringsTest {
    @Test
    void valuesAreRemovedAndNamesKept() {
        assertThat(QueryStrings.withoutValues("email=alice@example.com&id=7")).isEqualTo("email=...&id=...");
        assertThat(QueryStrings.withoutValues("a=&b")).isEqualTo("a=...&...");
        assertThat(QueryStrings.withoutValues("tags[]=x&tags[]=y")).isEqualTo("tags[]=...&tags[]=...");
        assertThat(QueryStrings.withoutValues("a=1=2")).isEqualTo("a=...");
        assertThat(QueryStrings.withoutValues("a=1&&b=2")).isEqualTo("a=...&&b=...");
        assertThat(QueryStrings.withoutValues(null)).isNull();
        assertThat(QueryStrings.withoutValues("")).isEmpty();
    }

    @Test
    void aValueInANamesPlaceIsRemovedToo() {
        assertThat(QueryStrings.withoutValues("sk_live_0123456789abcdef")).isEqualTo("...");
        assertThat(QueryStrings.withoutValues("alice@example.com")).isEqualTo("...");
        assertThat(QueryStrings.withoutValues("x=1&a b=2")).isEqualTo("x=...&...");
        assertThat(QueryStrings.withoutValues("n%0Aforged=1")).isEqualTo("n%0Aforged=...");
        assertThat(QueryStrings.withoutValues("x".repeat(65) + "=1")).isEqualTo("...");
        assertThat(QueryStrings.withoutValues("q=\"quoted\"%20value&id=1")).isEqualTo("q=...&id=...");
    }
}
