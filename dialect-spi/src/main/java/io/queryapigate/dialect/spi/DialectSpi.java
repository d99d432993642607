package io.queryapigate.dialect.spi;

/**
 * Version of this SPI.
 *
 * <p>A factory's {@link DialectFactory#spiVersion()} returns {@link #VERSION}. Because the compiler inlines the
 * constant, the value a plugin reports is the SPI it was built against, which lets the service refuse a plugin
 * built for another major version instead of failing later with a linkage error.
 */
public final class DialectSpi {
    /**
     * The SPI version, {@code major.minor}. Minor versions only add default methods, types and records' factory
     * methods. 1.1 added {@link LexicalRules} and {@link Dialect#lexicalRules()}; 1.2 added {@link
     * Dialect#describe}, {@link Nullability} and {@link ColumnInfo#nullability()}; 1.3 added {@link
     * Dialect#serverVersion}, {@link Dialect#databases}, {@link Dialect#describeNamespace}, {@link SchemaTable}
     * and {@link SchemaColumn}; 1.4 added {@link QueryRequest#maxAffectedRows()}, {@link
     * Capability#AFFECTED_ROWS_CEILING} and {@link AffectedRowsExceeded}; 1.5 added {@link Dialect#queryLanguage()} and {@link
     * MongoQueryGuard}.
     */
    public static final String VERSION = "1.5";

    private DialectSpi() {}

    /**
     * The major part of a version string such as {@code "1.0"}.
     *
     * @param version a {@code major.minor} version
     * @return the major number
     * @throws IllegalArgumentException if the version is not of that form
     */
    public static int major(String version) {
        if (version == null) {
            throw new IllegalArgumentException("SPI version is null");
        }
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an SPI version: " + version, e);
        }
    }
}
