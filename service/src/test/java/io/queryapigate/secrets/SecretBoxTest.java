package io.queryapigate.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretBoxTest {
    private static final String A = SecretBox.newKey();
    private static final String B = SecretBox.newKey();

    @Test
    void sealsAndOpensUnderTheSameContext() {
        SecretBox box = SecretBox.of(A);
        String sealed = box.seal("pa55 wörd", "connection:sales:password");
        assertThat(sealed).startsWith("tink1:").doesNotContain("pa55");
        assertThat(box.open(sealed, "connection:sales:password")).isEqualTo("pa55 wörd");
        assertThat(box.seal("pa55 wörd", "connection:sales:password")).isNotEqualTo(sealed);
    }

    @Test
    void aValueCopiedToAnotherContextOrAlteredIsRefusedWithoutShowingIt() {
        SecretBox box = SecretBox.of(A);
        String sealed = box.seal("hunter2", "connection:sales:password");
        assertThatThrownBy(() -> box.open(sealed, "connection:hr:password"))
                .isInstanceOf(SecretUnavailableException.class).hasMessageContaining("connection:hr:password")
                .hasMessageNotContaining("hunter2");
        char last = sealed.charAt(sealed.length() - 2);
        String altered = sealed.substring(0, sealed.length() - 2) + (last == 'A' ? 'B' : 'A')
                + sealed.charAt(sealed.length() - 1);
        assertThatThrownBy(() -> box.open(altered, "connection:sales:password"))
                .isInstanceOf(SecretUnavailableException.class);
    }

    @Test
    void theFirstKeyEncryptsEveryListedKeyDecrypts() {
        String underA = SecretBox.of(A).seal("x", "c");
        SecretBox rotating = SecretBox.of(B + "," + A);
        assertThat(rotating.open(underA, "c")).isEqualTo("x");
        assertThat(rotating.keyIndex(underA)).contains(1);
        String underB = rotating.seal("x", "c");
        assertThat(rotating.keyIndex(underB)).contains(0);
        SecretBox onlyB = SecretBox.of(B);
        assertThat(onlyB.keyIndex(underA)).isEmpty();
        assertThatThrownBy(() -> onlyB.open(underA, "c")).isInstanceOf(SecretUnavailableException.class)
                .hasMessageContaining("no longer listed");
    }

    @Test
    void badKeysStopWithAMessageNamingWhichKey() {
        assertThatThrownBy(() -> SecretBox.of(A + ",short")).hasMessageContaining("Key 2 of 2 in "
                + SecretBox.VARIABLE).hasMessageContaining("32 random bytes");
        assertThatThrownBy(() -> SecretBox.of(A + "," + A)).hasMessageContaining("listed twice");
        assertThat(SecretBox.of(" ").canSeal()).isFalse();
        assertThatThrownBy(() -> SecretBox.of("").seal("x", "c")).hasMessageContaining("is not set");
        // a key as the Python original's Fernet.generate_key() writes it (URL-safe base64, padded)
        assertThat(SecretBox.of("kYx4jQ3xWq0cZ2s0T1aJ6mJm6dQ0oPqk9Zb3eR1uV_Y=").canSeal()).isTrue();
    }
}
