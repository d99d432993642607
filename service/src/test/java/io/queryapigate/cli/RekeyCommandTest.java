package io.queryapigate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.audit.AuditLog;
import io.queryapigate.secrets.Rekey;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingAudit;
import java.nio.file.Path;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code queryapigate rekey} prints, on a real store. */
class RekeyCommandTest {
    @TempDir
    Path home;

    @Test
    void dryRunReportsRekeyMovesAndSaysWhenTheOldKeyCanGo() {
        String url = "jdbc:sqlite:" + home.resolve("store.db");
        Store.migrate(url, null, null);
        Store store = Store.connect(url, null, null);
        Jdbi jdbi = store.jdbi();
        AuditLog audit = TestingAudit.of(store);
        String oldKey = SecretBox.newKey();
        String newKey = SecretBox.newKey();
        jdbi.useHandle(h -> h.createUpdate("INSERT INTO connections (name, dialect, url, password_sealed, pool_size,"
                + " properties, allowed_functions, created_at, updated_at) VALUES ('sales', 'postgres', 'jdbc:x', :s,"
                + " 4, '{}', '[]', 0, 0)").bind("s", SecretBox.of(oldKey).seal("pw", Rekey.context("sales")))
                .execute());
        Rekey rekey = new Rekey(jdbi, SecretBox.of(newKey + "," + oldKey),
                (action, changes) -> audit.append(action, "secret_key", changes));
        assertThat(RekeyCommand.run(rekey, true, false)).isEqualTo("1 encrypted password(s), 2 key(s) listed:"
                + " 0 under the first key, 1 under key 2.\nRun `queryapigate rekey` to move them to the first key.");
        assertThat(RekeyCommand.run(rekey, false, false)).isEqualTo("Re-encrypted 1 password(s) under the first"
                + " key.\n1 encrypted password(s), 2 key(s) listed: 1 under the first key, 0 under key 2.\n"
                + "Nothing is left under the other keys: remove them from QUERYAPIGATE_SECRET_KEY on every instance.");
        assertThatThrownBy(() -> RekeyCommand.run(new Rekey(jdbi, SecretBox.of(null)), true, false))
                .hasMessageContaining("QUERYAPIGATE_SECRET_KEY is not set");
        assertThat(RekeyCommand.run(new Rekey(jdbi, SecretBox.of(SecretBox.newKey())), true, true))
                .startsWith("Would clear 1 password(s) no listed key decrypts: sales\n");
    }
}
