package io.queryapigate.dialect.genericjdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GenericJdbcDialectFactoryTest {

    private static final String MEMORY = "jdbc:hsqldb:mem:factory";

    @TempDir
    Path home;

    @Test
    void isFoundByServiceLoaderAsJdbc() {
        assertThat(ServiceLoader.load(DialectFactory.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("jdbc")).toList())
                .singleElement().isInstanceOf(GenericJdbcDialectFactory.class);
        assertThat(new GenericJdbcDialectFactory().spiVersion()).isEqualTo(DialectSpi.VERSION);
    }

    @Test
    void theTestDriverIsNotOnTheTestClassPath() {
        assertThatThrownBy(() -> Class.forName(HsqldbPlugin.DRIVER)).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void createsFromTheDriverClassAloneWithDefaults() {
        try (Dialect dialect = HsqldbPlugin.create(MEMORY, 1, home)) {
            GenericJdbcDialect jdbc = (GenericJdbcDialect) dialect;
            assertThat(jdbc.config()).isEqualTo(new GenericJdbcDialectConfig(HsqldbPlugin.DRIVER, 1000));
            assertThat(dialect.sqlFamily()).isEqualTo("generic");
            dialect.checkHealth(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void bindsEveryKey() {
        assertThat(GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", " org.example.Driver ",
                "jdbc.fetch_size", "50"))).isEqualTo(new GenericJdbcDialectConfig("org.example.Driver", 50));
    }

    @Test
    void aMissingDriverClassIsRequired() {
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("jdbc.driver_class: required");
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", " ")))
                .hasMessageStartingWith("jdbc.driver_class: required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"org.example.", "org example.Driver", "1org.Driver", "org/example/Driver"})
    void aDriverClassThatIsNoClassNameIsRefused(String name) {
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", name)))
                .hasMessageStartingWith("jdbc.driver_class: expected a Java class name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "100001", "many", ""})
    void aBadFetchSizeIsRefused(String value) {
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", "a.B",
                "jdbc.fetch_size", value))).hasMessageStartingWith("jdbc.fetch_size: expected 1 to 100000");
    }

    @Test
    void anUnknownKeyIsRefusedWithTheAcceptedOnes() {
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", "a.B",
                "jdbc.fetchsize", "5"))).hasMessage("unknown property jdbc.fetchsize; the jdbc dialect accepts"
                        + " jdbc.driver_class, jdbc.fetch_size (driver settings go into the url)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jar", "jdbc.jar"})
    void thePythonOriginalsJarSaysToUsePlugins(String key) {
        assertThatThrownBy(() -> GenericJdbcDialectConfig.fromProperties(Map.of("jdbc.driver_class", "a.B",
                key, "/opt/drivers/x.jar"))).hasMessageStartingWith(key + ": ").hasMessageContaining("plugins/");
    }

    @Test
    void aDriverClassNotInPluginsStopsStartupNamingTheKeyAndPlugins() {
        // the test's own class loader: HSQLDB is not on it, as without the jar in plugins/
        assertThatThrownBy(() -> new GenericJdbcDialectFactory().create(HsqldbPlugin.context(MEMORY, 1, home),
                Map.of("jdbc.driver_class", HsqldbPlugin.DRIVER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("jdbc.driver_class: class org.hsqldb.jdbc.JDBCDriver not found")
                .hasMessageContaining("plugins/");
    }

    @Test
    void aClassThatIsNoDriverIsRefused() {
        assertThatThrownBy(() -> HsqldbPlugin.create(HsqldbPlugin.context(MEMORY, 1, home),
                Map.of("jdbc.driver_class", "java.lang.String")))
                .hasMessage("jdbc.driver_class: java.lang.String is not a java.sql.Driver");
    }

    @Test
    void aUrlTheDriverDoesNotAcceptIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> HsqldbPlugin.create(HsqldbPlugin.context("jdbc:postgresql://h/db?password=s3cret",
                1, home), Map.of("jdbc.driver_class", HsqldbPlugin.DRIVER)))
                .hasMessageStartingWith("url: the driver org.hsqldb.jdbc.JDBCDriver")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> HsqldbPlugin.create(HsqldbPlugin.context("hsqldb:mem:x", 1, home),
                Map.of("jdbc.driver_class", HsqldbPlugin.DRIVER)))
                .hasMessageStartingWith("url: the jdbc dialect expects a JDBC URL");
    }
}
