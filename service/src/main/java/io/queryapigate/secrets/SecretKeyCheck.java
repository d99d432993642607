package io.queryapigate.secrets;

import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check at startup that the store's sealed passwords can be opened: when it holds one and
 * {@value SecretBox#VARIABLE} is not set, or holds one no listed key decrypts, the server does not start, and the
 * message names the connections and what to do. Values still under an old key only earn a warning.
 */
public final class SecretKeyCheck {
    private static final Logger LOG = LoggerFactory.getLogger(SecretKeyCheck.class);

    private SecretKeyCheck() {}

    /**
     * @throws IllegalStateException when a sealed password cannot be opened
     */
    public static void verify(Jdbi store, SecretBox box) {
        Rekey.Report report = new Rekey(store, box).report();
        if (!report.undecryptable().isEmpty()) {
            String names = Rekey.names(report.undecryptable());
            throw new IllegalStateException(!box.canSeal()
                    ? "The store holds the encrypted password of " + names + ", and " + SecretBox.VARIABLE
                            + " is not set. Set it to the key they were encrypted with (the same value as on the"
                            + " instance that saved them). If that key is lost, the passwords cannot be recovered:"
                            + " `queryapigate rekey --forget-undecryptable CONFIG` (with a new key set) clears them,"
                            + " then enter them again."
                    : "No key in " + SecretBox.VARIABLE + " decrypts the stored password of " + names + ". Add the"
                            + " key it was encrypted with after the first one (QUERYAPIGATE_SECRET_KEY=new,old). If"
                            + " that key is lost, the passwords cannot be recovered: `queryapigate rekey"
                            + " --forget-undecryptable CONFIG` clears them, then enter them again.");
        }
        if (report.underOldKeys() > 0) {
            LOG.warn("{} stored password(s) are still encrypted with an old key in {}: run `queryapigate rekey`"
                    + " to move them to the first key, then remove the others.", report.underOldKeys(),
                    SecretBox.VARIABLE);
        }
    }
}
