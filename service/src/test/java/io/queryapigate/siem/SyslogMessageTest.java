package io.queryapigate.siem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.store.AuditRow;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SyslogMessageTest {
    private static AuditRow row(long seq, String action, String actor, String target, String json) {
        return new AuditRow(seq, 1_767_225_600_123L, "admin", actor, null, action, target, null, "r-1", json,
                "sha256:aa", "sha256:bb");
    }

    @Test
    void theOctetCountIsTheMessagesLengthInBytesNotCharacters() {
        byte[] framed = new SyslogMessage(13, "h").framed(row(7, "key.create", "zoë", "key:k",
                "{\"n\":\"\u00e9\u2713\"}"));
        String text = new String(framed, StandardCharsets.UTF_8);
        int space = text.indexOf(' ');
        int count = Integer.parseInt(text.substring(0, space));
        byte[] message = Arrays.copyOfRange(framed, space + 1, framed.length);
        assertThat(message).hasSize(count);
        assertThat(new String(message, StandardCharsets.UTF_8)).isEqualTo("<110>1 2026-01-01T00:00:00.123Z h"
                + " queryapigate " + ProcessHandle.current().pid() + " key.create [meta sequenceId=\"7\"]"
                + "[queryapigate@32473 seq=\"7\" actor=\"zoë\" actor_kind=\"admin\" target=\"key:k\" request_id=\"r-1\""
                + " prev_hash=\"sha256:aa\" hash=\"sha256:bb\"] \uFEFF{\"n\":\"\u00e9\u2713\"}");
    }

    @Test
    void valuesCannotCloseTheStructuredDataAndHeaderFieldsCannotAddFields() {
        String message = new String(new SyslogMessage(4, "host name\n").message(row(1, "a b\nc", "x\"] [evil",
                "t\\]", "{}")), StandardCharsets.UTF_8);
        assertThat(message).startsWith("<38>1 2026-01-01T00:00:00.123Z hostname queryapigate ");
        assertThat(message).contains(" abc [meta sequenceId=\"1\"]")
                .contains("actor=\"x\\\"\\] [evil\"").contains("target=\"t\\\\\\]\"");
    }

    @Test
    void emptyOrUnprintableHeaderFieldsAreNil() {
        assertThat(SyslogMessage.headerField("", 32)).isEqualTo("-");
        assertThat(SyslogMessage.headerField(" \u00e9\t", 32)).isEqualTo("-");
        assertThat(SyslogMessage.headerField("x".repeat(40), 32)).hasSize(32);
    }

    @Test
    void sequenceIdStaysWithinItsRange() {
        String message = new String(new SyslogMessage(13, "h").message(row(2_147_483_648L, "a", "b", "c", "{}")),
                StandardCharsets.UTF_8);
        assertThat(message).contains("[meta sequenceId=\"1\"]").contains("seq=\"2147483648\"");
    }

    @Test
    void aFacilityOutsideSyslogsIsRefused() {
        assertThatThrownBy(() -> new SyslogMessage(24, "h")).hasMessageContaining("0 to 23");
        assertThatThrownBy(() -> new SyslogMessage(-1, "h")).hasMessageContaining("0 to 23");
    }
}
