package io.queryapigate.core;

/** A finished call: the rendered body and what it held. */
public record CallResult(byte[] body, long rows, boolean truncated, String connection) {}
