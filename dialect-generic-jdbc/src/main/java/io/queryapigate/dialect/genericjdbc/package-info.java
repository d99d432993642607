/**
 * The generic {@code jdbc} dialect: a JDBC driver from {@code plugins/}, pooled by HikariCP, one connection per
 * call, read-only through {@code Connection.setReadOnly} plus the guard's strictest family. See {@code
 * docs/dialects/jdbc.md}.
 */
package io.queryapigate.dialect.genericjdbc;
