/**
 * The dialect SPI: how QueryAPIGate reaches a database engine.
 *
 * <p>A dialect is a jar holding an implementation of {@link io.queryapigate.dialect.spi.DialectFactory} and a
 * {@code META-INF/services/io.queryapigate.dialect.spi.DialectFactory} line naming it. The service discovers
 * factories once with {@link java.util.ServiceLoader}, and asks a factory for one {@link
 * io.queryapigate.dialect.spi.Dialect} per connection that the operator's YAML declares with that factory's name.
 *
 * <p>A dialect also tells the service how its engine's SQL reads, so that the service's SQL guard checks what the
 * engine will run: {@link io.queryapigate.dialect.spi.Dialect#sqlFamily()} (parser options, function lists) and
 * {@link io.queryapigate.dialect.spi.Dialect#lexicalRules()} (quotes, escapes, comments, name case; {@link
 * io.queryapigate.dialect.spi.LexicalRules}).
 *
 * <p>The package depends on the JDK alone. Every type here is either an interface whose later additions are
 * default methods, or an immutable record, so that a dialect compiled against an older SPI of the same major
 * version keeps working.
 *
 * <p>Threading: a {@code Dialect} is shared by every request on its connection and must be thread-safe. A {@link
 * io.queryapigate.dialect.spi.RowSink} belongs to one call and is used from the thread that called {@code execute}.
 */
package io.queryapigate.dialect.spi;
