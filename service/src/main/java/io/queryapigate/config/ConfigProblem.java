package io.queryapigate.config;

/**
 * One mistake in the configuration file: the key's full path ({@code connections.shop.poolSize},
 * {@code jwt.issuers[0].audiences}; empty for the file as a whole), the line it is on (1-based; 0 when the key is
 * not in the file, as for a required key that is missing) and what is wrong.
 */
public record ConfigProblem(String key, int line, String message) {
    /** One line for the console: {@code config.yml:12: connections.shop.poolSize: 'eight' is not a whole number}. */
    public String describe(String file) {
        String where = line > 0 ? file + ":" + line : file;
        return key.isEmpty() ? where + ": " + message : where + ": " + key + ": " + message;
    }
}
