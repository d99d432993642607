/**
 * The {@code h2} dialect: an embedded H2 database file or an H2 TCP server through the H2 JDBC driver. See
 * {@code docs/dialects/h2.md}.
 */
package io.queryapigate.dialect.h2;
