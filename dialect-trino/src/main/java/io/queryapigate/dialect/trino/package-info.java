/**
 * The Trino dialect: {@link io.queryapigate.dialect.trino.TrinoDialectFactory} ({@code dialect: trino}), a fresh
 * trino-jdbc session per call, reads in a {@code READ ONLY} transaction, the time limit as per-query session
 * properties plus a client-side cancel. See {@code docs/dialects/trino.md}.
 */
package io.queryapigate.dialect.trino;
