package io.queryapigate.store;

/**
 * An object a configuration-as-code directory owns: its kind ({@code queries}, {@code api_keys}, ...), name, the
 * file that declares it (relative to the directory), that file's SHA-256 as applied, when (epoch milliseconds) and
 * by whom.
 */
public record ManagedRow(String kind, String name, String file, String contentSha256, long appliedAt,
        String appliedBy) {}
