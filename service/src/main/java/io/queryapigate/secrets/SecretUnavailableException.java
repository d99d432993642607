package io.queryapigate.secrets;

/**
 * A secret reference could not be resolved: its provider is unreachable, denied it, or the reference is not allowed.
 * Calls on the connection answer 503 {@code secret_unavailable}; the message names the reference, never a value.
 */
public final class SecretUnavailableException extends RuntimeException {
    public SecretUnavailableException(String message) {
        super(message);
    }

    public SecretUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
