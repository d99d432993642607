/**
 * A QueryAPIGate dialect for embedded Apache Derby, written outside the QueryAPIGate build as the worked example of a
 * third-party dialect plugin.
 *
 * <p>{@link com.example.qag.derby.DerbyDialectFactory} is the entry point (registered in {@code
 * META-INF/services/io.queryapigate.dialect.spi.DialectFactory}); it binds the {@code derby.*} properties into a
 * {@link com.example.qag.derby.DerbyDialectConfig} and builds a {@link com.example.qag.derby.DerbyDialect}, which runs
 * each call on one of a small pool of Derby connections ({@link com.example.qag.derby.DerbySessions}) as its {@link
 * com.example.qag.derby.DerbySessionStrategy} plans it.
 */
package com.example.qag.derby;
