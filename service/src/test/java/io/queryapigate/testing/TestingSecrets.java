package io.queryapigate.testing;

import io.queryapigate.GatewayApplication;
import io.queryapigate.secrets.SecretBox;
import java.util.HashMap;
import java.util.Map;

/** The gateway as started with {@code QUERYAPIGATE_SECRET_KEY} set, for tests that store passwords. */
public final class TestingSecrets {
    /** A fixed key (32 bytes, base64), only ever used by tests. */
    public static final String KEY = "q0Jx7Hc1m3Vg2bQ9tK5yWzA8eRfN4sLpU6dIhOjGkCw=";

    private TestingSecrets() {}

    /** The process's environment plus the key. */
    public static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(SecretBox.VARIABLE, KEY);
        return env;
    }

    /** {@link GatewayApplication} with {@link #KEY} in its environment. */
    public static class KeyedGateway extends GatewayApplication {
        @Override
        protected Map<String, String> environmentVariables() {
            return environment();
        }
    }
}
