package io.queryapigate.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The service's layout rules, checked on its compiled classes: one package per concept, dependencies running one
 * way (no cycles between packages), and dialects reached only through the SPI.
 */
class PackagesTest {
    /** The service's own classes (not the SPI's or the dialects', which share the package prefix). */
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> location.contains("/service/target/classes/"))
            .importPackages("io.queryapigate");

    @Test
    void theServiceClassesWereFound() {
        org.assertj.core.api.Assertions.assertThat(SERVICE.contain("io.queryapigate.call.QueryService")).isTrue();
        org.assertj.core.api.Assertions.assertThat(SERVICE.contain("io.queryapigate.dialect.spi.Dialect")).isFalse();
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.queryapigate.(*)..").should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void theServiceReachesDialectsOnlyThroughTheSpi() {
        noClasses().that().resideOutsideOfPackage("io.queryapigate.dialect..")
                .should().dependOnClassesThat().resideInAnyPackage("io.queryapigate.dialect.duckdb..",
                        "io.queryapigate.dialect.postgres..", "io.queryapigate.dialect.mysql..",
                        "io.queryapigate.dialect.trino..", "io.queryapigate.dialect.clickhouse..",
                        "io.queryapigate.dialect.jdbc..", "io.queryapigate.dialect.sqlite..",
                        "io.queryapigate.dialect.h2..", "io.queryapigate.dialect.genericjdbc..",
                        "io.queryapigate.dialect.mongo..")
                .check(SERVICE);
    }

    @Test
    void resourcesAreTheOnlyHttpEntryPointsOfTheCallPipeline() {
        noClasses().that().resideInAnyPackage("io.queryapigate.call..", "io.queryapigate.guard..",
                        "io.queryapigate.sql..", "io.queryapigate.paging..", "io.queryapigate.params..")
                .should().dependOnClassesThat().resideInAnyPackage("io.queryapigate.resources..")
                .check(SERVICE);
    }
}
