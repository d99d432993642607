/**
 * The generic {@code jdbc} dialect: a JDBC driver from {@code plugins/}, one fresh connection per call (opened ahead,
 * closed in the background), read-only through {@code Connection.setReadOnly} plus the guard's strictest family. See {@code
 * docs/dialects/jdbc.md}.
 */
package io.queryapigate.dialect.genericjdbc;
